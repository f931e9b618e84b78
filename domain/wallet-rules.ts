/** Wallet: the redemption entry, the online top-up's amount rule and payment methods (spec sections 5 and 9). */
import { problem, type Problem } from './problem.ts'

/** Dollars: the MinTopUp option's default, and the least the amount input ever holds. */
export const MIN_TOPUP_DEFAULT = 1
/** Currency units per dollar: the Price option's default. */
export const PRICE_DEFAULT = 7.3

/** The payment methods of POST /api/user/pay. */
export const PAYMENT_METHODS = ['zfb', 'wx'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** The minimum in force: the configured MinTopUp, or 1 when it is missing. */
export const minTopUpOr = (configured: number | null | undefined): number => configured || MIN_TOPUP_DEFAULT

/** Redeeming a code in the wallet needs the code. */
export function redeemCodeProblem(key: string): Problem | null {
  return key.trim() === '' ? problem('topup.codeMissing') : null
}

/** An online top-up of `amount` dollars must reach the site's minimum. */
export function topUpProblem(amount: number, minTopUp: number): Problem | null {
  return amount >= minTopUp ? null : problem('topup.belowMinimum', { min: minTopUp })
}
