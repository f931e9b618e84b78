import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** My tokens (/token). Arrives in a later release; the console already routes here. */
export function TokensScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.token')} />
}
