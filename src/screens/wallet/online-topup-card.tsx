import { useCallback, useEffect, useRef, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as walletApi from '../../api/wallet.ts'
import { isApiError } from '../../api/errors.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { formatQuota, quotaFromDollars } from '../../ui/format.ts'
import { forcedAmount, submitPayForm } from './pay-rules.ts'
import { MIN_TOPUP_DEFAULT, minTopUpOr, topUpProblem, type PaymentMethod } from '../../../domain/wallet-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '../../ui/icons/alipay.ts'
import '../../ui/icons/credit-card.ts'
import '../../ui/icons/info-circle.ts'
import '../../ui/icons/wechat.ts'

const AMOUNT_DEBOUNCE_MS = 300

/**
 * Online top-up: the amount (never below 1), the money payable from /api/user/amount, the payment
 * method, a confirmation, then the payment platform's form posted to `payTarget`.
 */
export function OnlineTopupCard({ payTarget }: { payTarget?: string }) {
  const t = useT()
  const status = useStore($status)
  const minTopUp = minTopUpOr(status?.min_topup)
  const min = Math.max(MIN_TOPUP_DEFAULT, Math.ceil(minTopUp))
  const [amountText, setAmountText] = useState(String(min))
  const [payable, setPayable] = useState<number | null>(null)
  const [method, setMethod] = useState<PaymentMethod>('zfb')
  const [confirming, setConfirming] = useState(false)
  const [paying, setPaying] = useState(false)
  const request = useRef(0)
  const amount = forcedAmount(amountText)

  /** Asks the server what `value` dollars cost; a refusal reads 'Error: {detail}'. */
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

  // the first amount is the site's minimum; follow the minimum until the user types
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
    // forced to at least 1 as the user types; an empty field is left to be filled in
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

  async function startTopup() {
    if (!status?.enable_online_topup) {
      toast.error(t('wallet.notEnabled'))
      return
    }
    const low = topUpProblem(amount, minTopUp)
    if (low) {
      toast.error(problemMessage(t, low))
      return
    }
    if (!payable) await fetchPayable(amount)
    setConfirming(true)
  }

  async function pay() {
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

  const methodLabel = method === 'zfb' ? t('wallet.alipay') : t('wallet.wechatPay')
  // the card looks and behaves disabled, and says why, until the admin sets up online payment
  const off = !status?.enable_online_topup
  /** The money payable is in Chinese yuan (the site's Price per dollar). */
  const money = (value: number | null) => (
    <>
      <span data-currency="" title={t('wallet.cny')}>
        {t('wallet.yuanSign')}
      </span>
      <span data-amount="">{value === null ? '…' : value.toFixed(2)}</span>
    </>
  )

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
          {t('wallet.payable')} <strong>{money(payable)}</strong>
        </p>
        <sl-radio-group
          name="payment_method"
          label={t('wallet.method')}
          value={method}
          onsl-change={(e: Event) => setMethod((e.target as HTMLInputElement).value === 'wx' ? 'wx' : 'zfb')}
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
        <sl-button variant="primary" data-action="topup" disabled={off} onClick={startTopup}>
          {t('wallet.topup')}
        </sl-button>
      </div>

      <sl-dialog
        label={t('wallet.confirmTitle')}
        open={confirming}
        data-testid="pay-dialog"
        onsl-after-hide={(e: Event) => e.target === e.currentTarget && setConfirming(false)}
      >
        <dl className="tg-summary">
          <dt>{t('wallet.amount')}</dt>
          <dd data-summary="amount">${amount}</dd>
          <dt>{t('wallet.payable')}</dt>
          <dd data-summary="payable">{money(payable)}</dd>
          <dt>{t('wallet.method')}</dt>
          <dd data-summary="method">{methodLabel}</dd>
        </dl>
        <p className="tg-wallet-card__lead">{t('wallet.confirmBody')}</p>
        <sl-button slot="footer" onClick={() => setConfirming(false)}>
          {t('common.cancel')}
        </sl-button>
        <sl-button slot="footer" variant="primary" loading={paying} data-action="pay" onClick={pay}>
          {t('wallet.pay')}
        </sl-button>
      </sl-dialog>
    </section>
  )
}
