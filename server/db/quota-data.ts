/**
 * The quota_data table: hourly usage buckets per user and model, for the data dashboard. The
 * relay's ledger adds to them (one upsert statement for both of its writers; the SQLite writer
 * thread imports this module: keep it free of anything heavier than kysely).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from './schema.ts'
import { onIndexes, valueRows, type Placeholder } from './dialect.ts'
import type { Dialect } from './index.ts'
import { DAY, HOUR } from '../../domain/time.ts'

const BUCKET_COLUMNS = ['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'] as const
const MODEL_COLUMNS = ['model_name', 'created_at', 'count', 'quota', 'token_used'] as const

/** Days the dashboard reads day by day in index order on PostgreSQL; a longer range is grouped and sorted. */
const MOST_ORDERED_DAYS = 93

/** The bucket columns that hold text; the others hold integers. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['username', 'model_name'])

/**
 * A row as a JSON object's text, put together on PostgreSQL by concat (json_agg's record to JSON
 * conversion took two thirds of a month's dashboard): the keys as literals, the integers as they
 * print, the text through to_json, which quotes and escapes it; a column the filter fixes
 * (`fixed`: its value's JSON text) as that text, a parameter, without a call per row.
 */
function objectText(columns: readonly string[], fixed: Readonly<Record<string, string>> = {}): RawBuilder<string> {
  const parts = columns.map((c, i) => {
    const key = sql.lit(`${i ? ',' : '{'}${JSON.stringify(c)}:`)
    const value = fixed[c] !== undefined ? sql`${fixed[c]}::text` : TEXT_COLUMNS.has(c) ? sql`to_json(${sql.ref(c)})` : sql.ref(c)
    return sql`${key}, ${value}`
  })
  return sql<string>`concat(${sql.join(parts)}, '}')`
}

/**
 * The `columns` of `table`'s rows from start to end (both inclusive, seconds) that `who` narrows
 * to, as JSON objects written by the database, ordered by hour and model, in pieces of a day's
 * objects (the members of a JSON array, joined by commas; okJsonPieces writes the array): a month
 * of buckets is some 18,000 rows, which as objects cost more to build, to hand from the SQLite
 * reader thread and to serialise than the query itself. A piece stays far below the 2.5 MB of the
 * whole, which as one string lived in V8's large-object space until a full collection (the
 * month's answers left some 8 MB there each, and the collections they brought were their tail).
 * Each piece comes with its UTC day (the start, in seconds); a day without buckets is an empty piece.
 */
