/**
 * The data dashboard's breakdowns: usage by model, user, token or channel per hour, day or week,
 * the top N keys and the rest as "others", read from the buckets only, never from the log rows:
 * quota_models for everyone's models, quota_data for one user's models, quota_dims for users,
 * tokens, channels and everyone's totals; the top users, tokens and channels over a range come
 * from the daily rows (breakdown-top.ts).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from './schema.ts'
import type { Dialect } from './index.ts'
import { DAY, HOUR } from '../../domain/time.ts'
import { topFromDays } from './breakdown-top.ts'
import { onIndexes } from './dialect.ts'

export const BREAKDOWN_BY = ['model', 'user', 'token', 'channel'] as const
export type BreakdownBy = (typeof BREAKDOWN_BY)[number]

export const BREAKDOWN_PERIODS = { hour: HOUR, day: DAY, week: 7 * DAY } as const
export type BreakdownPeriod = keyof typeof BREAKDOWN_PERIODS

export interface BreakdownAsk {
  by: BreakdownBy
  period: BreakdownPeriod
  /** unix seconds, both inclusive */
  start: number
  end: number
  /** seconds east of UTC where days and weeks begin (the viewer's time zone) */
  offset: number
  /** how many keys get their own series; the rest are summed as "others" */
  top: number
  /** only this user's usage (a user's own breakdown, or an administrator's for one user) */
  userId?: number
}

export interface Figures {
  count: number
  quota: number
  token_used: number
}

export interface BreakdownKey extends Figures {
  key: string
  label: string
}

export interface BreakdownRow extends Figures {
  /** the start of the period, unix seconds */
  period: number
  /** the key, or null for the sum of every key outside the top */
  key: string | null
}

export interface Breakdown {
  by: BreakdownBy
  period: BreakdownPeriod
  top: BreakdownKey[]
  /** what the keys outside the top used over the range, null when there are none */
  others: Figures | null
  rows: BreakdownRow[]
}

interface Source {
  table: 'quota_data' | 'quota_dims' | 'quota_models'
  key: RawBuilder<unknown>
  where: RawBuilder<unknown>
  /** where each period's total over every key is read, when not from `table` itself */
  totals?: { table: 'quota_dims'; where: RawBuilder<unknown> }
}

function source(ask: BreakdownAsk): Source {
  const range = sql`created_at >= ${ask.start} and created_at <= ${ask.end}`
  // everyone's usage per model is summed already (quota_models): a row per model and hour, not per user besides
  if (ask.by === 'model' && ask.userId === undefined) return { table: 'quota_models', key: sql.ref('model_name'), where: range }
  if (ask.by === 'model') return { table: 'quota_data', key: sql.ref('model_name'), where: sql`${range} and user_id = ${ask.userId}` }
  if (ask.userId !== undefined)
    return { table: 'quota_dims', key: sql.ref('key_id'), where: sql`dim = ${ask.by} and ${range} and user_id = ${ask.userId}` }
  // everyone's total per hour (quota_dims `all`) is written with the users', tokens' and channels' buckets
  const totals = { table: 'quota_dims' as const, where: sql`dim = 'all' and key_id = 0 and ${range}` }
  return { table: 'quota_dims', key: sql.ref('key_id'), where: sql`dim = ${ask.by} and ${range}`, totals }
}

/**
 * The start of the period a bucket falls in: buckets are hours already; days and weeks (from
 * Monday) begin at midnight `offset` seconds east of UTC. The numbers are checked integers.
 */
function periodOf(ask: BreakdownAsk): RawBuilder<number> {
  if (ask.period === 'hour') return sql<number>`created_at`
  const size = BREAKDOWN_PERIODS[ask.period]
  // 1 January 1970 was a Thursday: weeks from Monday are shifted by three days
  const shift = ask.offset + (ask.period === 'week' ? 3 * DAY : 0)
  return sql<number>`((created_at + ${sql.lit(shift)}) / ${sql.lit(size)}) * ${sql.lit(size)} - ${sql.lit(shift)}`
}

