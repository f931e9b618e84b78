import { get } from './client.ts'
import type { PricingEntry } from './types.ts'
import { DEFAULT_GROUP } from '../../domain/roles.ts'

export interface Pricing {
  models: PricingEntry[]
  /** the caller's group (default when signed out) */
  group: string
  groupRatio: number
}

/**
 * GET /api/pricing: public; signed out it prices for the default group. The answer carries
 * group_ratio beside data: the caller's own group and its ratio.
 */
export async function load(): Promise<Pricing> {
  const envelope = (await get<PricingEntry[]>('/api/pricing', undefined, { quiet: true })) as {
    data: PricingEntry[]
    group_ratio?: Record<string, number>
  }
  const ratios = envelope.group_ratio && typeof envelope.group_ratio === 'object' ? envelope.group_ratio : {}
  const [group, ratio] = Object.entries(ratios)[0] ?? [DEFAULT_GROUP, 1]
  return { models: envelope.data ?? [], group, groupRatio: typeof ratio === 'number' && Number.isFinite(ratio) ? ratio : 1 }
}
