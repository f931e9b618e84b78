import { CompiledQuery, sql, type Insertable } from 'kysely'
import type { AppContext } from '../context.ts'
import type { LogsTable } from '../db/schema.ts'
import type { RelayState, TokenState, UserState } from './state.ts'
import { LOG_TYPE, TOKEN_STATUS } from '../../domain/statuses.ts'
import { tokenLimitSql } from '../../domain/token-rules.ts'
import { writeBatch, type Fresh, type PlainBatch } from './sqlite-batch.ts'
import { SqliteWriter } from './sqlite-writer.ts'

export type LogRow = Insertable<LogsTable> & {
  user_id: number
  created_at: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  model_name: string
}

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
interface Bucket {
  user_id: number
  username: string
  model_name: string
  created_at: number
  token_used: number
  count: number
  quota: number
}

interface Batch {
  users: Map<number, UserDelta>
  tokens: Map<number, TokenDelta>
  channels: Map<number, number>
  statuses: Map<number, number>
  logs: LogRow[]
  buckets: Map<string, Bucket>
}

function toPlain(b: Batch): PlainBatch {
  return {
    logs: b.logs,
    users: [...b.users].map(([id, d]) => [id, d.quota, d.used, d.count]),
    tokens: [...b.tokens].map(([id, d]) => [id, d.remain, d.used, d.accessed]),
    channels: [...b.channels],
    statuses: [...b.statuses],
    buckets: [...b.buckets.values()],
    now: Math.floor(Date.now() / 1000),
  }
}

const emptyBatch = (): Batch => ({
  users: new Map(),
  tokens: new Map(),
  channels: new Map(),
  statuses: new Map(),
  logs: [],
  buckets: new Map(),
})

/** What a request holds from pre-consume until it settles or is refunded. */
export interface Reservation {
  user: UserState
  token: TokenState
  amount: number
  done: boolean
}

const MAX_QUEUED_LOGS = 200_000

class Busy extends Error {}

const LOG_COLUMNS =
  'user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel, other'
const statementText = new Map<string, string>()

function placeholders(rows: number, columns: number): string {
  const out: string[] = []
  for (let r = 0, n = 1; r < rows; r++) {
    const row: string[] = []
    for (let c = 0; c < columns; c++) row.push(`$${n++}`)
    out.push(`(${row.join(', ')})`)
  }
  return out.join(', ')
}

function insertLogsSql(rows: number): string {
  const k = `logs:${rows}`
  let s = statementText.get(k)
  if (!s) statementText.set(k, (s = `INSERT INTO logs (${LOG_COLUMNS}) VALUES ${placeholders(rows, 15)}`))
  return s
}

function upsertBucketsSql(rows: number): string {
  const k = `buckets:${rows}`
  let s = statementText.get(k)
  if (!s) {
    s = `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota) VALUES ${placeholders(rows, 7)}
      ON CONFLICT (user_id, model_name, created_at) DO UPDATE SET token_used = quota_data.token_used + excluded.token_used,
      count = quota_data.count + excluded.count, quota = quota_data.quota + excluded.quota`
    statementText.set(k, s)
  }
  return s
}

/**
 * The relay's ledger. The database is the source of truth; the relay's view of a balance is the
 * last value read from it plus the deltas not yet written (pending, and the batch being flushed),
 * minus what requests in flight hold (reservations, memory only). Deltas and log rows are written
 * in one transaction per batch, as relative updates, by one writer. Re-reads of balance rows run
 * through the same lock as flushes, so a re-read never sees half a flush.
 */
export class Ledger {
  private pending: Batch = emptyBatch()
  private flushing: Batch | null = null
  private chain: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | null = null
  private soon: NodeJS.Timeout | null = null
  /** SQLite on a file: batches are written by a thread of their own */
  private writer: SqliteWriter | null = null
  private ctx: AppContext
  private state: RelayState
  /**
   * Batch size that triggers a flush before the timer. Handing a batch to the writer pauses the
   * event loop for a moment that grows with the batch; 50 rows keeps that pause well under the
   * p99 budget (measured at concurrency 10: added p99 +3.5 ms with 500 rows, +2.5 to +3.1 ms with
   * 100, +2.3 ms with 50, at the same throughput).
   */
  flushRows = 50
  intervalMs = 500
  lastError: unknown = null