async function jsonPieces(
  db: Kysely<DB>,
  dialect: Dialect,
  table: 'quota_data' | 'quota_models',
  columns: readonly string[],
  range: { start: number; end: number; who?: RawBuilder<unknown>; fixed?: Record<string, string> },
): Promise<DayPiece[]> {
  const who = range.who ? sql` and ${range.who}` : sql``
  const from = sql`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
    where created_at >= ${range.start} and created_at <= ${range.end}${who}`
  const order = sql`order by created_at, model_name`
  const pieces = (rows: Array<{ d: number | string; j: string | null }>) => rows.map((r) => ({ day: Number(r.d) * DAY, json: r.j ?? '' }))
  if (dialect === 'postgres') {
    const first = Math.floor(range.start / DAY)
    const last = Math.floor(range.end / DAY)
    // a day's objects a row: the client reads one value of megabytes far slower than thirty smaller
    // ones. Up to a quarter, each day's rows come in order from the (…, created_at, model_name)
    // index into an aggregate of a sorted subquery (PostgreSQL keeps that order where nothing
    // is joined), where the grouped form sorted them first: a third of a month's time.
    if (last - first > MOST_ORDERED_DAYS) {
      const grouped = await sql<{
        d: string
        j: string
      }>`select created_at / 86400 as d, string_agg(${objectText(columns, range.fixed)}, ',' ${order}) as j
        from (${from}) as b group by created_at / 86400 order by created_at / 86400`.execute(db)
      return pieces(grouped.rows)
    }
    const daysFrom = (a: number, b: number) =>
      onIndexes(db, dialect, false, async (tx) => {
        const r = await sql<{
          d: string
          j: string | null
        }>`select d, (select string_agg(o, ',') from (select ${objectText(columns, range.fixed)} as o
          from ${sql.table(table)} where created_at >= greatest(d * ${DAY}, ${range.start})
          and created_at <= least(d * ${DAY} + ${DAY - 1}, ${range.end})${who} ${order}) as x) as j
          from generate_series(${a}::bigint, ${b}::bigint) as d`.execute(tx)
        return pieces(r.rows)
      })
    // a week or more in two halves on two connections at once: the server writes both side by side
    const mid = last - first >= 7 ? Math.floor((first + last) / 2) : last
    const halves = await Promise.all(mid < last ? [daysFrom(first, mid), daysFrom(mid + 1, last)] : [daysFrom(first, last)])
    return halves.flat()
  }
  // SQLite: a day's objects a row as well, in answer order (group_concat's own ORDER BY)
  const object = sql`json_object(${sql.join(columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(c)}`))})`
  const r = await sql<{
    d: number
    j: string | null
  }>`select created_at / 86400 as d, group_concat(${object}, ',' ${order}) as j from (${from}) as b
    group by created_at / 86400 order by created_at / 86400`.execute(db)
  return pieces(r.rows)
}

/** A UTC day's buckets as JSON objects joined by commas ('' for a day without any). */
export interface DayPiece {
  /** the start of the UTC day, unix seconds */
  day: number
  json: string
}

/** One user's buckets (by id or by username) from start to end (both inclusive, seconds), as a day's JSON a piece. */
export function userBucketsJson(
  db: Kysely<DB>,
  dialect: Dialect,
  who: { userId: number } | { username: string },
  start: number,
  end: number,
): Promise<DayPiece[]> {
  const user = 'userId' in who ? sql`user_id = ${who.userId}` : sql`username = ${who.username}`
  // every row of a name filter holds that very name
  const fixed = 'username' in who ? { username: JSON.stringify(who.username) } : undefined
  return jsonPieces(db, dialect, 'quota_data', BUCKET_COLUMNS, { start, end, who: user, fixed })
}

/**
 * Every user's buckets summed per model and hour, from start to end (both inclusive, seconds), as
 * a day's JSON a piece: read from quota_models, which holds those sums (quota_data has a row per user besides).
 */
export function modelTotalsJson(db: Kysely<DB>, dialect: Dialect, start: number, end: number): Promise<DayPiece[]> {
  return jsonPieces(db, dialect, 'quota_models', MODEL_COLUMNS, { start, end })
}

// ---- the ledger's buckets -------------------------------------------------------------------------

/** What one batch adds to a bucket (plain data: it crosses to the SQLite writer thread). */
export interface BucketDelta {
  user_id: number
  username: string
  model_name: string
  /** the start of the hour, unix seconds */
  created_at: number
  token_used: number
  count: number
  quota: number
}

/** The start of the hour `seconds` falls in: a bucket's created_at. */
export const hourOf = (seconds: number): number => seconds - (seconds % HOUR)

/** A delta's values in the order of the upsert's columns. */
export const bucketValues = (b: BucketDelta): Array<string | number> => [
  b.user_id,
  b.username,
  b.model_name,
  b.created_at,
  b.token_used,
  b.count,
  b.quota,
]

const upsertText = new Map<string, string>()

/**
 * Adds `rows` deltas to their buckets, creating the missing ones, in one statement (the same SQL
 * on SQLite and PostgreSQL but for the placeholders).
 */
export function upsertBucketsSql(rows: number, style: Placeholder): string {
  const k = `${style}:${rows}`
  let s = upsertText.get(k)
  if (!s) {
    s = `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota) VALUES ${valueRows(rows, 7, style)}
      ON CONFLICT (user_id, model_name, created_at) DO UPDATE SET token_used = quota_data.token_used + excluded.token_used,
      count = quota_data.count + excluded.count, quota = quota_data.quota + excluded.quota`
    upsertText.set(k, s)
  }
  return s
}

/**
 * Sums quota_data into quota_models afresh: for buckets written outside the ledger (the seed data
 * of tests and benchmarks). The ledger keeps the two in step itself.
 */
export async function refillModelTotals(db: Kysely<DB>): Promise<void> {
  await db.deleteFrom('quota_models').execute()
  await sql`insert into quota_models (model_name, created_at, token_used, count, quota)
    select model_name, created_at, sum(token_used), sum(count), sum(quota) from quota_data group by model_name, created_at`.execute(db)
  // written outside the ledger: every day the dashboard may have kept counts as written to
  await sql`update quota_day_writes set writes = writes + 1`.execute(db)
  await sql`insert into quota_day_writes (created_at, writes)
    select distinct created_at - created_at % ${sql.lit(DAY)}, 1 from quota_models where true
    on conflict (created_at) do nothing`.execute(db)
}

/** What a batch's user buckets add to everyone's per model and hour (quota_models). */
export type ModelDelta = [model_name: string, created_at: number, token_used: number, count: number, quota: number]

/** The user buckets of a batch summed per model and hour: the rows of quota_models they add to. */
export function modelDeltas(buckets: Iterable<BucketDelta>): ModelDelta[] {
  const sums = new Map<string, ModelDelta>()
  for (const b of buckets) {
    const k = `${b.created_at}:${b.model_name}`
    const m = sums.get(k)
    if (m) {
      m[2] += b.token_used
      m[3] += b.count
      m[4] += b.quota
    } else sums.set(k, [b.model_name, b.created_at, b.token_used, b.count, b.quota])
  }
  return [...sums.values()]
}

/** Adds `rows` model deltas to quota_models in one statement, as upsertBucketsSql does. */
export function upsertModelsSql(rows: number, style: Placeholder): string {
  const k = `models:${style}:${rows}`
  let s = upsertText.get(k)
  if (!s) {
    s = `INSERT INTO quota_models (model_name, created_at, token_used, count, quota) VALUES ${valueRows(rows, 5, style)}
      ON CONFLICT (model_name, created_at) DO UPDATE SET token_used = quota_models.token_used + excluded.token_used,
      count = quota_models.count + excluded.count, quota = quota_models.quota + excluded.quota`
    upsertText.set(k, s)
  }
  return s
}

// ---- the ledger's user, token, channel and total buckets (quota_dims, quota_days) -----------------

/**
 * The keys of quota_dims: a user's, a token's or a channel's usage per hour, and everyone's
 * (`all`, key 0), written together from the same settled requests; quota_days holds the first
 * three per day.
 */
export type Dim = 'user' | 'token' | 'channel' | 'all'

/** What one batch adds to a user's, token's, channel's or everyone's bucket. */
export interface DimDelta {
  dim: Dim
  key_id: number
  /** the user, or the token's owner; 0 for a channel and for everyone */
  user_id: number
  created_at: number
  token_used: number
  count: number
  quota: number
}

export const dimValues = (d: DimDelta): Array<string | number> => [d.dim, d.key_id, d.user_id, d.created_at, d.token_used, d.count, d.quota]

/**
 * Adds `rows` deltas to their keyed rows in one statement, as upsertBucketsSql does: the hourly
 * buckets (quota_dims) or the daily rows (quota_days).
 */
function upsertKeyedSql(table: 'quota_dims' | 'quota_days', rows: number, style: Placeholder): string {
  const k = `${table}:${style}:${rows}`
  let s = upsertText.get(k)
  if (!s) {
    s = `INSERT INTO ${table} (dim, key_id, user_id, created_at, token_used, count, quota) VALUES ${valueRows(rows, 7, style)}
      ON CONFLICT (dim, key_id, created_at) DO UPDATE SET token_used = ${table}.token_used + excluded.token_used,
      count = ${table}.count + excluded.count, quota = ${table}.quota + excluded.quota`
    upsertText.set(k, s)
  }
  return s
}

export const upsertDimsSql = (rows: number, style: Placeholder) => upsertKeyedSql('quota_dims', rows, style)
export const upsertDaysSql = (rows: number, style: Placeholder) => upsertKeyedSql('quota_days', rows, style)

/** The start of the UTC day `seconds` falls in: a quota_days row's created_at. */
export const dayOf = (seconds: number): number => seconds - (seconds % DAY)

/** What a batch's hourly deltas add to the daily rows (quota_days): every dim but `all`, summed per key and day. */
export function dayDeltas(dims: Iterable<DimDelta>): DimDelta[] {
  const sums = new Map<string, DimDelta>()
  for (const d of dims) {
    if (d.dim === 'all') continue
    const day = dayOf(d.created_at)
    const k = `${d.dim}:${d.key_id}:${day}`
    const x = sums.get(k)
    if (x) {
      x.token_used += d.token_used
      x.count += d.count
      x.quota += d.quota
    } else sums.set(k, { ...d, created_at: day })
  }
  return [...sums.values()]
}

/** The UTC days a batch's buckets fall in, in ascending order. */
export function bucketDays(buckets: Iterable<BucketDelta>): number[] {
  const days = new Set<number>()
  for (const b of buckets) days.add(dayOf(b.created_at))
  return [...days].sort((a, b) => a - b)
}

/**
 * Counts one more write into each of `rows` UTC days (quota_day_writes), in one statement. The
 * ledger runs it in the transaction that adds to the days' buckets: a day whose count has not
 * moved since the dashboard read it still holds the buckets it read (dashboard-days.ts).
 */
export function markDaysSql(rows: number, style: Placeholder): string {
  const k = `day-writes:${style}:${rows}`
  let s = upsertText.get(k)
  if (!s) {
    const values = Array.from({ length: rows }, (_, i) => (style === '?' ? '(?, 1)' : `($${i + 1}, 1)`)).join(', ')
    s = `INSERT INTO quota_day_writes (created_at, writes) VALUES ${values}
      ON CONFLICT (created_at) DO UPDATE SET writes = quota_day_writes.writes + 1`
    upsertText.set(k, s)
  }
  return s
}

/** Orders deltas by their row (PostgreSQL: two instances' upserts then lock shared rows in the same order). */
export const byDimRow = (a: DimDelta, b: DimDelta): number =>
  a.dim < b.dim ? -1 : a.dim > b.dim ? 1 : a.key_id - b.key_id || a.created_at - b.created_at

/**
 * Builds the users' and everyone's hourly buckets (quota_dims `user` and `all`) from quota_data,
 * and every daily row (quota_days) from quota_dims, afresh: once at the upgrade that adds them, and
 * for buckets written outside the ledger (the seed data of tests and benchmarks). The ledger keeps
 * them in step itself.
 */
export async function refillRollups(db: Kysely<any>): Promise<void> {
  const sums = sql`sum(token_used), sum(count), sum(quota)`
  await sql`delete from quota_dims where dim in ('user', 'all')`.execute(db)
  await sql`insert into quota_dims (dim, key_id, user_id, created_at, token_used, count, quota)
    select 'user', user_id, user_id, created_at, ${sums} from quota_data group by user_id, created_at`.execute(db)
  await sql`insert into quota_dims (dim, key_id, user_id, created_at, token_used, count, quota)
    select 'all', 0, 0, created_at, ${sums} from quota_data group by created_at`.execute(db)
  await sql`delete from quota_days`.execute(db)
  const day = sql`created_at - created_at % ${sql.lit(DAY)}`
  await sql`insert into quota_days (dim, key_id, user_id, created_at, token_used, count, quota)
    select dim, key_id, min(user_id), ${day}, ${sums} from quota_dims where dim <> 'all' group by dim, key_id, ${day}`.execute(db)
}
