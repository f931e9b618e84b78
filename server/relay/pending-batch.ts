/**
 * The ledger's batch in memory: the deltas and log rows settled since the last write, and the
 * journal files and entry numbers that cover them (server/relay/journal.ts).
 */
import type { LedgerLog } from '../db/log-rows.ts'
import { hourOf, type BucketDelta, type DimDelta } from '../db/quota-data.ts'
import type { PlainBatch } from './ledger-batch.ts'

interface UserDelta {
  quota: number
  used: number
  count: number
}
interface TokenDelta {
  remain: number
  used: number
  accessed: number
}

export interface Batch {
  users: Map<number, UserDelta>
  tokens: Map<number, TokenDelta>
  channels: Map<number, number>
  statuses: Map<number, number>
  logs: LedgerLog[]
  buckets: Map<string, BucketDelta>
  /** the user, token, channel and total buckets (quota_dims; quota_days is summed from them) */
  dims: Map<string, DimDelta>
  /** journal files whose entries are all in this batch (deleted once it commits) */
  files: string[]
  /** journal generation -> highest entry number in this batch */
  marks: Map<string, number>
}

/** One settled request as the ledger adds it (and as the journal keeps it). */
export interface Settled {
  userId: number
  tokenId: number
  /** what the database already took from the user's quota and the token's balance at the hold (PostgreSQL, low balances) */
  held?: number
  heldToken?: number
  quota: number
  channelId: number
  now: number
  log: LedgerLog
  /** keep the log row (LogConsumeEnabled when it was settled) */
  keepLog: boolean
  /** add it to the dashboard buckets (DataExportEnabled when it was settled) */
  bucket: boolean
}

/** A failed request's database hold given back (no request counted, no log). */
export interface Refund {
  refund: true
  userId: number
  tokenId: number
  held: number
  heldToken: number
}

export type Charge = Settled | Refund

export const emptyBatch = (): Batch => ({
  users: new Map(),
  tokens: new Map(),
  channels: new Map(),
  statuses: new Map(),
  logs: [],
  buckets: new Map(),
  dims: new Map(),
  files: [],
  marks: new Map(),
})

export function toPlain(b: Batch): PlainBatch {
  return {
    logs: b.logs,
    users: [...b.users].map(([id, d]) => [id, d.quota, d.used, d.count]),
    tokens: [...b.tokens].map(([id, d]) => [id, d.remain, d.used, d.accessed]),
    channels: [...b.channels],
    statuses: [...b.statuses],
    buckets: [...b.buckets.values()],
    dims: [...b.dims.values()],
    marks: [...b.marks],
    now: Math.floor(Date.now() / 1000),
  }
}

/** Adds the named counters of `d` to the entry under `k`, or puts `d` there; returns the entry. */
function addInto<K, T extends object>(map: Map<K, T>, k: K, d: T, counters: ReadonlyArray<keyof T>): T {
  const x = map.get(k)
  if (!x) {
    map.set(k, d)
    return d
  }
  for (const c of counters) x[c] = ((x[c] as number) + (d[c] as number)) as T[keyof T]
  return x
}

/** Adds a settled request to its dashboard bucket (quota_data) only: a replay whose charge is already written. */
export function addBucket(b: Batch, log: LedgerLog): void {
  const hour = hourOf(log.created_at)
  const k = `${log.user_id}\u0000${log.model_name}\u0000${hour}`
  addInto(
    b.buckets,
    k,
    {
      user_id: log.user_id,
      username: log.username,
      model_name: log.model_name,
      created_at: hour,
      token_used: log.prompt_tokens + log.completion_tokens,
      count: 1,
      quota: log.quota,
    },
    ['count', 'quota', 'token_used'],
  )
}

/**
 * Adds a settled request to its user's, token's and channel's buckets and to everyone's
 * (quota_dims, and through them quota_days: written with every batch).
 */
