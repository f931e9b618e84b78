import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Redemption codes (/redemption). Arrives in a later release; the console already routes here. */
export function RedemptionsScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.redemption')} />
}
