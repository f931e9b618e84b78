import { useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as walletApi from '../../api/wallet.ts'
import { $status } from '../../stores/status.ts'
import { refreshUser } from '../../stores/account.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { formatQuota } from '../../ui/format.ts'
import { redeemCodeProblem } from '../../../domain/wallet-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/box-arrow-up-right.ts'
import '../../ui/icons/info-circle.ts'
import '../../ui/icons/ticket-perforated.ts'
import '../../i18n/en/wallet.ts'

/** "Buy a code": a link to where codes are sold, or disabled without one. */
function BuyCode({ link }: { link: string }) {
  const t = useT()
  return link ? (
    <a className="tg-button" href={link} target="_blank" rel="noopener noreferrer" data-action="buy-code">
      <sl-icon name="box-arrow-up-right" aria-hidden="true"></sl-icon>
      {t('wallet.buyCode')}
    </a>
  ) : (
    <sl-button data-action="buy-code" disabled title={t('wallet.noTopupLink')}>
      <sl-icon slot="prefix" name="box-arrow-up-right"></sl-icon>
      {t('wallet.buyCode')}
    </sl-button>
  )
}

/**
 * Redemption-code entry: redeems the code, says how much quota it added, refreshes the balance
 * from the server and tells the host (onRedeemed). The top-up link leads to where codes are sold;
 * without one, "Buy a code" is disabled and says why.
 */
export function RedeemCard({ onRedeemed }: { onRedeemed?: (quota: number) => void }) {
  const t = useT()
  const status = useStore($status)
  const [code, setCode] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [added, setAdded] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const link = status?.top_up_link?.trim() ?? ''

  async function redeem(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    setMessage(null)
    setAdded(null)
    const key = code.trim()
    const missing = redeemCodeProblem(key)
    if (missing) {
      setMessage(problemMessage(t, missing))
      return
    }
    setBusy(true)
    try {
      const quota = await walletApi.redeem(key)
      toast.success(t('wallet.redeemed'))
      setAdded(quota)
      setCode('')
      await refreshUser()
      onRedeemed?.(quota)
    } catch {
      // the client showed the server's reason (unknown, disabled or used code)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="tg-wallet-card" aria-labelledby="tg-redeem-title" part="redeem">
      <h2 id="tg-redeem-title">
        <sl-icon name="ticket-perforated" aria-hidden="true"></sl-icon>
        {t('wallet.redeemTitle')}
      </h2>
      <p className="tg-wallet-card__lead">{t('wallet.redeemLead')}</p>
      <form className="tg-form" onSubmit={redeem} noValidate data-testid="redeem-form">
        {message && <FormMessage>{message}</FormMessage>}
        {added !== null && (
          <FormMessage variant="success">
            <span data-added="">{t('wallet.added', { quota: formatQuota(added, status) })}</span>
          </FormMessage>
        )}
        <sl-input
          name="code"
          label={t('wallet.code')}
          placeholder={t('wallet.codePlaceholder')}
          autocomplete="off"
          clearable
          value={code}
          onsl-input={(e: Event) => setCode((e.target as HTMLInputElement).value)}
        ></sl-input>
        {!link && (
          <p className="tg-wallet-card__off" data-buy-code-off="">
            <sl-icon name="info-circle" aria-hidden="true"></sl-icon>
            {t('wallet.noTopupLink')}
          </p>
        )}
        <div className="tg-wallet-actions">
          <BuyCode link={link} />
          <sl-button type="submit" variant="primary" loading={busy} data-action="redeem">
            {t('wallet.redeem')}
          </sl-button>
        </div>
      </form>
    </section>
  )
}
