/**
 * The usage log's statistics (quota and tokens of the consumption rows a filter matches) on
 * millions of rows: the whole hours of the range that the hourly buckets already hold are read
 * from them (quota_models for everyone or a model prefix, quota_data for one user, quota_dims for
 * one channel), and only the partial hours at its ends, and the hours the buckets do not hold yet,
 * are summed from the rows. A token name is answered from its tokens' buckets (quota_dims) when
 * they hold exactly its rows (see tokensOnlyNamed). A filter no bucket can answer (two dimensions
 * besides a user and a model) sums the rows as before.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB } from './schema.ts'
import { logStatQuery, type LogFilter } from './logs.ts'
import { onIndexes, startsWithExact } from './dialect.ts'
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

/** Tokens a name may stand for before its statistics are summed from the rows instead. */
const MOST_NAMED = 64

/**
 * The ids of the tokens whose rows carry `name`, when each of them carried no other name: their
 * hourly buckets (quota_dims, dim `token`) then hold exactly the rows of that name. Null when a
 * token was renamed, when rows of the name have no token, or when the name is too common.
 * A loose walk of the (token_name, token_id) index names the tokens, one seek each, and two seeks
 * of the (token_id, token_name) index per token look for a row under another name.
 */
async function tokensOnlyNamed(db: Kysely<DB>, dialect: Dialect, name: string): Promise<number[] | null> {
  return onIndexes(db, dialect, false, async (tx) => {
    const walk = await sql<{ v: number | null }>`with recursive t(v, n) as (
        select (select min(token_id) from logs where token_name = ${name}), 1
        union all
        select (select min(token_id) from logs where token_name = ${name} and token_id > t.v), t.n + 1 from t
        where t.v is not null and t.n <= ${MOST_NAMED})
      select v from t where v is not null`.execute(tx)
    const ids = walk.rows.map((r) => Number(r.v))
    if (ids.length === 0 || ids.length > MOST_NAMED || ids.includes(0)) return null
    const other = (id: number, op: '<' | '>') =>
      sql`exists (select 1 from logs where token_id = ${id} and token_name ${sql.raw(op)} ${name})`
    const checks = ids.flatMap((id) => [other(id, '<'), other(id, '>')])
    const renamed = await sql<{ r: unknown }>`select (${sql.join(checks, sql` or `)}) as r`.execute(tx)
    const r = renamed.rows[0]?.r
    return r === true || Number(r) === 1 ? null : ids
  })
}

/**
 * The buckets of a token name (and, for the own statistics, a user): those of the tokens that only
 * ever carried it; null when there are none such or other filters narrow the rows too.
 */
async function namedBuckets(
  db: Kysely<DB>,
  dialect: Dialect,
  f: LogFilter,
): Promise<{ table: BucketTable; where: Expression<SqlBool>[] } | null> {
  if (f.tokenName === undefined || f.username !== undefined || f.modelName !== undefined || f.channel !== undefined) return null
  const ids = await tokensOnlyNamed(db, dialect, f.tokenName)
  if (!ids) return null
  const who = f.userId !== undefined ? [sql<SqlBool>`user_id = ${f.userId}`] : []
  return { table: 'quota_dims', where: [sql<SqlBool>`dim = 'token'`, sql<SqlBool>`key_id in (${sql.join(ids)})`, ...who] }
}

/** The statistics of the rows that match; with `held`, the whole hours it covers come from the buckets. */
export async function logStat(db: Kysely<DB>, dialect: Dialect, f: LogFilter, held: Held | null = null): Promise<Stat> {
  const consumption = f.type === undefined || f.type === LOG_TYPE.consume
  const start = Math.max(0, f.start ?? 0)
  const end = f.end ?? Number.MAX_SAFE_INTEGER
  // the whole hours inside the range that the buckets hold: [from, to)
  const from = Math.ceil(Math.max(start, held?.since ?? 0) / HOUR) * HOUR
  const to = Math.min(Math.floor((end + 1) / HOUR) * HOUR, Math.floor((held?.before ?? 0) / HOUR) * HOUR)
  const whole = consumption && held && to - from >= HOUR
  const src = whole ? (bucketsFor(f, dialect) ?? (await namedBuckets(db, dialect, f))) : null
  if (!src) return figures(await logStatQuery(db, dialect, f).executeTakeFirst())
  const parts = await Promise.all([
    rowsBetween(db, dialect, f, start, from - 1),
    bucketsBetween(db, src.table, src.where, from, to),
    rowsBetween(db, dialect, f, to, end),
  ])
  return parts.reduce((a, b) => ({ quota: a.quota + b.quota, token: a.token + b.token }))
}
