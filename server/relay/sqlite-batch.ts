import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { insertLogsSql, logValues } from '../db/log-rows.ts'
import {
  bucketDays,
  bucketValues,
  dayDeltas,
  dimValues,
  markDaysSql,
  modelDeltas,
  upsertBucketsSql,
  upsertDaysSql,
  upsertDimsSql,
  upsertModelsSql,
} from '../db/quota-data.ts'
import { markSql } from '../db/ledger-journal.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { isReachedStatus, markTokenSql, type Fresh, type PlainBatch } from './ledger-batch.ts'

type Statements = Record<
  'log' | 'user' | 'token' | 'channel' | 'expired' | 'exhausted' | 'bucket' | 'model' | 'dim' | 'day' | 'dayWrite' | 'mark',
  StatementSync
>

const prepared = new WeakMap<DatabaseSync, Statements>()

/** The ledger's statements on SQLite, prepared once per connection; one row each (SQLite runs them fast). */
function statements(db: DatabaseSync): Statements {
  let s = prepared.get(db)
  if (s) return s
  s = {
    log: db.prepare(insertLogsSql(1, '?')),
    user: db.prepare(
      'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ? RETURNING quota, used_quota, request_count',
    ),
    token: db.prepare(
      'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = max(accessed_time, ?) WHERE id = ? RETURNING remain_quota, used_quota',
    ),
    channel: db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?'),
    expired: db.prepare(markTokenSql(TOKEN_STATUS.expired, '?', '?')),
    exhausted: db.prepare(markTokenSql(TOKEN_STATUS.exhausted, '?', '?')),
    bucket: db.prepare(upsertBucketsSql(1, '?')),
    model: db.prepare(upsertModelsSql(1, '?')),
    dim: db.prepare(upsertDimsSql(1, '?')),
    day: db.prepare(upsertDaysSql(1, '?')),
    dayWrite: db.prepare(markDaysSql(1, '?')),
    mark: db.prepare(markSql('sqlite')),
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
      if (!isReachedStatus(st)) continue
      if (st === TOKEN_STATUS.expired) s.expired.run(id, b.now)
      else s.exhausted.run(id)
    }
    for (const l of b.logs) s.log.run(...logValues(l))
    for (const k of b.buckets) s.bucket.run(...bucketValues(k))
    for (const m of modelDeltas(b.buckets)) s.model.run(...m)
    for (const d of b.dims) s.dim.run(...dimValues(d))
    for (const d of dayDeltas(b.dims)) s.day.run(...dimValues(d))
    for (const d of bucketDays(b.buckets)) s.dayWrite.run(d)
    for (const [gen, seq] of b.marks) s.mark.run(gen, seq)
    db.exec('COMMIT')
    return fresh
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw err
  }
}
