/** Quota units and how quota is shown (spec section 9). */

/** 500000 quota is one US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500000

/** The largest quota amount a balance, a token or a code may hold: far inside safe integers. */
export const QUOTA_MAX = 1e15

/** The quota per dollar in force: the configured value, or the default when it is missing or not positive. */
export const quotaPerUnitOr = (configured: number | null | undefined): number =>
  configured && configured > 0 ? configured : DEFAULT_QUOTA_PER_UNIT

/** Quota for a dollar amount. */
export const quotaOfDollars = (dollars: number, quotaPerUnit: number): number => Math.round(dollars * quotaPerUnit)

/** Quota presets of the token and redemption forms: 1, 10, 50, 100, 500 and 1000 dollars at the default unit. */
export const QUOTA_PRESETS: ReadonlyArray<{ quota: number; dollars: number }> = [1, 10, 50, 100, 500, 1000].map((dollars) => ({
  dollars,
  quota: dollars * DEFAULT_QUOTA_PER_UNIT,
}))

const trimZero = (s: string) => s.replace(/\.0$/, '')

/** Compact count: above 9999 in k, from a million in M, from a billion in B. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n)
  if (abs >= 1e9) return `${trimZero((n / 1e9).toFixed(1))}B`
  if (abs >= 1e6) return `${trimZero((n / 1e6).toFixed(1))}M`
  if (abs > 9999) return `${trimZero((n / 1e3).toFixed(1))}k`
  return String(n)
}

/**
 * A quota amount as the site shows it: '$' + quota / quota-per-unit with two decimals when the site
 * displays currency, otherwise the compact count.
 */
export function quotaText(quota: number, display: { currency: boolean; quotaPerUnit: number }, digits = 2): string {
  if (display.currency) return `$${(quota / quotaPerUnitOr(display.quotaPerUnit)).toFixed(digits)}`
  return compactNumber(quota)
}
