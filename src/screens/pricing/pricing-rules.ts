import type { PricingEntry } from '../../api/types.ts'
import { compactNumber, quotaOfDollars } from '../../../domain/quota.ts'
import { BILLING_TYPE } from '../../../domain/statuses.ts'

export type BillingFilter = 'all' | 'usage' | 'call'

export const isPerCall = (e: Pick<PricingEntry, 'quota_type'>) => e.quota_type === BILLING_TYPE.perCall

/** A dollar price: two decimals at least, up to six for the cheapest models, float noise removed. */
export function formatUsd(dollars: number): string {
  const clean = Number(dollars.toPrecision(12))
  return `$${clean.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`
}

/** The same price in quota, for sites that show quota rather than currency. */
export const quotaOf = (dollars: number, quotaPerUnit: number) => compactNumber(quotaOfDollars(dollars, quotaPerUnit))

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
