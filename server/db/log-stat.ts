/**
 * The usage log's statistics (quota and tokens of the consumption rows a filter matches) on
 * millions of rows: the whole hours of the range that the hourly buckets already hold are read
 * from them (quota_models for everyone or a model prefix, quota_data for one user, quota_dims for
 * one channel), and only the partial hours at its ends, and the hours the buckets do not hold yet,
 * are summed from the rows. A filter no bucket can answer (a token name, two dimensions besides a
 * user and a model) sums the rows as before.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB } from './schema.ts'
import { logStatQuery, type LogFilter } from './logs.ts'
import { startsWithExact } from './dialect.ts'
import { HOUR } from '../../domain/time.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'

export interface Stat {
  quota: number
  token: number
}

type BucketTable = 'quota_models' | 'quota_data' | 'quota_dims'

/** Which buckets answer the filter, and how they are narrowed; null when none can. */
function bucketsFor(f: LogFilter, dialect: Dialect): { table: BucketTable; where: Expression<SqlBool>[] } | null {
  if (f.tokenName !== undefined) return null
  const model = f.modelName !== undefined ? [startsWithExact(dialect, 'model_name', f.modelName)] : []
  const byUser = f.userId !== undefined || f.username !== undefined
  if (f.channel !== undefined) {
    if (byUser || f.modelName !== undefined) return null
    return { table: 'quota_dims', where: [sql<SqlBool>`dim = 'channel'`, sql<SqlBool>`key_id = ${f.channel}`] }
  }
  if (!byUser) return { table: 'quota_models', where: model }
  const who: Expression<SqlBool>[] = []
  if (f.userId !== undefined) who.push(sql<SqlBool>`user_id = ${f.userId}`)
  if (f.username !== undefined) who.push(sql<SqlBool>`username = ${f.username}`)
  return { table: 'quota_data', where: [...who, ...model] }
}

/** A sum's row as figures (null sums, of no rows, are 0). */
const figures = (row: { quota: number | null; token: number | null } | undefined): Stat => ({
  quota: Number(row?.quota ?? 0),
  token: Number(row?.token ?? 0),
})

/** Sums the rows from `start` to `end` (inclusive): a few hours, found by the time index. */
async function rowsBetween(db: Kysely<DB>, dialect: Dialect, f: LogFilter, start: number, end: number): Promise<Stat> {
  if (start > end) return { quota: 0, token: 0 }
  return figures(await logStatQuery(db, dialect, { ...f, start, end }, 'time').executeTakeFirst())
}

async function bucketsBetween(db: Kysely<DB>, table: BucketTable, where: Expression<SqlBool>[], from: number, to: number): Promise<Stat> {
  const row = await db
    .selectFrom(table)
    .select([sql<number | null>`sum(quota)`.as('quota'), sql<number | null>`sum(token_used)`.as('token')])
    .where((eb) => eb.and([...where, sql<SqlBool>`created_at >= ${from}`, sql<SqlBool>`created_at < ${to}`]))
    .executeTakeFirst()
  return figures(row)
}

/** The hours the buckets hold every settled request of: [since, before). */
export interface Held {
  since: number
  before: number
}

/**
 * The hours the buckets hold completely, or null when they are not being written: from the time
 * recorded in buckets_since to `wait` seconds ago (the held buckets are written every
 * DataExportInterval minutes: `wait` covers that and a margin).
 */
export async function heldHours(db: Kysely<DB>, enabled: boolean, wait: number, now: number): Promise<Held | null> {
  if (!enabled) return null
  const row = await db.selectFrom('buckets_since').select('since').where('id', '=', 1).executeTakeFirst()
  return row ? { since: Number(row.since), before: now - wait } : null
}

/** Records that the buckets hold every settled request from `at` on (DataExportEnabled turned on). */
export async function bucketsFrom(db: Kysely<DB>, at: number): Promise<void> {
  await db.updateTable('buckets_since').set({ since: at }).where('id', '=', 1).execute()
}

/** The statistics of the rows that match; with `held`, the whole hours it covers come from the buckets. */
export async function logStat(db: Kysely<DB>, dialect: Dialect, f: LogFilter, held: Held | null = null): Promise<Stat> {
  const consumption = f.type === undefined || f.type === LOG_TYPE.consume
  const src = consumption && held ? bucketsFor(f, dialect) : null
  const start = Math.max(0, f.start ?? 0)
  const end = f.end ?? Number.MAX_SAFE_INTEGER
  // the whole hours inside the range that the buckets hold: [from, to)
  const from = Math.ceil(Math.max(start, held?.since ?? 0) / HOUR) * HOUR
  const to = Math.min(Math.floor((end + 1) / HOUR) * HOUR, Math.floor((held?.before ?? 0) / HOUR) * HOUR)
  if (!src || to - from < HOUR) return figures(await logStatQuery(db, dialect, f).executeTakeFirst())
  const parts = await Promise.all([
    rowsBetween(db, dialect, f, start, from - 1),
    bucketsBetween(db, src.table, src.where, from, to),
    rowsBetween(db, dialect, f, to, end),
  ])
  return parts.reduce((a, b) => ({ quota: a.quota + b.quota, token: a.token + b.token }))
}
