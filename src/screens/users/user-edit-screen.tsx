import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** User edit (/user/edit/{id}) and add (/user/edit). Arrives in a later release; the console already routes here. */
export function UserEditScreen(_props: { id?: number }) {
  const t = useT()
  return <LaterRelease screen={t('nav.userEdit')} />
}
