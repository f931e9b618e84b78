/**
 * The logs table: the console's list and statistics (on millions of rows: see chooseWalk) and the
 * cleaning. The rows the relay's ledger writes are defined in log-rows.ts.
 */
import { sql, type Kysely, type SelectQueryBuilder, type Selectable } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB, LogsTable } from './schema.ts'
import { onIndexes, startsWithExact, startsWithExpr } from './dialect.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'
import { HOUR } from '../../domain/time.ts'

export type LogRow = Selectable<LogsTable>

export interface LogFilter {
  /** only this user's rows (the /self calls) */
  userId?: number
  type?: number
  tokenName?: string
  /** exact model name or a prefix of it */
  modelName?: string
  /** created_at bounds in seconds, both inclusive */
  start?: number
  end?: number
  username?: string
  channel?: number
}

/**
 * How a list walks the rows; see `chooseWalk`. `planner`: as the database plans it; `newest`: the
 * id order, newest first, the time bounds checked on each row; `window`: the time index finds the
 * rows, their ids sorted; `key`: the index of a filter that matches few rows finds them, their ids
 * sorted; `ids`: the id order with every filter checked on each row (filters that match many);
 * `user`: one user's rows in id order on their (user_id, id) index, the other filters checked on each;
 * `userTime`: one user's rows in the time window on their (user_id, type, created_at) index (every
 * type present named: see logTypes), their ids sorted;
 * `hours` (a window of some hours far behind the newest rows): each hour's newest ids on the
 * (hour, id) index, merged; `time` (the statistics of a few hours): the time index finds the rows,
 * every other filter checked on each.
 */
export type Walk = 'planner' | 'newest' | 'window' | 'key' | 'ids' | 'user' | 'userTime' | 'hours' | 'time'

/** The filters besides time and type, each with an index of its own. */
const keyed = (f: LogFilter) =>
  f.userId !== undefined || f.username !== undefined || f.tokenName !== undefined || f.modelName !== undefined || f.channel !== undefined

/** A column as an expression of the same value that no index serves (`col + 0`, `col || ''`). */
const plain = (column: string, text: boolean) => (text ? sql`(${sql.ref(column)} || '')` : sql`(${sql.ref(column)} + 0)`)

function applyFilter<O>(
  q: SelectQueryBuilder<DB, 'logs', O>,
  f: LogFilter,
  dialect: Dialect,
  walk: Walk = 'planner',
  types: readonly number[] = [],
): SelectQueryBuilder<DB, 'logs', O> {
  // On the `ids` walk no filter may lead the planner to an index, and on `newest` and `key` the
  // time bounds may not: the walk stays on the id order or on the filter's index.
  const others = walk === 'ids' || walk === 'user' || walk === 'userTime' || walk === 'hours' || walk === 'time'
  const col = (column: string, text = false) => (others ? plain(column, text) : sql.ref(column))
  const byUser = walk === 'user' || walk === 'userTime'
  if (f.userId !== undefined) q = q.where(byUser ? sql.ref('user_id') : col('user_id'), '=', f.userId)
  if (f.type !== undefined) q = q.where(walk === 'hours' ? plain('type', false) : sql.ref('type'), '=', f.type)
  // every type present, so that the (user_id, type, created_at) index reads the window of each
  else if (walk === 'userTime' && types.length) q = q.where('type', 'in', [...types])
  if (f.username !== undefined) q = q.where(col('username', true), '=', f.username)
  if (f.tokenName !== undefined) q = q.where(col('token_name', true), '=', f.tokenName)
  if (f.modelName !== undefined) {
    q = q.where(
      others ? startsWithExpr(dialect, plain('model_name', true), f.modelName) : startsWithExact(dialect, 'model_name', f.modelName),
    )
  }
  if (f.channel !== undefined) q = q.where(col('channel'), '=', f.channel)
  const createdAt =
    walk === 'newest' || walk === 'key' || walk === 'ids' || walk === 'user' || walk === 'hours'
      ? plain('created_at', false)
      : sql.ref('created_at')
  if (f.start !== undefined) q = q.where(createdAt, '>=', f.start)
  if (f.end !== undefined) q = q.where(createdAt, '<=', f.end)
  return q
}

export const WALK_LIMITS = {
  /** rows probed to tell a wide time window (or a common filter) from a narrow one */
  wide: 5000,
  /** newer rows a newest-first walk may step over before it reaches a wide window */
  skip: 50000,
}

/**
 * How many rows fall in [start, end], counting no further than `cap`. The probe walks the time
 * index from one bound only (a two-sided range can fool a planner without statistics into reading
 * the whole table) and the other bound is applied to the rows it found.
 */
