/**
 * The data dashboard's closed days, kept as the JSON they were read as.
 *
 * A month's dashboard is some 18,000 buckets, 2.5 MB of JSON, and the database writes it at about
 * a microsecond a bucket: 25 to 40 ms a call, for days that no longer change but for a late settle
 * or a task's refund. So each day wholly inside an asked range is kept once read, under the count
 * of ledger batches written into that day when it was read (quota_day_writes, moved in the same
 * transaction as the buckets). A call reads the counts of its days (one indexed read), takes the
 * days whose count has not moved from memory, and asks the database for the rest: the edges of the
 * range (part of a day) and any day written since. The count is read before the buckets, so a
 * day's JSON is never kept under a count newer than what it holds; a write by another instance on
 * the same database moves the same count.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from './schema.ts'
import { DAY } from '../../domain/time.ts'
import type { DayPiece } from './quota-data.ts'

/** Whose buckets: everyone's per model, one user's by id, or by username. */
export type DashboardScope = { models: true } | { userId: number } | { username: string }

const scopeKey = (scope: DashboardScope): string =>
  'models' in scope ? 'm' : 'userId' in scope ? `u${scope.userId}` : `n${JSON.stringify(scope.username)}`

interface Kept {
  writes: number
  json: Buffer
}

/**
 * The JSON of closed days, least recently used dropped first beyond `maxBytes` (a month of
 * everyone's buckets is some 2.5 MB; a light user's a few kB).
 */
export class DayJsonCache {
  readonly maxBytes: number
  #bytes = 0
  /** in order of use, the most recent last */
  readonly #kept = new Map<string, Kept>()

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  get bytes(): number {
    return this.#bytes
  }

  /** The day's JSON as kept when its count of writes was `writes`; a day written since is dropped. */
  get(key: string, writes: number): Buffer | undefined {
    const kept = this.#kept.get(key)
    if (!kept) return undefined
    this.#kept.delete(key)
    if (kept.writes !== writes) {
      this.#bytes -= kept.json.length
      return undefined
    }
    this.#kept.set(key, kept)
    return kept.json
  }

  set(key: string, writes: number, json: Buffer): void {
    const old = this.#kept.get(key)
    if (old) {
      this.#kept.delete(key)
      this.#bytes -= old.json.length
    }
    if (json.length > this.maxBytes) return
    this.#kept.set(key, { writes, json })
    this.#bytes += json.length
    for (const [k, v] of this.#kept) {
      if (this.#bytes <= this.maxBytes) break
      this.#kept.delete(k)
      this.#bytes -= v.json.length
    }
  }

  clear(): void {
    this.#kept.clear()
    this.#bytes = 0
  }
}

/** How many batches the ledger has written into each UTC day from `first` to `last` (day starts, seconds). */
async function dayWrites(db: Kysely<DB>, first: number, last: number): Promise<Map<number, number>> {
  const rows = await sql<{ created_at: number | string; writes: number | string }>`select created_at, writes from quota_day_writes
    where created_at >= ${first} and created_at <= ${last}`.execute(db)
  return new Map(rows.rows.map((r) => [Number(r.created_at), Number(r.writes)]))
}

/**
 * The dashboard's buckets of `scope` from start to end (both inclusive, seconds) as the members of
 * its JSON array, in pieces (okJsonPieces writes them): the kept closed days as they were, the
 * rest from `read`, which answers a range as a day's JSON a piece.
 */
export async function dashboardPieces(
  db: Kysely<DB>,
  cache: DayJsonCache,
  scope: DashboardScope,
  start: number,
  end: number,
  read: (start: number, end: number) => Promise<DayPiece[]>,
): Promise<Array<string | Buffer>> {
  // the days wholly inside the range: only those are kept
  const firstWhole = Math.ceil(start / DAY) * DAY
  const lastWhole = Math.floor((end + 1) / DAY) * DAY - DAY
  if (firstWhole > lastWhole) return nonEmpty(await read(start, end))
  const writes = await dayWrites(db, firstWhole, lastWhole)
  const prefix = scopeKey(scope)
  // the range in order: kept days, and the runs of days between them to read
  const parts: Array<Buffer | { start: number; end: number }> = []
  let run: { start: number; end: number } | null = null
  for (let day = start - (start % DAY); day <= end; day += DAY) {
    const whole = day >= firstWhole && day <= lastWhole
    const kept = whole ? cache.get(`${prefix}:${day}`, writes.get(day) ?? 0) : undefined
    if (kept) {
      run = null
      parts.push(kept)
    } else if (run) run.end = Math.min(end, day + DAY - 1)
    else parts.push((run = { start: Math.max(start, day), end: Math.min(end, day + DAY - 1) }))
  }
  const runs = parts.filter((p): p is { start: number; end: number } => !Buffer.isBuffer(p))
  const read_ = await Promise.all(runs.map((r) => read(r.start, r.end)))
  const out: Array<string | Buffer> = []
  let r = 0
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      if (part.length) out.push(part)
      continue
    }
    const pieces = new Map(read_[r++]!.map((p) => [p.day, p.json]))
    for (let day = part.start - (part.start % DAY); day <= part.end; day += DAY) {
      const json = pieces.get(day) ?? ''
      if (day >= firstWhole && day <= lastWhole) {
        // a whole day is kept, one without buckets as well (as nothing)
        const bytes = Buffer.from(json)
        cache.set(`${prefix}:${day}`, writes.get(day) ?? 0, bytes)
        if (bytes.length) out.push(bytes)
      } else if (json) out.push(json)
    }
  }
  return out
}

const nonEmpty = (pieces: DayPiece[]): string[] => pieces.flatMap((p) => (p.json ? [p.json] : []))
