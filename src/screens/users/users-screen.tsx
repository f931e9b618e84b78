import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** User management (/user). Arrives in a later release; the console already routes here. */
export function UsersScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.user')} />
}