async function countUpTo(db: Kysely<DB>, start: number | undefined, end: number | undefined, cap: number): Promise<number> {
  let probe = db.selectFrom('logs').select('created_at')
  probe =
    start !== undefined
      ? probe.where('created_at', '>=', start).orderBy('created_at', 'asc')
      : probe.where('created_at', '<=', end ?? Number.MAX_SAFE_INTEGER).orderBy('created_at', 'desc')
  let count = db.selectFrom(probe.limit(cap).as('probe')).select(sql<number>`count(*)`.as('n'))
  if (start !== undefined && end !== undefined) count = count.where(sql.ref('probe.created_at'), '<=', end)
  const row = await count.executeTakeFirst()
  return Number(row?.n ?? 0)
}

/**
 * Roughly how many rows came after `end`: the newest id less the lowest among the first rows after
 * `end` (ids follow the time roughly, and a row written late has a higher id, not a lower one; a
 * gap a clean left only makes the figure larger). Two short index reads where counting the rows
 * read up to `skip` entries of the time index, each visiting the table on PostgreSQL.
 */
async function newerThan(db: Kysely<DB>, end: number): Promise<number> {
  const after = db.selectFrom('logs').select('id').where('created_at', '>', end).orderBy('created_at', 'asc').limit(100)
  const low = await db
    .selectFrom(after.as('a'))
    .select(sql<number | null>`min(id)`.as('id'))
    .executeTakeFirst()
  if (low?.id === null || low?.id === undefined) return 0
  const top = await db
    .selectFrom('logs')
    .select(sql<number>`max(id)`.as('id'))
    .executeTakeFirst()
  return Number(top?.id ?? 0) - Number(low.id) + 1
}

/** How many of a user's rows (of `types`) fall in [start, end], counting no further than `cap`, on their time index. */
async function userRowsUpTo(
  db: Kysely<DB>,
  w: { userId: number; start?: number; end?: number },
  types: readonly number[],
  cap: number,
): Promise<number> {
  let probe = db
    .selectFrom('logs')
    .select('id')
    .where('user_id', '=', w.userId)
    .where('type', 'in', [...types])
  if (w.start !== undefined) probe = probe.where('created_at', '>=', w.start)
  if (w.end !== undefined) probe = probe.where('created_at', '<=', w.end)
  return countCapped(db, probe, cap)
}

