import { useT } from '../../i18n/t.ts'
import { useOnDemand } from '../../ui/on-demand.ts'
import { Money } from './money.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '../../i18n/en/wallet.ts'

/** The dialog loads when a top-up is first confirmed (the wallet's first paint does without it). */
const loadDialog = () => import('@shoelace-style/shoelace/dist/components/dialog/dialog.js')

/** The summary of a top-up (amount, money payable, method) and the button to the payment platform. */
export function PayConfirmDialog({
  open,
  amount,
  payable,
  methodLabel,
  paying,
  onClose,
  onPay,
}: {
  open: boolean
  amount: number
  payable: number | null
  methodLabel: string
  paying: boolean
  onClose: () => void
  onPay: () => void
}) {
  const t = useT()
  const shown = useOnDemand('sl-dialog', loadDialog, open)
  return (
    <sl-dialog
      label={t('wallet.confirmTitle')}
      open={shown}
      data-testid="pay-dialog"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}
    >
      <dl className="tg-summary">
        <dt>{t('wallet.amount')}</dt>
        <dd data-summary="amount">${amount}</dd>
        <dt>{t('wallet.payable')}</dt>
        <dd data-summary="payable">
          <Money value={payable} />
        </dd>
        <dt>{t('wallet.method')}</dt>
        <dd data-summary="method">{methodLabel}</dd>
      </dl>
      <p className="tg-wallet-card__lead">{t('wallet.confirmBody')}</p>
      <sl-button slot="footer" onClick={onClose}>
        {t('common.cancel')}
      </sl-button>
      <sl-button slot="footer" variant="primary" loading={paying} data-action="pay" onClick={onPay}>
        {t('wallet.pay')}
      </sl-button>
    </sl-dialog>
  )
}
