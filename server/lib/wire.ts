/** Wire shapes the account-side routes share (spec section 7, DESIGN §3). */
import { z } from 'zod'
import { fields, nullIsAbsent } from '../http.ts'
import { pageSizeQuery } from './query.ts'

/**
 * An optional field: null reads as absent, so the schema's own `.optional()` or `.default()`
 * covers both (the family's clients send `aff_code: null`).
 */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(nullIsAbsent, schema)
}

/**
 * Paging of the user and redemption lists: `p` from 0, the size from `page_size` (or `size`),
 * default 10, at most 100.
 */
export const pagingQuery = z
  .object({ p: fields.page, page_size: pageSizeQuery.optional(), size: pageSizeQuery.optional() })
  .transform((q) => ({ page: q.p, size: q.page_size ?? q.size ?? 10 }))
