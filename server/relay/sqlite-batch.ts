import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { LOG_TYPE, TOKEN_STATUS } from '../../domain/statuses.ts'
import { tokenLimitSql } from '../../domain/token-rules.ts'

/** One batch of the ledger in a form that crosses a thread boundary (plain data only). */
export interface PlainBatch {
  logs: Array<{
    user_id: number
    created_at: number
    type?: number
    content?: string
    username: string
    token_name?: string
    token_id?: number
    model_name: string
    quota: number
    prompt_tokens: number
    completion_tokens: number
    use_time?: number
    is_stream?: number
    channel?: number
    other?: string
  }>
  /** [id, quota delta, used_quota delta, request_count delta] */
  users: Array<[number, number, number, number]>
  /** [id, remain_quota delta, used_quota delta, accessed_time] */
  tokens: Array<[number, number, number, number]>
  /** [id, used_quota delta] */
  channels: Array<[number, number]>
  /** [id, TOKEN_STATUS.expired | TOKEN_STATUS.exhausted] */
  statuses: Array<[number, number]>
  buckets: Array<{
    user_id: number
    username: string
    model_name: string
    created_at: number
    token_used: number
    count: number
    quota: number
  }>
  now: number
}

/** Balances as the database holds them right after a batch (other writers' changes included). */
export interface Fresh {
  /** [id, quota, used_quota, request_count] */
  users: Array<[number, number, number, number]>
  /** [id, remain_quota, used_quota] */
  tokens: Array<[number, number, number]>
}

const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'token_id',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel',
  'other',
] as const

type Statements = Record<'log' | 'user' | 'token' | 'channel' | 'expired' | 'exhausted' | 'bucket', StatementSync>

const prepared = new WeakMap<DatabaseSync, Statements>()

function statements(db: DatabaseSync): Statements {
  let s = prepared.get(db)
  if (s) return s
  // the token rule again, on the row as stored: a top-up or an edit since the request wins
  const limit = tokenLimitSql('?')
  const setStatus = (status: number, reached: string) =>
    db.prepare(`UPDATE tokens SET status = ${status} WHERE id = ? AND status = ${TOKEN_STATUS.enabled} AND ${reached}`)
  s = {
    log: db.prepare(`INSERT INTO logs (${LOG_COLUMNS.join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`),
    user: db.prepare(
      'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ? RETURNING quota, used_quota, request_count',
    ),
    token: db.prepare(
      'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = max(accessed_time, ?) WHERE id = ? RETURNING remain_quota, used_quota',
    ),
    channel: db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?'),
    expired: setStatus(TOKEN_STATUS.expired, limit.expired),
    exhausted: setStatus(TOKEN_STATUS.exhausted, limit.exhausted),
    bucket: db.prepare(
      `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, model_name, created_at) DO UPDATE SET token_used = quota_data.token_used + excluded.token_used,
       count = quota_data.count + excluded.count, quota = quota_data.quota + excluded.quota`,
    ),
  }
  prepared.set(db, s)
  return s
}

/**
 * Writes a batch in one transaction, as relative updates, and returns the balances the rows hold
 * afterwards. The quota deltas go first so the exhausted-status guard sees the new remaining quota.
 */
export function writeBatch(db: DatabaseSync, b: PlainBatch): Fresh {
  const s = statements(db)
  const fresh: Fresh = { users: [], tokens: [] }
  db.exec('BEGIN IMMEDIATE')
  try {
    for (const [id, q, u, c] of b.users) {
      const row = s.user.get(q, u, c, id) as { quota: number; used_quota: number; request_count: number } | undefined
      if (row) fresh.users.push([id, Number(row.quota), Number(row.used_quota), Number(row.request_count)])
    }
    for (const [id, r, u, a] of b.tokens) {
      const row = s.token.get(r, u, a, id) as { remain_quota: number; used_quota: number } | undefined
      if (row) fresh.tokens.push([id, Number(row.remain_quota), Number(row.used_quota)])
    }
    for (const [id, u] of b.channels) s.channel.run(u, id)
    for (const [id, st] of b.statuses) {
      if (st === TOKEN_STATUS.expired) s.expired.run(id, b.now)
      else if (st === TOKEN_STATUS.exhausted) s.exhausted.run(id)
    }
    for (const l of b.logs) {
      s.log.run(
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
    for (const k of b.buckets) s.bucket.run(k.user_id, k.username, k.model_name, k.created_at, k.token_used, k.count, k.quota)
    db.exec('COMMIT')
    return fresh
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw err
  }
}
