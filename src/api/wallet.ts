import { call, post } from './client.ts'
import { isApiError } from './errors.ts'
import type { PaymentMethod } from '../../domain/wallet-rules.ts'

/**
 * The two online top-up calls answer in their own way: `message` is 'success' with the result in
 * `data`, or 'error' with the reason in `data` (spec section 7, Wallet). A refusal comes back as
 * `{ ok: false, reason }`; a transport failure or a 401 throws (the client has handled the 401).
 */
export type WalletResult<T> = { ok: true; value: T } | { ok: false; reason: string }

interface WalletEnvelope {
  success: boolean
  message: string
  data: unknown
  url?: string
}

async function walletCall(path: string, body: unknown): Promise<WalletEnvelope> {
  try {
    return (await call<unknown>('POST', path, { body, quiet: true })) as WalletEnvelope
  } catch (e) {
    if (isApiError(e) && e.refused) return { success: false, message: 'error', data: e.data ?? e.message }
    throw e
  }
}

const reasonOf = (env: WalletEnvelope) => (typeof env.data === 'string' && env.data ? env.data : env.message || 'error')

/** POST /api/user/topup: redeems a code; returns the quota added. The server's refusal is shown as a toast. */
export async function redeem(key: string): Promise<number> {
  return Number((await post<number>('/api/user/topup', { key })).data) || 0
}

/** POST /api/user/amount: the money payable for `amount` dollars of quota. */
export async function amount(amount: number, topUpCode = ''): Promise<WalletResult<number>> {
  const env = await walletCall('/api/user/amount', { amount, top_up_code: topUpCode })
  if (env.message !== 'success') return { ok: false, reason: reasonOf(env) }
  return { ok: true, value: Number(env.data) || 0 }
}

export interface PayOrder {
  /** where the hidden form posts */
  url: string
  /** the form fields */
  fields: Record<string, string>
}

/** POST /api/user/pay: creates the order and returns the payment form to post. */
export async function pay(amount: number, paymentMethod: PaymentMethod, topUpCode = ''): Promise<WalletResult<PayOrder>> {
  const env = await walletCall('/api/user/pay', { amount, top_up_code: topUpCode, payment_method: paymentMethod })
  if (env.message !== 'success') return { ok: false, reason: reasonOf(env) }
  const fields: Record<string, string> = {}
  if (env.data && typeof env.data === 'object')
    for (const [k, v] of Object.entries(env.data as Record<string, unknown>)) fields[k] = String(v)
  return { ok: true, value: { url: String(env.url ?? ''), fields } }
}
