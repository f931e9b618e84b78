/**
 * The top keys of a breakdown by user, token or channel over a long range, found from the daily
 * rows (quota_days) without summing every key: each day's list is read from its top, only the keys
 * met there are summed exactly, and the answer is taken only when no other key can reach it. A key
 * missing from a day's list used at most what the list's last key used that day, so a key missing
 * from every list used at most the sum of those last figures over the range's days: when the N-th
 * summed key used more, the N found are the top N. Otherwise the lists are read deeper; if even the
 * deepest reading proves nothing (usage spread evenly over thousands of keys), the caller sums the
 * hourly buckets as before.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from './schema.ts'
import type { Dialect } from './index.ts'
import { DAY, HOUR } from '../../domain/time.ts'
import { dayOf } from './quota-data.ts'

export interface KeySums {
  key: number
  count: number
  quota: number
  token_used: number
}

/**
 * How deep each day's list is read, deeper while nothing is proven: every key met is then summed,
 * so each step costs what its keys' rows cost (a range of a day or two, whose partial days are
 * bounded by whole days' figures, usually needs the second step).
 */
const DEPTHS = [32, 64, 128, 512, 2048]
/** More keys than this to sum exactly, and the hourly buckets are summed instead. */
const MOST_KEYS = 4000

/** The whole UTC days between start and end (both inclusive; buckets are hours): [from, to). */
export function wholeDays(start: number, end: number): { from: number; to: number } {
  const from = Math.ceil(start / DAY) * DAY
  const to = Math.floor((end + HOUR) / DAY) * DAY
  return to > from ? { from, to } : { from: start, to: start }
}

/** Orders keys as the breakdown does: by quota, then requests, then key. */
const ranked = (a: KeySums, b: KeySums) => b.quota - a.quota || b.count - a.count || a.key - b.key

/**
 * The top `top` keys of `dim` over [start, end] with what each used, or null when the daily lists
 * cannot prove them.
 */
export async function topFromDays(
  db: Kysely<DB>,
  dialect: Dialect,
  dim: 'user' | 'token' | 'channel',
  start: number,
  end: number,
  top: number,
): Promise<KeySums[] | null> {
  const days: number[] = []
  for (let d = dayOf(start); d <= end; d += DAY) days.push(d)
  for (const depth of DEPTHS) {
    const lists = await dayLists(db, dim, days, depth)
    let bound = 0
    let complete = true
    const keys = new Set<number>()
    for (const list of lists.values()) {
      for (const r of list) keys.add(r.key)
      if (list.length === depth) {
        complete = false
        bound += list[depth - 1]!.quota
      }
    }
    if (keys.size > MOST_KEYS) return null
    const sums = (await exactSums(db, dialect, dim, [...keys], start, end)).sort(ranked)
    if (complete) return sums.slice(0, top)
    if (sums.length >= top && sums[top - 1]!.quota > bound) return sums.slice(0, top)
  }
  return null
}

/** The first `depth` keys of each day's list by quota (one statement: a union of index reads). */
async function dayLists(db: Kysely<DB>, dim: string, days: number[], depth: number) {
  const parts = days.map(
    (d, i) => sql`select * from (select key_id, created_at, quota from quota_days
      where dim = ${dim} and created_at = ${d} order by quota desc limit ${sql.lit(depth)}) as ${sql.ref(`l${i}`)}`,
  )
  const lists = new Map<number, Array<{ key: number; quota: number }>>(days.map((d) => [d, []]))
  if (!parts.length) return lists
  const r = await sql<{ key_id: number; created_at: number; quota: number }>`${sql.join(parts, sql` union all `)}`.execute(db)
  for (const row of r.rows) lists.get(Number(row.created_at))?.push({ key: Number(row.key_id), quota: Number(row.quota) })
  // a union keeps no order across its parts: each list from its top
  for (const list of lists.values()) list.sort((a, b) => b.quota - a.quota)
  return lists
}

/**
 * What `keys` used over [start, end]: their whole days from quota_days, the hours around them from
 * quota_dims, each read by key. A planner without statistics would rather walk every key's rows
 * in the range (the (dim, created_at) indexes) and keep the few asked for: on SQLite `+ 0` keeps
 * the days' range off the index; on PostgreSQL each key is its own index read (a lateral join
 * behind `offset 0`, which the planner cannot turn back into one walk).
 */
async function exactSums(db: Kysely<DB>, dialect: Dialect, dim: string, keys: number[], start: number, end: number) {
  if (!keys.length) return []
  const { from, to } = wholeDays(start, end)
  const perKey = (table: 'quota_days' | 'quota_dims', a: number, b: number) => {
    if (dialect === 'postgres')
      return sql`select r.* from unnest(${keys}::bigint[]) as k(id) cross join lateral (select key_id, count, quota, token_used
        from ${sql.table(table)} where dim = ${dim} and key_id = k.id and created_at >= ${a} and created_at < ${b} offset 0) as r`
    const at = table === 'quota_days' ? sql`created_at + 0` : sql`created_at`
    return sql`select key_id, count, quota, token_used from ${sql.table(table)}
      where dim = ${dim} and key_id in (${sql.join(keys)}) and ${at} >= ${a} and ${at} < ${b}`
  }
  const r = await sql<Record<string, unknown>>`select key_id, sum(count) as count, sum(quota) as quota, sum(token_used) as token_used from (
      ${perKey('quota_days', from, to)}
      union all ${perKey('quota_dims', start, from)}
      union all ${perKey('quota_dims', to, end + 1)}
    ) as s group by key_id`.execute(db)
  return r.rows.map((x) => ({ key: Number(x.key_id), count: Number(x.count), quota: Number(x.quota), token_used: Number(x.token_used) }))
}
