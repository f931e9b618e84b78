import type { Context } from 'hono'
import { z } from 'zod'
import type { UserRow } from './lib/users.ts'
import type { AppContext } from './context.ts'
import { QUOTA_MAX } from '../domain/quota.ts'

export type Env = { Variables: { user: UserRow; requestId: string; ctx: AppContext } }

/** A failure with an HTTP status: 400 bad input (naming the field), 401, 403, 404, 429. */
export class ApiError extends Error {
  status: 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503
  field?: string
  constructor(status: ApiError['status'], message: string, field?: string) {
    super(message)
    this.status = status
    this.field = field
  }
}

/** A business failure: HTTP 200 with success false, as the spec's envelope expects. */
export class Refusal extends Error {}

export function ok(c: Context, data: unknown = null, message = '') {
  return c.json({ success: true, message, data })
}

export function fail(c: Context, message: string, data: unknown = null) {
  return c.json({ success: false, message, data })
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string } {
  const field = issue.path.map(String).join('.') || 'body'
  let message = issue.message
  if (issue.code === 'invalid_type') message = `must be ${issue.expected}`
  else if (issue.code === 'too_big')
    message = issue.origin === 'string' ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`
  else if (issue.code === 'too_small')
    message = issue.origin === 'string' ? `must be at least ${issue.minimum} characters` : `must be at least ${issue.minimum}`
  return { field, message: `${field} ${message}` }
}

/** Validates a value against a schema; a mismatch is a 400 naming the first bad field. */
export function check<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const { field, message } = describeIssue(r.error.issues[0]!)
  throw new ApiError(400, message, field)
}

/** Parses the JSON body and validates it; malformed JSON is a 400 too. */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown
  const text = await c.req.text()
  try {
    raw = text === '' ? {} : JSON.parse(text)
  } catch {
    throw new ApiError(400, 'request body is not valid JSON', 'body')
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(400, 'request body must be a JSON object', 'body')
  return check(schema, raw)
}

/** Validates query parameters (all strings on the wire; use z.coerce in the schema). */
export function readQuery<T>(c: Context, schema: z.ZodType<T>): T {
  return check(schema, c.req.query())
}

/** Reusable field schemas. Ids and quota are safe integers; strings have sane bounds. */
export const fields = {
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  quota: z.number().int().min(-QUOTA_MAX).max(QUOTA_MAX),
  page: z.coerce.number().int().min(0).max(1e9).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}
