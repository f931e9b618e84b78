import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Channel edit (/channel/edit/{id}) and add (/channel/add). Arrives in a later release; the console already routes here. */
export function ChannelEditScreen(_props: { id?: number }) {
  const t = useT()
  return <LaterRelease screen={t('nav.channelEdit')} />
}
