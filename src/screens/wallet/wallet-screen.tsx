import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Wallet (/topup). Arrives in a later release; the console already routes here. */
export function WalletScreen() {
  const t = useT()
  return <LaterRelease screen={t('nav.wallet')} />
}
