import { useCallback, useEffect, useRef, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage, type Translate } from '../../i18n/t.ts'
import * as walletApi from '../../api/wallet.ts'
import { isApiError } from '../../api/errors.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { formatQuota, quotaFromDollars } from '../../ui/format.ts'
import { forcedAmount, submitPayForm } from './pay-rules.ts'
import { Money } from './money.tsx'
import { PayConfirmDialog } from './pay-confirm-dialog.tsx'
import { MIN_TOPUP_DEFAULT, minTopUpOr, topUpProblem, type PaymentMethod } from '../../../domain/wallet-rules.ts'
import type { PublicStatus } from '../../api/types.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/alipay.ts'
import '../../ui/icons/credit-card.ts'
import '../../ui/icons/info-circle.ts'
import '../../ui/icons/wechat.ts'
import '../../i18n/en/wallet.ts'

// The payment method's buttons load as the wallet starts, beside its requests, not before the
// first paint (the method only matters once the user tops up); wallet.css keeps their place.
void import('@shoelace-style/shoelace/dist/components/radio-group/radio-group.js')
void import('@shoelace-style/shoelace/dist/components/radio-button/radio-button.js')

const AMOUNT_DEBOUNCE_MS = 300

/** What the server says `value` dollars cost (null while unknown); a refusal reads 'Error: {detail}'. */
function usePayable(t: Translate) {
  const [payable, setPayable] = useState<number | null>(null)
  const request = useRef(0)
  const fetchPayable = useCallback(
    async (value: number) => {
      const id = ++request.current
      try {
        const result = await walletApi.amount(value)
        if (id !== request.current) return
        if (result.ok) setPayable(result.value)
        else {
          setPayable(0)
          toast.error(t('error.other', { message: result.reason }))
        }
      } catch (e) {
        if (id !== request.current) return
        setPayable(null)
        if (!(isApiError(e) && e.status === 401)) toast.error((e as Error).message)
      }
    },
    [t],
  )
  return { payable, fetchPayable }
}

/**
 * The amount field: starts at the site's minimum (and follows it until the user types), is forced
 * to at least 1 as the user types and to a whole number on change; the money payable follows it.
 */
