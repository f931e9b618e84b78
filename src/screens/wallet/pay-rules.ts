import type { PayOrder } from '../../api/wallet.ts'
import { MIN_TOPUP_DEFAULT } from '../../../domain/wallet-rules.ts'

/**
 * Hands the order to the payment platform the way it expects: a hidden POST form with the order's
 * fields, submitted to `target` (a new tab by default; a host or a test may name a frame).
 */
export function submitPayForm(order: PayOrder, target = '_blank', doc: Document = document): void {
  const form = doc.createElement('form')
  form.method = 'POST'
  form.action = order.url
  form.target = target
  form.hidden = true
  for (const [name, value] of Object.entries(order.fields)) {
    const input = doc.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  doc.body.append(form)
  form.submit()
  form.remove()
}

/** The top-up amount input never goes below 1 (spec section 5); whole dollars. */
export function forcedAmount(text: string): number {
  const n = Math.floor(Number(text))
  return Number.isFinite(n) && n >= MIN_TOPUP_DEFAULT ? n : MIN_TOPUP_DEFAULT
}