function addDims(b: Batch, log: LedgerLog): void {
  const hour = hourOf(log.created_at)
  const figures = { created_at: hour, token_used: log.prompt_tokens + log.completion_tokens, count: 1, quota: log.quota }
  const token = log.token_id ?? 0
  const channel = log.channel ?? 0
  addInto(b.dims, `u${log.user_id}\u0000${hour}`, { dim: 'user', key_id: log.user_id, user_id: log.user_id, ...figures }, DIM_COUNTERS)
  addInto(b.dims, `a\u0000${hour}`, { dim: 'all', key_id: 0, user_id: 0, ...figures }, DIM_COUNTERS)
  addInto(b.dims, `t${token}\u0000${hour}`, { dim: 'token', key_id: token, user_id: log.user_id, ...figures }, DIM_COUNTERS)
  addInto(b.dims, `c${channel}\u0000${hour}`, { dim: 'channel', key_id: channel, user_id: 0, ...figures }, DIM_COUNTERS)
}

const DIM_COUNTERS = ['count', 'quota', 'token_used'] as const

/** Adds a settled request's charge, or a refund, to the batch (a log row itself is queued by the caller). */
export function addCharge(b: Batch, ch: Charge): void {
  if ('refund' in ch) {
    addInto(b.users, ch.userId, { quota: ch.held, used: 0, count: 0 }, ['quota', 'used', 'count'])
    addInto(b.tokens, ch.tokenId, { remain: ch.heldToken, used: 0, accessed: 0 }, ['remain', 'used'])
    return
  }
  const held = ch.held ?? 0
  const heldToken = ch.heldToken ?? 0
  addInto(b.users, ch.userId, { quota: held - ch.quota, used: ch.quota, count: 1 }, ['quota', 'used', 'count'])
  const t = addInto(b.tokens, ch.tokenId, { remain: heldToken - ch.quota, used: ch.quota, accessed: ch.now }, ['remain', 'used'])
  t.accessed = Math.max(t.accessed, ch.now)
  if (ch.quota !== 0 && ch.channelId > 0) b.channels.set(ch.channelId, (b.channels.get(ch.channelId) ?? 0) + ch.quota)
  if (ch.bucket) {
    addBucket(b, ch.log)
    addDims(b, ch.log)
  }
}

export function addMark(b: Batch, gen: string, seq: number): void {
  b.marks.set(gen, Math.max(b.marks.get(gen) ?? 0, seq))
}

/** Puts a failed batch `b` back in front of what accumulated meanwhile in `p`. */
export function mergeInto(p: Batch, b: Batch): void {
  for (const [id, d] of b.users) addInto(p.users, id, d, ['quota', 'used', 'count'])
  for (const [id, d] of b.tokens) {
    const x = addInto(p.tokens, id, d, ['remain', 'used'])
    x.accessed = Math.max(x.accessed, d.accessed)
  }
  for (const [id, d] of b.channels) p.channels.set(id, (p.channels.get(id) ?? 0) + d)
  for (const [id, s] of b.statuses) if (!p.statuses.has(id)) p.statuses.set(id, s)
  p.logs = b.logs.concat(p.logs)
  for (const [k, d] of b.buckets) addInto(p.buckets, k, d, ['count', 'quota', 'token_used'])
  for (const [k, d] of b.dims) addInto(p.dims, k, d, DIM_COUNTERS)
  p.files = b.files.concat(p.files)
  for (const [g, s] of b.marks) addMark(p, g, s)
}

/** Adds the bucket deltas of `from` into `into` (the ledger holds them between their writes). */
export function mergeBuckets(into: Map<string, BucketDelta>, from: Map<string, BucketDelta>): void {
  for (const [k, d] of from) addInto(into, k, d, ['count', 'quota', 'token_used'])
}

export function hasPending(p: Batch): boolean {
  return (
    p.logs.length > 0 ||
    p.users.size > 0 ||
    p.tokens.size > 0 ||
    p.channels.size > 0 ||
    p.statuses.size > 0 ||
    p.buckets.size > 0 ||
    p.dims.size > 0
  )
}
