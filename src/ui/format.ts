import type { PublicStatus } from '../api/types.ts'
import { compactNumber, quotaOfDollars, quotaPerUnitOr, quotaText } from '../../domain/quota.ts'

type QuotaDisplay = Pick<PublicStatus, 'display_in_currency' | 'quota_per_unit'> | null

/** The site's quota per dollar from the locally cached status; the default until it has loaded. */
export const quotaPerUnit = (status: Pick<PublicStatus, 'quota_per_unit'> | null): number => quotaPerUnitOr(status?.quota_per_unit)

/** A quota amount as the site shows it (spec section 9): dollars when it displays currency, else the compact count. */
export function formatQuota(quota: number, status: QuotaDisplay, digits = 2): string {
  return quotaText(quota, { currency: !!status?.display_in_currency, quotaPerUnit: quotaPerUnit(status) }, digits)
}

/**
 * Axis ticks for quota amounts: like formatQuota, with as many decimals as the step between the
 * ticks needs, so small amounts never all read '$0.00'.
 */
export function formatQuotaTicks(ticks: number[], status: QuotaDisplay): string[] {
  if (!status?.display_in_currency) return ticks.map((t) => compactNumber(Math.round(t)))
  const perUnit = quotaPerUnit(status)
  const steps = ticks
    .slice(1)
    .map((t, i) => Math.abs(t - ticks[i]!))
    .filter((d) => d > 0)
  const step = steps.length ? Math.min(...steps) / perUnit : 0.01
  const digits = Math.min(8, Math.max(2, Math.ceil(-Math.log10(step))))
  return ticks.map((t) => `$${(t / perUnit).toFixed(digits)}`)
}

/** Quota for a dollar amount, for inputs that take dollars. */
export const quotaFromDollars = (dollars: number, status: Pick<PublicStatus, 'quota_per_unit'> | null): number =>
  quotaOfDollars(dollars, quotaPerUnit(status))

/** A byte count as people read it: B, KB or MB (1024 steps), one decimal above bytes. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
