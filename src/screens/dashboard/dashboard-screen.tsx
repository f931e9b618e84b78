import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Data dashboard (/detail). Arrives in a later release; the console already routes here. */
export function DashboardScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.detail')} />
}
