import { get } from './client.ts'
import type { QuotaDataRow } from './types.ts'

export interface DataRange {
  /** unix seconds */
  start_timestamp: number
  /** unix seconds */
  end_timestamp: number
}

/** GET /api/data/ (admin): usage of every user summed per model and hour, or one user's rows. */
export async function all(range: DataRange, username = ''): Promise<QuotaDataRow[]> {
  return (await get<QuotaDataRow[]>('/api/data/', { ...range, username })).data ?? []
}

/** GET /api/data/self: the signed-in user's own usage per model and hour (at most 30 days at a time). */
export async function self(range: DataRange): Promise<QuotaDataRow[]> {
  return (await get<QuotaDataRow[]>('/api/data/self', { ...range })).data ?? []
}

export type BreakdownBy = 'model' | 'user' | 'token' | 'channel'

export interface BreakdownFigures {
  count: number
  quota: number
  token_used: number
}

export interface Breakdown {
  by: BreakdownBy
  period: 'hour' | 'day' | 'week'
  /** the top keys over the range, largest quota first */
  top: Array<BreakdownFigures & { key: string; label: string }>
  /** the sum of every key outside the top (null when there are none) */
  others: BreakdownFigures | null
  /** per period (its start, unix seconds) and key; `key` null for the others */
  rows: Array<BreakdownFigures & { period: number; key: string | null }>
}

export interface BreakdownAsk extends DataRange {
  by: BreakdownBy
  granularity: 'hour' | 'day' | 'week'
  top: number
  /** seconds east of UTC where the viewer's days begin */
  tz_offset: number
  /** administrators: one user's usage */
  username?: string
}

/**
 * GET /api/data/breakdown (admin: by model, user, token or channel) or /api/data/self/breakdown
 * (the signed-in user's own models and tokens), from the hourly buckets.
 */
export async function breakdown(ask: BreakdownAsk, admin: boolean): Promise<Breakdown | null> {
  return (await get<Breakdown>(admin ? '/api/data/breakdown' : '/api/data/self/breakdown', { ...ask })).data
}
