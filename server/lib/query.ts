import { sql, type Expression, type SqlBool } from 'kysely'
import { z } from 'zod'
import type { Context } from 'hono'
import type { Dialect } from '../db/index.ts'
import { check, fields } from '../http.ts'

/** An id in a JSON body: a real integer, never a string or boolean coerced into one. */
export const bodyId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)

/** The `:id` route parameter as a safe integer; anything else is a 400 naming `id`. */
export function paramId(c: Context): number {
  return check(z.object({ id: fields.id }), { id: c.req.param('id') }).id
}

/** An optional query-string integer within bounds; an empty value counts as absent. */
export function queryInt(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .optional(),
  )
}

/** A page size from the query: default 10, an over-large one clamped to 100 rather than refused. */
export const pageSizeQuery = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce
    .number()
    .int()
    .min(1)
    .max(1e9)
    .default(10)
    .transform((n) => Math.min(n, 100)),
)

/** `text` as a LIKE pattern that matches it literally (wildcards escaped with a backslash). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`)
}

/** Case-insensitive "column contains text", the same on SQLite and PostgreSQL. */
export function containsText(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`
}

/** Case-insensitive "column starts with text". */
export function startsWithText(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`${escapeLike(text.toLowerCase())}%`} escape '\\'`
}

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
  const ref = dialect === 'postgres' ? sql`${sql.ref(column)} collate "C"` : sql.ref(column)
  const upper = prefixUpperBound(prefix)
  return upper === null ? sql<SqlBool>`${ref} >= ${prefix}` : sql<SqlBool>`${ref} >= ${prefix} and ${ref} < ${upper}`
}

/** True when a database error is a unique-constraint violation (either database). */
export function isUniqueViolation(e: unknown): boolean {
  return /unique|duplicate/i.test(String((e as { message?: string })?.message ?? e))
}
