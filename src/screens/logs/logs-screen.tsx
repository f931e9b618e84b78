import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Usage logs (/log). Arrives in a later release; the console already routes here. */
export function LogsScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.log')} />
}
