import type { Context } from 'hono'
import { z } from 'zod'
import type { UserRow } from './lib/users.ts'
import type { AppContext } from './context.ts'
import { QUOTA_MAX } from '../domain/quota.ts'
import { isMessageKey, localeOf, render, text, type MessageKey, type Params, type Text } from './i18n/index.ts'

/** How the caller proved who they are (set by the session middleware). */
export interface Auth {
  kind: 'cookie' | 'embed' | 'token'
  sessionId?: string
}

export type Env = { Variables: { user: UserRow; requestId: string; ctx: AppContext; auth: Auth } }

/**
 * A message as routes write it: a catalogue key with its parameters, or (until every route has
 * moved to the catalogue) a literal English sentence.
 */
export type Message = Text | MessageKey | (string & {})

/**
 * A failure with an HTTP status (DESIGN §3): 401 not signed in, 403 role too low, 413 body too
 * large, 429 rate limited, 400 a body that is not JSON at all. Refusals of well-formed requests
 * are not ApiErrors: they are Refusals, answered HTTP 200 with success false.
 */
export class ApiError extends Error {
  status: 400 | 401 | 403 | 413 | 415 | 429 | 500 | 503
  text: Message
  field?: string
  constructor(status: ApiError['status'], message: Message, field?: string) {
    super(typeof message === 'string' ? message : message.key)
    this.status = status
    this.text = message
    this.field = field
  }
}

/**
 * A refused request (DESIGN §3, the family's convention): HTTP 200 `{success: false, message,
 * data}`, with `data: {field}` when one field is to blame. Thrown anywhere below a route; the
 * app's error handler writes it in the caller's language.
 */
export class Refusal extends Error {
  text: Message
  field?: string
  data?: unknown
  constructor(message: Message, opts: { field?: string; data?: unknown } = {}) {
    super(typeof message === 'string' ? message : message.key)
    this.text = message
    this.field = opts.field
    this.data = opts.data
  }
}

/** Throws a refusal: `refuse('token.notFound')`, `refuse(text('x', {n}), { field: 'name' })`. */
export function refuse(message: Message, opts: { field?: string; data?: unknown } = {}): never {
  throw new Refusal(message, opts)
}

/** A message in the caller's language. */
export function words(c: Context, message: Message, params?: Params): string {
  if (typeof message === 'string' && params) return render(localeOf(c), text(message as MessageKey, params))
  return render(localeOf(c), message)
}

export function ok(c: Context, data: unknown = null, message: Message = '') {
  return c.json({ success: true, message: message === '' ? '' : words(c, message), data })
}

const OK_ARRAY_HEAD = '{"success":true,"message":"","data":['

/**
 * A success whose data is JSON the database wrote already (a long list of buckets): an array given
 * as pieces of its members (each one or more members joined by commas, as text or as UTF-8 bytes),
 * written straight into one buffer, so no string of the whole answer is made.
 */
export function okJsonPieces(c: Context, pieces: ReadonlyArray<string | Buffer>) {
  let size = OK_ARRAY_HEAD.length + 2 + Math.max(0, pieces.length - 1)
  for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length
  const out = Buffer.allocUnsafe(size)
  let at = out.write(OK_ARRAY_HEAD, 0, 'latin1')
  for (let i = 0; i < pieces.length; i++) {
    if (i) out[at++] = 0x2c
    const p = pieces[i]!
    at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at)
  }
  out.write(']}', at, 'latin1')
  return c.body(out, 200, { 'content-type': 'application/json' })
}

export function fail(c: Context, message: Message, data: unknown = null) {
  return c.json({ success: false, message: words(c, message), data })
}

/** A zod issue as a message naming its field. A domain rule's problem travels in the issue's params. */
function describeIssue(issue: z.core.$ZodIssue): { field: string; message: Text } {
  const field = issue.path.map(String).join('.') || 'body'
  const carried = (issue as { params?: { text?: Text } }).params?.text
  if (carried) return { field, message: text(carried.key, { ...carried.params, field }) }
  switch (issue.code) {
    case 'invalid_type': {
      const named = `field.type.${issue.expected}`
      return { field, message: isMessageKey(named) ? text(named, { field }) : text('field.type', { field, expected: issue.expected }) }
    }
    case 'too_big':
      return { field, message: text(issue.origin === 'string' ? 'field.maxChars' : 'field.max', { field, max: String(issue.maximum) }) }
    case 'too_small':
      return { field, message: text(issue.origin === 'string' ? 'field.minChars' : 'field.min', { field, min: String(issue.minimum) }) }
    default:
      return { field, message: text('field.invalid', { field, detail: issue.message }) }
  }
}

/** Validates a value against a schema; a mismatch is refused, naming the first bad field. */
export function check<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const { field, message } = describeIssue(r.error.issues[0]!)
  throw new Refusal(message, { field })
}

/**
 * Refuses a query parameter holding a NUL character: no text column takes one (PostgreSQL
 * refuses the statement), so it is a refusal naming the parameter, never a 500.
 */
export function refuseNulQuery(c: Context): void {
  for (const [key, value] of new URL(c.req.url).searchParams) {
    if (key.includes('\0') || value.includes('\0')) refuse(text('field.nul', { field: key.replaceAll('\0', '') }), { field: key })
  }
}

/** Parses the JSON body and validates it; a body that is not JSON at all is a 400. */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown
  const body = await c.req.text()
  let nulIn = ''
  try {
    raw =
      body === ''
        ? {}
        : JSON.parse(body, (key: string, value: unknown) => {
            if (!nulIn && (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))))
              nulIn = key.replaceAll('\0', '') || 'body'
            return value
          })
  } catch {
    throw new ApiError(400, 'body.notJson', 'body')
  }
  if (nulIn) refuse(text('field.nul', { field: nulIn }), { field: nulIn })
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(400, 'body.notObject', 'body')
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

// ---- part 2 (channels, tokens, logs, data, tasks) -------------------------------------------------

/**
 * An optional field of spec §7 reads null as absent (DESIGN §3: the family's clients send
 * `null` for a field they leave out): `z.preprocess(nullIsAbsent, schema.optional())`.
 */
export const nullIsAbsent = (value: unknown): unknown => (value === null ? undefined : value)
