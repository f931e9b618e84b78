import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Channel management (/channel). Arrives in a later release; the console already routes here. */
export function ChannelsScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.channel')} />
}