/** How many rows `probe` finds, reading no more than `cap` of them. */
async function countCapped(db: Kysely<DB>, probe: SelectQueryBuilder<DB, 'logs', { id: number }>, cap: number): Promise<number> {
  const row = await db
    .selectFrom(probe.limit(cap).as('probe'))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/**
 * The log types present in the table, with every type this server writes: two seeks of the
 * (type, id) index tell whether any row has a type outside those; only then does a loose walk of
 * that index (one step per type) name them. Asked afresh for each list: a type missing here would
 * hide its rows from the user-window walk.
 */
export async function logTypes(db: Kysely<DB>): Promise<number[]> {
  const known: number[] = Object.values(LOG_TYPE)
  const [lo, hi] = [Math.min(...known), Math.max(...known)]
  const beyond = async (op: '<' | '>') =>
    db
      .selectFrom('logs')
      .select('type')
      .where('type', op, op === '<' ? lo : hi)
      .orderBy('type', op === '<' ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst()
  if (!(await beyond('<')) && !(await beyond('>'))) return known.sort((a, b) => a - b)
  const r = await sql<{ v: number | null }>`with recursive t(v) as (select min(type) from logs
    union all select (select min(type) from logs where type > t.v) from t where t.v is not null) select v from t`.execute(db)
  const types = new Set(known)
  for (const row of r.rows) if (row.v !== null) types.add(Number(row.v))
  return [...types].sort((a, b) => a - b)
}

/** Whether one of the filters (on its own index) matches fewer than `cap` rows. */
async function fewByKey(db: Kysely<DB>, dialect: Dialect, f: LogFilter, cap: number): Promise<boolean> {
  // Each probe is ordered as its index is, and read with bitmaps off: PostgreSQL then reads the
  // index in order and stops at the cap. With the key fixed its order is no order at all, and
  // without statistics it took a bitmap of every match (three million for a common model prefix,
  // 100,000 for a heavy user: 70 ms against 6) and sorted nothing.
  return onIndexes(db, dialect, false, async (tx) => {
    const base = () => tx.selectFrom('logs').select('id')
    const probes: Array<SelectQueryBuilder<DB, 'logs', { id: number }>> = []
    if (f.userId !== undefined) probes.push(base().where('user_id', '=', f.userId).orderBy('user_id'))
    if (f.username !== undefined) probes.push(base().where('username', '=', f.username).orderBy('username'))
    // the whole (token_name, token_id) order: with the name fixed, token_name alone orders nothing
    if (f.tokenName !== undefined) probes.push(base().where('token_name', '=', f.tokenName).orderBy('token_name').orderBy('token_id'))
    if (f.modelName !== undefined) {
      const model = dialect === 'postgres' ? sql`${sql.ref('model_name')} collate "C"` : sql.ref('model_name')
      probes.push(
        base()
          .where(startsWithExact(dialect, 'model_name', f.modelName))
          .orderBy(model),
      )
    }
    if (f.channel !== undefined) probes.push(base().where('channel', '=', f.channel).orderBy('channel'))
    for (const p of probes) if ((await countCapped(tx, p, cap)) < cap) return true
    return false
  })
}

/**
 * Planners without statistics (right after a bulk load, before autovacuum has analysed) and with a
 * time/id correlation they cannot see pick the wrong walk, so it is chosen here from capped index
 * counts. With filters besides time: when one of them matches few rows its index finds them
 * (`key`); when all match many, the id order finds a page at once (`ids`), unless a narrow time
 * window, or one far behind the newest rows, is the shorter way (`window`). One user's list walks
 * their own index (`user`). A list filtered by time
 * alone walks newest first when many rows fall in the window and few newer rows come before it,
 * and by the time index otherwise.
 */
export async function chooseWalk(
  db: Kysely<DB>,
  f: LogFilter,
  limits = WALK_LIMITS,
  dialect: Dialect = 'sqlite',
  typesOf: () => Promise<number[]> = () => logTypes(db),
): Promise<Walk> {
  const timed = f.start !== undefined || f.end !== undefined
  // a user's own list: their index holds their rows in id order already, the other filters are
  // checked on each of them (unless one of those matches few rows)
  if (f.userId !== undefined) {
    const others = { ...f, userId: undefined }
    if (keyed(others) && (await fewByKey(db, dialect, others, limits.wide))) return 'key'
    // a window that holds few of the user's rows is read on their time index, wherever it lies
    // (a window a month back would otherwise be found by stepping over every newer row)
    if (f.end === undefined) return 'user'
    const types = f.type !== undefined ? [f.type] : await typesOf()
    const inWindow = await userRowsUpTo(db, { userId: f.userId, start: f.start, end: f.end }, types, limits.wide)
    return inWindow < limits.wide ? 'userTime' : 'user'
  }
  if (keyed(f)) {
    if (await fewByKey(db, dialect, f, limits.wide)) return 'key'
    if (!timed) return 'ids'
  } else if (!timed) return 'planner'
  if ((await countUpTo(db, f.start, f.end, limits.wide)) < limits.wide) return 'window'
  const far = f.end !== undefined && (await newerThan(db, f.end)) >= limits.skip
  if (far) return hoursOf(f) ? 'hours' : 'window'
  return keyed(f) ? 'ids' : 'newest'
}

/** Hours the hours walk merges at the most (SQLite takes 500 terms in one compound select). */
const MOST_HOURS = 400
/** Rows the hours walk may take at the most: the page's depth times the hours. */
const MOST_HOUR_ROWS = 50_000

/** The window's first and last hour (created_at / 3600) when the hours walk can merge it, else null. */
function hoursOf(f: LogFilter): [number, number] | null {
  if (f.start === undefined || f.end === undefined || f.start < 0 || f.end < f.start) return null
  const first = Math.floor(f.start / HOUR)
  const last = Math.floor(f.end / HOUR)
  return last - first < MOST_HOURS ? [first, last] : null
}

/**
 * The page's ids on the hours walk: each hour of the window gives its newest `depth` matching ids
 * on the (created_at / 3600, id) index, and the merge of those holds the page. A window a month
 * back holds hundreds of thousands of rows, which the time index would read only to sort their
 * ids; the rows' times follow their ids only roughly (batched writes, long streams), so no id
 * bound can be taken from the time index, but within one hour the index keeps them in id order.
 * The bounds are checked on each row of the two hours at the window's ends only.
 */
function hourIds(db: Kysely<DB>, dialect: Dialect, f: LogFilter, first: number, last: number, page: number, size: number) {
  const depth = (page + 1) * size
  const terms = []
  for (let h = last; h >= first; h--) {
    const bounds = { start: h === first ? f.start : undefined, end: h === last ? f.end : undefined }
    const hour = applyFilter(db.selectFrom('logs').select('id'), { ...f, ...bounds }, dialect, 'hours')
      // the index's own expression (a literal divisor: a parameter would not match it)
      .where(sql`(${sql.ref('created_at')} / 3600)`, '=', h)
      .orderBy('id', 'desc')
      .limit(depth)
    terms.push(db.selectFrom(hour.as('h')).select('id'))
  }
  const merged = terms.reduce((a, b) => a.unionAll(b))
  return db
    .selectFrom(merged.as('m'))
    .select('id')
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
}

/**
 * The query for one page of logs, newest (highest id) first. The page's ids are found first, on
 * indexes alone where the filters allow, and only those rows are read whole.
 */
export function listLogsQuery(
  db: Kysely<DB>,
  dialect: Dialect,
  f: LogFilter,
  page: number,
  size: number,
  walk: Walk = 'planner',
  types: readonly number[] = [],
) {
  if (walk === 'hours') {
    const hours = hoursOf(f)
    if (hours && (page + 1) * size * (hours[1] - hours[0] + 1) <= MOST_HOUR_ROWS) {
      const ids = hourIds(db, dialect, f, hours[0], hours[1], page, size)
      return db.selectFrom('logs').selectAll().where('id', 'in', ids).orderBy('id', 'desc')
    }
    walk = 'window'
  }
  const order = walk === 'window' || walk === 'key' || walk === 'userTime' ? sql`${sql.ref('id')} + 0` : sql`${sql.ref('id')}`
  const ids = applyFilter(db.selectFrom('logs').select('id'), f, dialect, walk, types)
    .orderBy(order, 'desc')
    .limit(size)
    .offset(page * size)
  return db.selectFrom('logs').selectAll().where('id', 'in', ids).orderBy('id', 'desc')
}

export async function listLogs(db: Kysely<DB>, dialect: Dialect, f: LogFilter, page: number, size: number): Promise<LogRow[]> {
  // the types present are asked once, by the walk's choice or else by the walk itself
  let types: Promise<number[]> | undefined
  const typesOnce = () => (types ??= logTypes(db))
  const walk = await chooseWalk(db, f, WALK_LIMITS, dialect, typesOnce)
  const known = walk === 'userTime' ? await typesOnce() : []
  // Filters no index may serve leave PostgreSQL, without statistics, expecting almost no row to
  // match, so it reads the whole table and sorts (a second at ten million rows) rather than walk
  // the primary key from the newest row (a few ms: each filter matches many rows); on the user
  // walk it reads the bitmap of all of a user's rows and sorts them by id.
  if (walk === 'ids' || walk === 'user' || walk === 'hours')
    return onIndexes(db, dialect, walk === 'ids', (tx) => listLogsQuery(tx, dialect, f, page, size, walk).execute())
  return listLogsQuery(db, dialect, f, page, size, walk, known).execute()
}

/**
 * One batch of the export: up to `size` matching rows with ids below `beforeId`, highest id first
 * (keyset pagination: each batch starts where the last ended, so no batch reads or skips more).
 */
export function logBatch(db: Kysely<DB>, dialect: Dialect, f: LogFilter, beforeId: number, size: number): Promise<LogRow[]> {
  return applyFilter(db.selectFrom('logs').selectAll(), f, dialect).where('id', '<', beforeId).orderBy('id', 'desc').limit(size).execute()
}

/**
 * The query summing quota and tokens (prompt + completion) of the consumption rows that match. By
 * default, with a filter besides time its index finds the rows (the time bounds, often all time,
 * may not); `time` is for a range of a few hours, which the time index finds faster.
 */
export function logStatQuery(db: Kysely<DB>, dialect: Dialect, f: LogFilter, walk?: 'time') {
  // A type filter other than consumption matches no consumption row: -1 makes that explicit.
  const type = f.type !== undefined && f.type !== LOG_TYPE.consume ? -1 : LOG_TYPE.consume
  return applyFilter(
    db
      .selectFrom('logs')
      .select([sql<number | null>`sum(quota)`.as('quota'), sql<number | null>`sum(prompt_tokens + completion_tokens)`.as('token')]),
    { ...f, type },
    dialect,
    walk ?? (keyed(f) ? 'key' : 'planner'),
  )
}

/** Rows one statement of a log clean deletes: a few milliseconds of the write lock each. */
export const CLEAN_BATCH = 2_000
/** After each statement the clean rests this many times as long as the statement took. */
const CLEAN_REST = 2

/**
 * Deletes the rows written before `before` (unix seconds) in statements of `batch` rows, resting
 * between them twice as long as each took: one statement over millions of rows would hold SQLite's
 * write lock (and, on SQLite, the event loop) for seconds, and the relay with it; back-to-back
 * batches still starve it (a tick between them is not enough for a request). Returns how many.
 */
export async function deleteLogsBefore(db: Kysely<DB>, before: number, batch = CLEAN_BATCH): Promise<number> {
  let total = 0
  for (;;) {
    const started = performance.now()
    const r = await db
      .deleteFrom('logs')
      .where('id', 'in', (q) => q.selectFrom('logs').select('id').where('created_at', '<', before).limit(batch))
      .executeTakeFirst()
    const n = Number(r.numDeletedRows)
    total += n
    if (n < batch) return total
    const rest = Math.max(1, (performance.now() - started) * CLEAN_REST)
    await new Promise<void>((done) => setTimeout(done, rest))
  }
}