const sums = sql`sum(count) as count, sum(quota) as quota, sum(token_used) as token_used`

const figures = (r: Record<string, unknown>): Figures => ({
  count: Number(r.count),
  quota: Number(r.quota),
  token_used: Number(r.token_used),
})

/** The names the keys are shown by: usernames, token and channel names (with their ids: names repeat). */
async function labels(db: Kysely<DB>, by: BreakdownBy, keys: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  const ids = keys.map(Number).filter((n) => n > 0)
  if (by === 'model' || ids.length === 0) return names
  if (by === 'user') {
    for (const r of await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute())
      names.set(String(r.id), r.username)
  } else {
    const table = by === 'token' ? 'tokens' : 'channels'
    for (const r of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', ids).execute())
      names.set(String(r.id), r.name ? `${r.name} #${r.id}` : `#${r.id}`)
  }
  return names
}

/**
 * The breakdown asked: three grouped reads of the buckets (top keys, period totals, top keys per
 * period), in one transaction on PostgreSQL.
 */
export function breakdown(db: Kysely<DB>, dialect: Dialect, ask: BreakdownAsk): Promise<Breakdown> {
  // PostgreSQL without statistics on the buckets (a fresh or just-upgraded database) reads each
  // day's whole list through a bitmap and sorts it, where the index already holds it in order
  return onIndexes(db, dialect, false, (tx) => breakdownIn(tx, dialect, ask))
}

async function breakdownIn(db: Kysely<DB>, dialect: Dialect, ask: BreakdownAsk): Promise<Breakdown> {
  const src = source(ask)
  if (ask.by === 'model') return byModel(db, ask, src)
  const table = sql.table(src.table)
  const period = periodOf(ask)
  const topRows = await topKeys(db, dialect, ask, src)
  const whole = src.totals ?? src
  const totals = await sql<Record<string, unknown>>`select ${period} as p, ${sums} from ${sql.table(whole.table)} where ${whole.where}
    group by ${period} order by ${period}`.execute(db)
  const keys = topRows.map((r) => String(r.k))
  const names = await labels(db, ask.by, keys)
  const top = topRows.map((r) => ({ key: String(r.k), label: names.get(String(r.k)) ?? labelOf(ask.by, String(r.k)), ...figures(r) }))
  const rows: BreakdownRow[] = []
  if (keys.length) {
    const keyValues = keys.map(Number)
    const cells = await sql<Record<string, unknown>>`select ${period} as p, ${src.key} as k, ${sums} from ${table}
      where ${src.where} and ${src.key} in (${sql.join(keyValues)}) group by ${period}, ${src.key} order by ${period}`.execute(db)
    for (const r of cells.rows) rows.push({ period: Number(r.p), key: String(r.k), ...figures(r) })
  }
  const others = othersOf(totals.rows, rows)
  return { by: ask.by, period: ask.period, top, others: others.total, rows: rows.concat(others.rows).sort((a, b) => a.period - b.period) }
}

/**
 * By model, in one read: models are few (tens, where users, tokens and channels are thousands),
 * so every model's sums per period are one small grouped read of the range's buckets, and the top,
 * the others and the periods' rows are counted from it, where three reads of the same 18,000
 * buckets a month took three times as long.
 */
async function byModel(db: Kysely<DB>, ask: BreakdownAsk, src: Source): Promise<Breakdown> {
  const period = periodOf(ask)
  const cells = await sql<Record<string, unknown>>`select ${period} as p, ${src.key} as k, ${sums} from ${sql.table(src.table)}
    where ${src.where} group by ${period}, ${src.key}`.execute(db)
  const perKey = new Map<string, BreakdownKey>()
  const rows = cells.rows.map((r) => {
    const row: BreakdownRow = { period: Number(r.p), key: String(r.k), ...figures(r) }
    const k = perKey.get(row.key!) ?? { key: row.key!, label: labelOf('model', row.key!), count: 0, quota: 0, token_used: 0 }
    k.count += row.count
    k.quota += row.quota
    k.token_used += row.token_used
    perKey.set(row.key!, k)
    return row
  })
  // as the grouped read orders them: most quota, then most requests, then by name
  const ranked = [...perKey.values()].sort((a, b) => b.quota - a.quota || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const top = ranked.slice(0, ask.top)
  const inTop = new Set(top.map((k) => k.key))
  const kept: BreakdownRow[] = []
  const rest = new Map<number, BreakdownRow>()
  for (const r of rows) {
    if (inTop.has(r.key!)) kept.push(r)
    else {
      const o = rest.get(r.period) ?? { period: r.period, key: null, count: 0, quota: 0, token_used: 0 }
      o.count += r.count
      o.quota += r.quota
      o.token_used += r.token_used
      rest.set(r.period, o)
    }
  }
  const others = [...rest.values()].filter((o) => o.count !== 0 || o.quota !== 0 || o.token_used !== 0)
  const total = others.length
    ? others.reduce((t, o) => ({ count: t.count + o.count, quota: t.quota + o.quota, token_used: t.token_used + o.token_used }), {
        count: 0,
        quota: 0,
        token_used: 0,
      })
    : null
  const byPeriodThenKey = (a: BreakdownRow, b: BreakdownRow) =>
    a.period - b.period || (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  return { by: 'model', period: ask.period, top, others: total, rows: kept.concat(others).sort(byPeriodThenKey) }
}

/**
 * The top keys over the range with what each used: everyone's users, tokens and channels from the
 * daily rows when those prove them, otherwise (and for models, and within one user) by summing
 * every key's buckets in the range.
 */
async function topKeys(db: Kysely<DB>, dialect: Dialect, ask: BreakdownAsk, src: Source): Promise<Array<Record<string, unknown>>> {
  if (ask.by !== 'model' && ask.userId === undefined) {
    const found = await topFromDays(db, dialect, ask.by, ask.start, ask.end, ask.top)
    if (found) return found.map(({ key, ...f }) => ({ k: key, ...f }))
  }
  const r = await sql<Record<string, unknown>>`select ${src.key} as k, ${sums} from ${sql.table(src.table)} where ${src.where}
    group by ${src.key} order by sum(quota) desc, sum(count) desc, ${src.key} limit ${sql.lit(ask.top)}`.execute(db)
  return r.rows
}

/** A key nobody can name any more (a deleted token or channel), or a model bucket without a model. */
function labelOf(by: BreakdownBy, key: string): string {
  if (by === 'model') return key || '-'
  return `#${key}`
}

/** What the keys outside the top used: each period's total less the top keys' share of it. */
function othersOf(totals: Array<Record<string, unknown>>, rows: BreakdownRow[]) {
  const inTop = new Map<number, Figures>()
  for (const r of rows) {
    const f = inTop.get(r.period) ?? { count: 0, quota: 0, token_used: 0 }
    inTop.set(r.period, { count: f.count + r.count, quota: f.quota + r.quota, token_used: f.token_used + r.token_used })
  }
  const out: BreakdownRow[] = []
  const total: Figures = { count: 0, quota: 0, token_used: 0 }
  for (const r of totals) {
    const all = figures(r)
    const mine = inTop.get(Number(r.p)) ?? { count: 0, quota: 0, token_used: 0 }
    const rest = { count: all.count - mine.count, quota: all.quota - mine.quota, token_used: all.token_used - mine.token_used }
    if (rest.count === 0 && rest.quota === 0 && rest.token_used === 0) continue
    out.push({ period: Number(r.p), key: null, ...rest })
    total.count += rest.count
    total.quota += rest.quota
    total.token_used += rest.token_used
  }
  return { rows: out, total: out.length ? total : null }
}
