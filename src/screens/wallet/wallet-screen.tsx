import { useEffect } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { $session } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { refreshUser } from '../../stores/account.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { formatQuota } from '../../ui/format.ts'
import { Link } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { OnlineTopupCard } from './online-topup-card.tsx'
import { RedeemCard } from './redeem-card.tsx'
import walletCss from './wallet.css?inline'
import '../../ui/icons/wallet2.ts'
import '../../i18n/en/wallet.ts'

interface WalletScreenProps {
  /** a redemption code added quota (the amount added) */
  onTopup?: (quota: number) => void
  /** where the payment platform's page opens: a window or frame name; a new tab by default */
  payTarget?: string
}

/** Wallet (/topup): current balance, redemption-code entry and online top-up. */
export function WalletScreen({ onTopup, payTarget }: WalletScreenProps) {
  const t = useT()
  const user = useStore($session)
  return (
    <div className="tg-screen tg-wallet" data-screen="wallet">
      <style>{walletCss}</style>
      {user ? (
        <WalletView onTopup={onTopup} payTarget={payTarget} />
      ) : (
        <EmptyState
          icon="wallet2"
          title={t('wallet.signedOutTitle')}
          action={
            <Link to="/login" className="tg-button tg-button--primary">
              {t('top.login')}
            </Link>
          }
        >
          {t('wallet.signedOutBody')}
        </EmptyState>
      )}
    </div>
  )
}

function WalletView({ onTopup, payTarget }: WalletScreenProps) {
  const t = useT()
  const user = useStore($session)
  const status = useStore($status)

  // the balance as the server has it now (GET /api/user/self)
  useEffect(() => {
    void refreshUser()
  }, [])

  return (
    <>
      <PageHeader title={t('nav.wallet')} description={t('wallet.description')} />
      <section className="tg-balance" aria-label={t('wallet.balance')} part="balance">
        <div>
          <span className="tg-balance__label">{t('wallet.balance')}</span>
          <strong className="tg-balance__value" data-balance="">
            {formatQuota(user?.quota ?? 0, status)}
          </strong>
        </div>
        <div>
          <span className="tg-balance__label">{t('wallet.used')}</span>
          <span className="tg-balance__minor" data-used="">
            {formatQuota(user?.used_quota ?? 0, status)}
          </span>
        </div>
        <div>
          <span className="tg-balance__label">{t('wallet.requests')}</span>
          <span className="tg-balance__minor">{user?.request_count ?? 0}</span>
        </div>
      </section>
      <div className="tg-wallet-grid">
        <RedeemCard onRedeemed={onTopup} />
        <OnlineTopupCard payTarget={payTarget} />
      </div>
    </>
  )
}
