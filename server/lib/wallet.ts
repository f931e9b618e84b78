/**
 * Online top-up (spec sections 7 and 9): whether it is on, what an amount costs, and the order
 * form the browser posts to the epay platform.
 */
import type { OptionStore } from '../options.ts'
import type { MessageKey, Text } from '../i18n/index.ts'
import { EPAY_TYPES, epayForm } from './epay.ts'
import { problemText } from './problems.ts'
import { randomKey } from './users.ts'
import { minTopUpOr, PRICE_DEFAULT, topUpProblem, type PaymentMethod } from '../../domain/wallet-rules.ts'

/** Online top-up works only when the epay address, merchant id and key are all set. */
export function onlineTopUpEnabled(o: OptionStore): boolean {
  return o.get('PayAddress').trim() !== '' && o.get('EpayId').trim() !== '' && o.get('EpayKey') !== ''
}

/** Money to pay, in cents: amount (US$) x Price x the top-up ratio of the user's group (default 1). */
export function payableCents(o: OptionStore, amount: number, group: string): number {
  const ratios = o.json<Record<string, unknown>>('TopupGroupRatio', {})
  const r = ratios && typeof ratios === 'object' ? ratios[group] : undefined
  const ratio = typeof r === 'number' && Number.isFinite(r) && r >= 0 ? r : 1
  const price = o.num('Price', PRICE_DEFAULT)
  // toPrecision trims binary noise such as 7.3 x 3 x 100 = 2189.9999999999995
  return Math.round(Number((amount * price * ratio * 100).toPrecision(12)))
}

/** Cents as the platform and the console write money: two decimals. */
export const moneyText = (cents: number): string => (cents / 100).toFixed(2)

/** What `amount` dollars cost the user's group, or why that amount is refused. */
export function quote(o: OptionStore, amount: number, group: string): { reason: Text | MessageKey } | { cents: number } {
  const low = topUpProblem(amount, minTopUpOr(o.num('MinTopUp')))
  if (low) return { reason: problemText(low) }
  const cents = payableCents(o, amount, group)
  return cents < 1 ? { reason: 'wallet.moneyTooLow' } : { cents }
}

const withoutSlash = (url: string) => url.trim().replace(/\/+$/, '')

/**
 * A new order of `amount` dollars for `cents`: its trade number, the signed form fields and the
 * platform's submit address. The platform calls back `/api/user/epay/notify` at the callback
 * address (the server address unless a custom one is set).
 */
export function epayOrder(
  o: OptionStore,
  order: { userId: number; amount: number; cents: number; method: PaymentMethod; at: number },
): { tradeNo: string; type: string; form: Record<string, string>; url: string } {
  const serverAddress = withoutSlash(o.get('ServerAddress'))
  const tradeNo = `USR${order.userId}NO${randomKey(6)}${order.at}`
  const type = EPAY_TYPES[order.method]
  const callback = withoutSlash(o.get('CustomCallbackAddress')) || serverAddress
  const fields = {
    pid: o.get('EpayId').trim(),
    type,
    out_trade_no: tradeNo,
    notify_url: `${callback}/api/user/epay/notify`,
    return_url: `${serverAddress}/log`,
    name: `TUC${order.amount}`,
    money: moneyText(order.cents),
  }
  return { tradeNo, type, form: epayForm(fields, o.get('EpayKey')), url: `${withoutSlash(o.get('PayAddress'))}/submit.php` }
}
