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
