import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** The operation settings tab (super administrator). Arrives in a later release. */
export function OperationTab() {
  const t = useT()
  return <LaterRelease screen={t('nav.setting')} />
}
