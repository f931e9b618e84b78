/**
 * One batch of the ledger as both of its writers take it (PostgreSQL in-process, SQLite on the
 * writer thread): plain data only, as it crosses a thread boundary. The SQL the writers share
 * lives with its table (server/db/logs.ts, server/db/quota-data.ts) or here.
 */
import type { LedgerLog } from '../db/log-rows.ts'
import type { BucketDelta, DimDelta } from '../db/quota-data.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { tokenLimitSql } from '../../domain/token-rules.ts'

export interface PlainBatch {
  logs: LedgerLog[]
  /** [id, quota delta, used_quota delta, request_count delta] */
  users: Array<[number, number, number, number]>
  /** [id, remain_quota delta, used_quota delta, accessed_time] */
  tokens: Array<[number, number, number, number]>
  /** [id, used_quota delta] */
  channels: Array<[number, number]>
  /** [id, TOKEN_STATUS.expired | TOKEN_STATUS.exhausted] */
  statuses: Array<[number, number]>
  buckets: BucketDelta[]
  dims: DimDelta[]
  /** [journal generation, highest entry number applied by this batch] */
  marks: Array<[string, number]>
  now: number
}

/** Balances as the database holds them right after a batch (other writers' changes included). */
export interface Fresh {
  /** [id, quota, used_quota, request_count] */
  users: Array<[number, number, number, number]>
  /** [id, remain_quota, used_quota] */
  tokens: Array<[number, number, number]>
}

/** The statuses the ledger stores for a token (the others are an owner's or the console's). */
export type ReachedStatus = typeof TOKEN_STATUS.expired | typeof TOKEN_STATUS.exhausted

export const isReachedStatus = (status: number): status is ReachedStatus =>
  status === TOKEN_STATUS.expired || status === TOKEN_STATUS.exhausted

/**
 * Marks a token expired or exhausted: the token rule again, on the row as stored, so a top-up or
 * an edit since the request wins. `id` is the id's placeholder; `now` the current second, or '?'
 * where the statement binds it after the id (expired only).
 */
export function markTokenSql(status: ReachedStatus, id: string, now: number | '?'): string {
  const limit = tokenLimitSql(now)
  const reached = status === TOKEN_STATUS.expired ? limit.expired : limit.exhausted
  return `UPDATE tokens SET status = ${status} WHERE id = ${id} AND status = ${TOKEN_STATUS.enabled} AND ${reached}`
}
