/**
 * The SQL that differs between SQLite and PostgreSQL, in one place. Each table's module
 * (server/db/<table>.ts) builds its queries with these; nothing else branches on the dialect.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB } from './schema.ts'

// ---- part 2 (tokens, logs, channels, the ledger writers) ------------------------------------------

/**
 * The smallest string greater than every string that starts with `prefix`, in code-point order
 * (SQLite's BINARY collation, PostgreSQL's "C"), or null when there is none.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix].map((ch) => ch.codePointAt(0)!)
  while (points.length) {
    let last = points.pop()! + 1
    if (last >= 0xd800 && last <= 0xdfff) last = 0xe000
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last)
  }
  return null
}

/**
 * "column equals prefix or starts with it" as a range, so an index on the column serves it.
 * PostgreSQL compares in the "C" collation (byte order), whatever the database's own collation.
 */
export function startsWithExact(dialect: Dialect, column: string, prefix: string): Expression<SqlBool> {
  return startsWithExpr(dialect, sql.ref(column), prefix)
}

/** startsWithExact for an expression of text (a column no index may serve, say). */
export function startsWithExpr(dialect: Dialect, expr: Expression<unknown>, prefix: string): Expression<SqlBool> {
  const ref = dialect === 'postgres' ? sql`${expr} collate "C"` : sql`${expr}`
  const upper = prefixUpperBound(prefix)
  return upper === null ? sql<SqlBool>`${ref} >= ${prefix}` : sql<SqlBool>`${ref} >= ${prefix} and ${ref} < ${upper}`
}

/**
 * Runs `read` so that PostgreSQL follows the indexes. Without statistics (a fresh or bulk-loaded
 * database, before autovacuum has analysed it) its planner would rather read a whole table
 * (sequential and parallel scans) or, unless `bitmaps`, a bitmap of every match, and sort. The
 * settings hold within one transaction only; SQLite runs `read` on `db` as it is.
 */
export function onIndexes<T>(db: Kysely<DB>, dialect: Dialect, bitmaps: boolean, read: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return read(db)
  return db.transaction().execute(async (tx) => {
    // one round trip for the three settings (set_config with true is SET LOCAL)
    await sql`select set_config('enable_seqscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
      set_config('enable_bitmapscan', ${bitmaps ? 'on' : 'off'}, true)`.execute(tx)
    return read(tx)
  })
}

/**
 * Whether a transaction must lock the rows it reads before writing what depends on them.
 * PostgreSQL runs writers side by side (SELECT … FOR UPDATE); SQLite has a single writer.
 */
export const locksRows = (dialect: Dialect): boolean => dialect === 'postgres'

/** How a statement written as text marks its parameters: `$1, $2, …` (pg) or `?` (node:sqlite). */
export type Placeholder = '$n' | '?'

/** `(…), (…)` for `rows` rows of `columns` parameters each, for a multi-row INSERT written as text. */
export function valueRows(rows: number, columns: number, style: Placeholder): string {
  const out: string[] = []
  for (let r = 0, n = 1; r < rows; r++) {
    const row: string[] = []
    for (let c = 0; c < columns; c++) row.push(style === '?' ? '?' : `$${n++}`)
    out.push(`(${row.join(', ')})`)
  }
  return out.join(', ')
}
