import type { PublicStatus } from '../api/types.ts'

export const DEFAULT_QUOTA_PER_UNIT = 500000

/** Compact count: above 9999 in k, from a million in M, from a billion in B (spec section 9). */
export function compactNumber(n: number): string {
  const abs = Math.abs(n)
  if (abs >= 1e9) return `${trim((n / 1e9).toFixed(1))}B`
  if (abs >= 1e6) return `${trim((n / 1e6).toFixed(1))}M`
  if (abs > 9999) return `${trim((n / 1e3).toFixed(1))}k`
  return String(n)
}

const trim = (s: string) => s.replace(/\.0$/, '')

/**
 * A quota amount as the site shows it: '$' + quota / quota_per_unit with two decimals when the
 * site displays currency, otherwise the compact count. Needs the locally cached quota-per-unit.
 */
export function formatQuota(
  quota: number,
  status: Pick<PublicStatus, 'display_in_currency' | 'quota_per_unit'> | null,
  digits = 2,
): string {
  const perUnit = status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT
  if (status?.display_in_currency) return `$${(quota / perUnit).toFixed(digits)}`
  return compactNumber(quota)
}

/**
 * Axis ticks for quota amounts: like formatQuota, with as many decimals as the step between the
 * ticks needs, so small amounts never all read '$0.00'.
 */
export function formatQuotaTicks(ticks: number[], status: Pick<PublicStatus, 'display_in_currency' | 'quota_per_unit'> | null): string[] {
  if (!status?.display_in_currency) return ticks.map((t) => compactNumber(Math.round(t)))
  const perUnit = status.quota_per_unit || DEFAULT_QUOTA_PER_UNIT
  const steps = ticks
    .slice(1)
    .map((t, i) => Math.abs(t - ticks[i]!))
    .filter((d) => d > 0)
  const step = steps.length ? Math.min(...steps) / perUnit : 0.01
  const digits = Math.min(8, Math.max(2, Math.ceil(-Math.log10(step))))
  return ticks.map((t) => `$${(t / perUnit).toFixed(digits)}`)
}

/** Quota units for a dollar amount, for inputs that take dollars. */
export function quotaFromDollars(dollars: number, status: Pick<PublicStatus, 'quota_per_unit'> | null): number {
  return Math.round(dollars * (status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT))
}

export function formatDateTime(unixSeconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unixSeconds * 1000))
}
