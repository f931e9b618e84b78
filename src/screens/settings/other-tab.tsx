import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** The other settings tab (super administrator). Arrives in a later release. */
export function OtherTab() {
  const t = useT()
  return <LaterRelease screen={t('nav.setting')} />
}