function useAmount(min: number, fetchPayable: (value: number) => Promise<void>) {
  const [amountText, setAmountText] = useState(String(min))
  const amount = forcedAmount(amountText)

  const typed = useRef(false)
  useEffect(() => {
    if (!typed.current) setAmountText(String(min))
  }, [min])

  useEffect(() => {
    if (amountText.trim() === '') return
    const timer = setTimeout(() => void fetchPayable(amount), AMOUNT_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [amount, amountText, fetchPayable])

  function onAmountInput(e: Event) {
    typed.current = true
    const input = e.target as HTMLInputElement
    const text = input.value
    // an empty field is left to be filled in
    if (text.trim() !== '' && !(Number(text) >= 1)) {
      input.value = '1'
      setAmountText('1')
      return
    }
    setAmountText(text)
  }

  function onAmountChange(e: Event) {
    const input = e.target as HTMLInputElement
    const fixed = String(forcedAmount(input.value))
    if (input.value !== fixed) input.value = fixed
    setAmountText(fixed)
  }

  return { amountText, amount, onAmountInput, onAmountChange }
}

/** Starting a top-up (checks, then the confirmation) and paying (the platform's form to `payTarget`). */
function useTopup(t: Translate, status: PublicStatus | null, payTarget: string | undefined) {
  const [confirming, setConfirming] = useState(false)
  const [paying, setPaying] = useState(false)

  async function start(amount: number, payable: number | null, fetchPayable: (value: number) => Promise<void>) {
    if (!status?.enable_online_topup) {
      toast.error(t('wallet.notEnabled'))
      return
    }
    const low = topUpProblem(amount, minTopUpOr(status?.min_topup))
    if (low) {
      toast.error(problemMessage(t, low))
      return
    }
    if (!payable) await fetchPayable(amount)
    setConfirming(true)
  }

  async function pay(amount: number, method: PaymentMethod) {
    if (paying) return
    setPaying(true)
    try {
      const result = await walletApi.pay(amount, method)
      if (result.ok) {
        submitPayForm(result.value, payTarget || '_blank')
        setConfirming(false)
      } else toast.error(result.reason)
    } catch (e) {
      if (!(isApiError(e) && e.status === 401)) toast.error(t('error.requestFailed'))
    } finally {
      setPaying(false)
    }
  }

  return { confirming, paying, start, pay, cancel: () => setConfirming(false) }
}

/** The payment method: Alipay or WeChat Pay. */
function MethodField({ method, off, onChange }: { method: PaymentMethod; off: boolean; onChange: (m: PaymentMethod) => void }) {
  const t = useT()
  return (
    <sl-radio-group
      name="payment_method"
      label={t('wallet.method')}
      value={method}
      onsl-change={(e: Event) => onChange((e.target as HTMLInputElement).value === 'wx' ? 'wx' : 'zfb')}
    >
      <sl-radio-button value="zfb" data-method="zfb" disabled={off}>
        <sl-icon slot="prefix" name="alipay"></sl-icon>
        {t('wallet.alipay')}
      </sl-radio-button>
      <sl-radio-button value="wx" data-method="wx" disabled={off}>
        <sl-icon slot="prefix" name="wechat"></sl-icon>
        {t('wallet.wechatPay')}
      </sl-radio-button>
    </sl-radio-group>
  )
}

/**
 * Online top-up: the amount (never below 1), the money payable from /api/user/amount, the payment
 * method, a confirmation, then the payment platform's form posted to `payTarget`.
 */
export function OnlineTopupCard({ payTarget }: { payTarget?: string }) {
  const t = useT()
  const status = useStore($status)
  const minTopUp = minTopUpOr(status?.min_topup)
  const min = Math.max(MIN_TOPUP_DEFAULT, Math.ceil(minTopUp))
  const { payable, fetchPayable } = usePayable(t)
  const { amountText, amount, onAmountInput, onAmountChange } = useAmount(min, fetchPayable)
  const [method, setMethod] = useState<PaymentMethod>('zfb')
  const topup = useTopup(t, status, payTarget)

  const methodLabel = method === 'zfb' ? t('wallet.alipay') : t('wallet.wechatPay')
  // the card looks and behaves disabled, and says why, until the admin sets up online payment
  const off = !status?.enable_online_topup

  return (
    <section
      className={off ? 'tg-wallet-card tg-wallet-card--off' : 'tg-wallet-card'}
      aria-labelledby="tg-online-title"
      aria-describedby={off ? 'tg-online-off' : undefined}
      data-online={off ? 'off' : 'on'}
      part="online-topup"
    >
      <h2 id="tg-online-title">
        <sl-icon name="credit-card" aria-hidden="true"></sl-icon>
        {t('wallet.onlineTitle')}
      </h2>
      <p className="tg-wallet-card__lead">{t('wallet.onlineLead', { min: minTopUp })}</p>
      {off && (
        <p className="tg-wallet-card__off" id="tg-online-off" data-online-off="">
          <sl-icon name="info-circle" aria-hidden="true"></sl-icon>
          {t('wallet.onlineOff')}
        </p>
      )}
      <div className="tg-form" aria-disabled={off ? 'true' : undefined} inert={off}>
        <sl-input
          name="amount"
          type="number"
          min={1}
          step={1}
          inputmode="numeric"
          label={t('wallet.amount')}
          help-text={t('wallet.amountHint', { quota: formatQuota(quotaFromDollars(amount, status), status) })}
          value={amountText}
          disabled={off}
          onsl-input={onAmountInput}
          onsl-change={onAmountChange}
        >
          <span slot="prefix">$</span>
        </sl-input>
        <p className="tg-payable" aria-live="polite" data-payable="">
          {t('wallet.payable')}{' '}
          <strong>
            <Money value={payable} />
          </strong>
        </p>
        <MethodField method={method} off={off} onChange={setMethod} />
        <sl-button variant="primary" data-action="topup" disabled={off} onClick={() => void topup.start(amount, payable, fetchPayable)}>
          {t('wallet.topup')}
        </sl-button>
      </div>

      <PayConfirmDialog
        open={topup.confirming}
        amount={amount}
        payable={payable}
        methodLabel={methodLabel}
        paying={topup.paying}
        onClose={topup.cancel}
        onPay={() => void topup.pay(amount, method)}
      />
    </section>
  )
}
