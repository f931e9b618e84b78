import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** The system settings tab (super administrator). Arrives in a later release. */
export function SystemTab() {
  const t = useT()
  return <LaterRelease screen={t('nav.setting')} />
}