  constructor(ctx: AppContext, state: RelayState) {
    this.ctx = ctx
    this.state = state
    const file = ctx.database.dialect === 'sqlite' ? ctx.database.sqlite?.location() : null
    if (file) this.writer = new SqliteWriter(file)
  }

  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.flush(), this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    if (this.soon) clearTimeout(this.soon)
    this.timer = null
    this.soon = null
  }

  /** Stops the writer thread (after the last flush). */
  async close(): Promise<void> {
    this.stop()
    await this.writer?.close()
  }

  /** Runs fn after every earlier flush or re-read has finished. */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn)
    this.chain = run.catch(() => undefined)
    return run
  }

  // ---- views --------------------------------------------------------------------------------

  /** The user's quota as the relay sees it: database + unwritten deltas (reservations not taken off). */
  userQuota(u: UserState): number {
    return u.quota + (this.pending.users.get(u.id)?.quota ?? 0) + (this.flushing?.users.get(u.id)?.quota ?? 0)
  }

  userUsed(u: UserState): number {
    return u.used + (this.pending.users.get(u.id)?.used ?? 0) + (this.flushing?.users.get(u.id)?.used ?? 0)
  }

  tokenRemain(t: TokenState): number {
    return t.remain + (this.pending.tokens.get(t.id)?.remain ?? 0) + (this.flushing?.tokens.get(t.id)?.remain ?? 0)
  }

  tokenUsed(t: TokenState): number {
    return t.used + (this.pending.tokens.get(t.id)?.used ?? 0) + (this.flushing?.tokens.get(t.id)?.used ?? 0)
  }

  // ---- request path (synchronous, memory only) -----------------------------------------------

  /**
   * Checks and holds `amount` on the user and the token in one synchronous step, so concurrent
   * requests can never together hold more than the balances. Returns a refusal message or the hold.
   */
  reserve(user: UserState, token: TokenState, amount: number): Reservation | { refused: string; code: string; status: number } {
    const userLeft = this.userQuota(user) - user.reserved
    if (this.userQuota(user) <= 0 || userLeft < amount) {
      return { refused: 'user quota is not enough', code: 'insufficient_user_quota', status: 403 }
    }
    if (!token.unlimited) {
      const tokenLeft = this.tokenRemain(token) - token.reserved
      if (tokenLeft < amount) return { refused: 'token quota is not enough', code: 'insufficient_token_quota', status: 403 }
    }
    user.reserved += amount
    token.reserved += amount
    return { user, token, amount, done: false }
  }

  /** Gives a hold back without charging (upstream failed). */
  release(r: Reservation): void {
    if (r.done) return
    r.done = true
    r.user.reserved -= r.amount
    r.token.reserved -= r.amount
  }

  /**
   * Ends a hold and charges the real cost: user, token and channel counters; the log row when
   * LogConsumeEnabled, its dashboard bucket when DataExportEnabled.
   */
  settle(r: Reservation, quota: number, channelId: number, log: LogRow, now: number): void {
    this.release(r)
    const u = this.pending.users.get(r.user.id) ?? { quota: 0, used: 0, count: 0 }
    u.quota -= quota
    u.used += quota
    u.count += 1
    this.pending.users.set(r.user.id, u)
    const t = this.pending.tokens.get(r.token.id) ?? { remain: 0, used: 0, accessed: 0 }
    t.remain -= quota
    t.used += quota
    t.accessed = now
    this.pending.tokens.set(r.token.id, t)
    if (quota !== 0 && channelId > 0) this.pending.channels.set(channelId, (this.pending.channels.get(channelId) ?? 0) + quota)
    if (this.ctx.options.bool('DataExportEnabled')) this.addBucket(log)
    if (this.ctx.options.bool('LogConsumeEnabled')) this.enqueueLog(log)
  }

  /** Queues a log row for the next batch. */
  enqueueLog(log: LogRow): void {
    const q = this.pending.logs
    if (q.length >= MAX_QUEUED_LOGS) {
      q.shift()
      if (!this.lastError) console.error('relay: log queue full, dropping the oldest row (is the database down?)')
    }
    q.push(log)
    if (q.length >= this.flushRows && !this.soon) {
      this.soon = setTimeout(() => {
        this.soon = null
        void this.flush()
      }, 0)
    }
  }

  private addBucket(log: LogRow): void {
    const hour = log.created_at - (log.created_at % 3600)
    const k = `${log.user_id}\u0000${log.model_name}\u0000${hour}`
    let b = this.pending.buckets.get(k)
    if (!b) {
      b = { user_id: log.user_id, username: log.username, model_name: log.model_name, created_at: hour, token_used: 0, count: 0, quota: 0 }
      this.pending.buckets.set(k, b)
    }
    b.count += 1
    b.quota += log.quota
    b.token_used += log.prompt_tokens + log.completion_tokens
  }

  /** Marks a token expired (3) or exhausted (4), in memory now and in the database with the next batch. */
  setTokenStatus(t: TokenState, status: number): void {
    t.status = status
    this.pending.statuses.set(t.id, status)
  }

  hasPending(): boolean {
    const p = this.pending
    return p.logs.length > 0 || p.users.size > 0 || p.tokens.size > 0 || p.channels.size > 0 || p.statuses.size > 0 || p.buckets.size > 0
  }

  // ---- re-reads ---------------------------------------------------------------------------------

  reloadUser(id: number) {
    return this.locked(() => this.state.loadUser(id))
  }
  reloadToken(id: number) {
    return this.locked(() => this.state.loadToken(id))
  }
  reloadUsers() {
    return this.locked(() => this.state.loadUsers())
  }
  reloadTokens() {
    return this.locked(() => this.state.loadTokens())
  }

  // ---- writer -------------------------------------------------------------------------------------

  /** Writes everything pending in one transaction. Safe to call at any time; calls queue up. */
  flush(): Promise<void> {
    return this.locked(() => this.flushLocked())
  }

  private async flushLocked(): Promise<void> {
    if (!this.hasPending()) return
    const batch = this.pending
    this.pending = emptyBatch()
    this.flushing = batch
    try {
      let fresh: Fresh
      if (this.ctx.database.dialect === 'sqlite') {
        const plain = toPlain(batch)
        fresh = this.writer ? await this.writer.write(plain) : this.writeSqliteHere(plain)
      } else fresh = await this.writePostgres(batch)
      this.lastError = null
      // the rows as they stand after this batch: our deltas plus whatever other instances (or the
      // console) wrote meanwhile, so balances never lag more than one flush for active accounts
      for (const [id, quota, used, count] of fresh.users) {
        const u = this.state.users.get(id)
        if (u) {
          u.quota = quota
          u.used = used
          u.count = count
        }
      }
      for (const [id, remain, used] of fresh.tokens) {
        const t = this.state.tokensById.get(id)
        if (t) {
          t.remain = remain
          t.used = used
        }
      }
    } catch (err) {
      this.merge(batch)
      if (err instanceof Busy) {
        if (!this.soon) {
          this.soon = setTimeout(() => {
            this.soon = null
            void this.flush()
          }, 5)
        }
      } else {
        if (!this.lastError) console.error('relay: writing quota and logs failed, will retry:', err)
        this.lastError = err
      }
    } finally {
      this.flushing = null
    }
  }

  /** Puts a failed batch back in front of what accumulated meanwhile. */
  private merge(b: Batch): void {
    const p = this.pending
    for (const [id, d] of b.users) {
      const x = p.users.get(id)
      if (x) {
        x.quota += d.quota
        x.used += d.used
        x.count += d.count
      } else p.users.set(id, d)
    }
    for (const [id, d] of b.tokens) {
      const x = p.tokens.get(id)
      if (x) {
        x.remain += d.remain
        x.used += d.used
        x.accessed = Math.max(x.accessed, d.accessed)
      } else p.tokens.set(id, d)
    }
    for (const [id, d] of b.channels) p.channels.set(id, (p.channels.get(id) ?? 0) + d)
    for (const [id, s] of b.statuses) if (!p.statuses.has(id)) p.statuses.set(id, s)
    p.logs = b.logs.concat(p.logs)
    for (const [k, d] of b.buckets) {
      const x = p.buckets.get(k)
      if (x) {
        x.count += d.count
        x.quota += d.quota
        x.token_used += d.token_used
      } else p.buckets.set(k, d)
    }
  }

  /**
   * SQLite in memory (no file a second connection could open): written here, synchronously.
   * Kysely shares this connection without a lock; if one of its transactions is open right now
   * (between two awaits of another route), retry shortly rather than join it.
   */
  private writeSqliteHere(b: PlainBatch): Fresh {
    const db = this.ctx.database.sqlite!
    if (db.isTransaction) throw new Busy()
    return writeBatch(db, b)
  }

  private async writePostgres(b: Batch): Promise<Fresh> {
    const now = Math.floor(Date.now() / 1000)
    const fresh: Fresh = { users: [], tokens: [] }
    await this.ctx.db.transaction().execute(async (trx) => {
      // log rows as one parameterised statement per 400 rows, built as text: a query builder
      // would spend milliseconds of the event loop on thousands of value nodes
      for (let i = 0; i < b.logs.length; i += 400) {
        const chunk = b.logs.slice(i, i + 400)
        const params: unknown[] = []
        for (const l of chunk) {
          params.push(
            l.user_id,
            l.created_at,
            l.type ?? LOG_TYPE.consume,
            l.content ?? '',
            l.username,
            l.token_name ?? '',
            l.token_id ?? 0,
            l.model_name,
            l.quota,
            l.prompt_tokens,
            l.completion_tokens,
            l.use_time ?? 0,
            l.is_stream ?? 0,
            l.channel ?? 0,
            l.other ?? '',
          )
        }
        await trx.executeQuery(CompiledQuery.raw(insertLogsSql(chunk.length), params))
      }
      // ids in ascending order so two writers touching the same rows lock them in the same order
      const users = [...b.users].sort((x, y) => x[0] - y[0])
      for (let i = 0; i < users.length; i += 500) {
        const values = sql.join(
          users.slice(i, i + 500).map(([id, d]) => sql`(${id}::bigint, ${d.quota}::bigint, ${d.used}::bigint, ${d.count}::bigint)`),
        )
        const r = await sql<{ id: number; quota: number; used_quota: number; request_count: number }>`UPDATE users AS u
          SET quota = u.quota + v.q, used_quota = u.used_quota + v.uq, request_count = u.request_count + v.c
          FROM (VALUES ${values}) AS v(id, q, uq, c) WHERE u.id = v.id RETURNING u.id, u.quota, u.used_quota, u.request_count`.execute(trx)
        for (const row of r.rows) fresh.users.push([Number(row.id), Number(row.quota), Number(row.used_quota), Number(row.request_count)])
      }
      const tokens = [...b.tokens].sort((x, y) => x[0] - y[0])
      for (let i = 0; i < tokens.length; i += 500) {
        const values = sql.join(
          tokens.slice(i, i + 500).map(([id, d]) => sql`(${id}::bigint, ${d.remain}::bigint, ${d.used}::bigint, ${d.accessed}::bigint)`),
        )
        const r = await sql<{ id: number; remain_quota: number; used_quota: number }>`UPDATE tokens AS t
          SET remain_quota = t.remain_quota + v.r, used_quota = t.used_quota + v.uq, accessed_time = GREATEST(t.accessed_time, v.a)
          FROM (VALUES ${values}) AS v(id, r, uq, a) WHERE t.id = v.id RETURNING t.id, t.remain_quota, t.used_quota`.execute(trx)
        for (const row of r.rows) fresh.tokens.push([Number(row.id), Number(row.remain_quota), Number(row.used_quota)])
      }
      const channels = [...b.channels].sort((x, y) => x[0] - y[0])
      if (channels.length) {
        const values = sql.join(channels.map(([id, d]) => sql`(${id}::bigint, ${d}::bigint)`))
        await sql`UPDATE channels AS c SET used_quota = c.used_quota + v.q FROM (VALUES ${values}) AS v(id, q) WHERE c.id = v.id`.execute(
          trx,
        )
      }
      // the token rule again, on the row as stored: a top-up or an edit since the request wins
      const limit = tokenLimitSql(now)
      for (const [id, st] of b.statuses) {
        if (st !== TOKEN_STATUS.expired && st !== TOKEN_STATUS.exhausted) continue
        const reached = st === TOKEN_STATUS.expired ? limit.expired : limit.exhausted
        await sql`UPDATE tokens SET status = ${sql.lit(st)} WHERE id = ${id} AND status = ${sql.lit(TOKEN_STATUS.enabled)} AND ${sql.raw(reached)}`.execute(
          trx,
        )
      }
      const buckets = [...b.buckets.values()]
      for (let i = 0; i < buckets.length; i += 500) {
        const chunk = buckets.slice(i, i + 500)
        const params: unknown[] = []
        for (const k of chunk) params.push(k.user_id, k.username, k.model_name, k.created_at, k.token_used, k.count, k.quota)
        await trx.executeQuery(CompiledQuery.raw(upsertBucketsSql(chunk.length), params))
      }
    })
    return fresh
  }
}
