import { sql, type Expression, type SqlBool } from 'kysely'
import { z } from 'zod'
import type { Context } from 'hono'
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

/**
 * A page size from the call's own parameter (DESIGN §3): 10 when absent, blank or not positive
 * (as the family reads a negative page_size), an over-large one clamped to 100 rather than refused.
 */
export const pageSizeQuery = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce
    .number()
    .int()
    .min(-1e9)
    .max(1e9)
    .default(10)
    .transform((n) => (n < 1 ? 10 : Math.min(n, 100))),
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

/** True when a database error is a unique-constraint violation (either database). */
export function isUniqueViolation(e: unknown): boolean {
  return /unique|duplicate/i.test(String((e as { message?: string })?.message ?? e))
}
