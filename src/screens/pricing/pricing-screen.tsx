import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Model pricing (/pricing). Arrives in a later release; the console already routes here. */
export function PricingScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.pricing')} />
}
