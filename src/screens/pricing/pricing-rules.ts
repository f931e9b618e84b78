import type { PricingEntry } from '../../api/types.ts'
import { compactNumber } from '../../ui/format.ts'

/** Billing types (spec section 4): 1 per call, 0 per usage. */
export const BILLING = { perUsage: 0, perCall: 1 } as const

export type BillingFilter = 'all' | 'usage' | 'call'

/** Dollars per 1M prompt tokens: model ratio x 2 x group ratio (spec section 9). */
export const inputPrice = (e: Pick<PricingEntry, 'model_ratio'>, groupRatio: number) => e.model_ratio * 2 * groupRatio

/** Dollars per 1M completion tokens: the input price times the completion ratio. */
export const completionPrice = (e: Pick<PricingEntry, 'model_ratio' | 'completion_ratio'>, groupRatio: number) =>
  inputPrice(e, groupRatio) * e.completion_ratio

/** Dollars per call: model price x group ratio. */
export const callPrice = (e: Pick<PricingEntry, 'model_price'>, groupRatio: number) => e.model_price * groupRatio

export const isPerCall = (e: Pick<PricingEntry, 'quota_type'>) => e.quota_type === BILLING.perCall

/** A dollar price: two decimals at least, up to six for the cheapest models, float noise removed. */
export function formatUsd(dollars: number): string {
  const clean = Number(dollars.toPrecision(12))
  return `$${clean.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`
}

/** The same price in quota, for sites that show quota rather than currency. */
export const quotaOf = (dollars: number, quotaPerUnit: number) => compactNumber(Math.round(dollars * quotaPerUnit))

/** Search by name (trimmed, any case), billing type and, optionally, only what the group can use. */
export function filterPricing(
  models: PricingEntry[],
  query: { text: string; billing: BillingFilter; availableOnly: boolean },
): PricingEntry[] {
  const text = query.text.trim().toLowerCase()
  return models.filter(
    (m) =>
      (!text || m.model_name.toLowerCase().includes(text)) &&
      (query.billing === 'all' || (query.billing === 'call') === isPerCall(m)) &&
      (!query.availableOnly || m.available),
  )
}
