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
 * GET /api/pricing: public; signed out it prices for the default group. Beside data the answer
 * carries group_ratio, the caller's group's ratio (a number, as the family's consoles read it),
 * and group, that group's name.
 */
export async function load(): Promise<Pricing> {
  const envelope = (await get<PricingEntry[]>('/api/pricing', undefined, { quiet: true })) as {
    data: PricingEntry[]
    group_ratio?: unknown
    group?: unknown
  }
  const ratio = envelope.group_ratio
  return {
    models: envelope.data ?? [],
    group: typeof envelope.group === 'string' && envelope.group ? envelope.group : DEFAULT_GROUP,
    groupRatio: typeof ratio === 'number' && Number.isFinite(ratio) ? ratio : 1,
  }
}
