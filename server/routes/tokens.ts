import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import {
  deleteToken,
  findToken,
  insertToken,
  listTokens,
  searchTokens,
  setTokenStatus,
  storeReachedLimits,
  updateToken,
  type TokenChanges,
  type TokenRow,
} from '../db/tokens.ts'
import { fail, fields, nowSeconds, nullIsAbsent, ok, readBody, readQuery, refuse, type Env } from '../http.ts'
import { text } from '../i18n/index.ts'
import { requireRole } from '../middleware/session.ts'
import { problemText, rule } from '../lib/problems.ts'
import { bodyId, pageSizeQuery, paramId } from '../lib/query.ts'
import { splitList } from '../../domain/text.ts'
import { ROLE } from '../../domain/roles.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import {
  effectiveTokenStatus,
  expiryProblem,
  modelLimitsChosenProblem,
  modelLimitsProblem,
  NEVER_EXPIRES,
  remainQuotaProblem,
  tokenNameProblem,
} from '../../domain/token-rules.ts'

const SEARCH_LIMIT = 100

/** An optional field: null and absence alike leave it out (or give it its default). */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(nullIsAbsent, schema.optional())
const withDefault = <T extends z.ZodType>(schema: T, value: z.output<T>) =>
  z.preprocess(
    nullIsAbsent,
    schema.optional().transform((v) => (v === undefined ? value : v)),
  )

const tokenFields = {
  name: z.string().trim().superRefine(rule(tokenNameProblem)),
  remain_quota: z.number().superRefine(rule(remainQuotaProblem)),
  expired_time: z.number().superRefine(rule(expiryProblem)),
  // the limit applies to the text as sent; cleaning (trimmed, no blanks, no repeats) only shortens it
  model_limits: z
    .string()
    .superRefine(rule(modelLimitsProblem))
    .transform((s) => splitList(s).join(',')),
  model_limits_enabled: z.boolean(),
  unlimited_quota: z.boolean(),
}

const createBody = z.object({
  // required: a missing or null name is refused as the token form's rule says
  name: z.preprocess((v) => v ?? '', tokenFields.name),
  remain_quota: withDefault(tokenFields.remain_quota, 0),
  expired_time: withDefault(tokenFields.expired_time, NEVER_EXPIRES),
  model_limits: withDefault(tokenFields.model_limits, ''),
  model_limits_enabled: withDefault(tokenFields.model_limits_enabled, false),
  unlimited_quota: withDefault(tokenFields.unlimited_quota, false),
})

const updateBody = z.object({
  id: bodyId,
  name: optional(tokenFields.name),
  remain_quota: optional(tokenFields.remain_quota),
  expired_time: optional(tokenFields.expired_time),
  model_limits: optional(tokenFields.model_limits),
  model_limits_enabled: optional(tokenFields.model_limits_enabled),
  unlimited_quota: optional(tokenFields.unlimited_quota),
})

const statusBody = z.object({ id: bodyId, status: z.number() })

const listQuery = z.object({ p: fields.page, size: pageSizeQuery })

const searchQuery = z.object({
  keyword: z.string().trim().max(64).optional().default(''),
  token: z.string().trim().max(128).optional().default(''),
})

/** The token on the wire: flags as booleans; the key without the sk- prefix (the client adds it). */
export function wireToken(t: TokenRow) {
  return { ...t, unlimited_quota: t.unlimited_quota === 1, model_limits_enabled: t.model_limits_enabled === 1 }
}

/** The columns an update body changes (flags stored as 0/1). */
function tokenChanges(body: z.infer<typeof updateBody>): TokenChanges {
  const { id: _id, model_limits_enabled, unlimited_quota, ...plain } = body
  const changes: TokenChanges = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined))
  if (model_limits_enabled !== undefined) changes.model_limits_enabled = model_limits_enabled ? 1 : 0
  if (unlimited_quota !== undefined) changes.unlimited_quota = unlimited_quota ? 1 : 0
  return changes
}

const me = (c: Context<Env>) => c.get('user').id

/** Model limits that are on must name a model (the relay would refuse every call of the token). */
function requireChosenModels(enabled: boolean, limits: string): void {
  const p = modelLimitsChosenProblem(enabled, limits)
  if (p) refuse(problemText(p), { field: 'model_limits' })
}

/** The rows as they read now: an expiry or exhaustion reached since is stored first (and told to the relay). */
async function present(ctx: AppContext, userId: number, rows: TokenRow[]) {
  const now = nowSeconds()
  const stale = rows.filter((t) => effectiveTokenStatus(t, now) !== t.status).map((t) => t.id)
  const changed = await storeReachedLimits(ctx.db, userId, stale, now)
  for (const id of changed.keys()) ctx.bus.emit('tokens', id)
  return rows.map((t) => wireToken({ ...t, status: changed.get(t.id) ?? t.status }))
}

/** PUT ?status_only=true: enable (1) or disable (2); an expired or used-up token is not enabled. */
async function changeStatus(ctx: AppContext, c: Context<Env>) {
  const body = await readBody(c, statusBody)
  if (body.status !== TOKEN_STATUS.enabled && body.status !== TOKEN_STATUS.disabled) {
    refuse(text('token.statusInvalid', { field: 'status' }), { field: 'status' })
  }
  const now = nowSeconds()
  const r = await setTokenStatus(ctx.db, me(c), body.id, body.status, now)
  if (!r) return fail(c, 'token.notFound')
  if (!r.written) {
    const reached = effectiveTokenStatus({ ...r.row, status: TOKEN_STATUS.enabled }, now)
    return fail(c, reached === TOKEN_STATUS.expired ? 'token.expiredCannotEnable' : 'token.exhaustedCannotEnable')
  }
  ctx.bus.emit('tokens', r.row.id)
  return ok(c, wireToken(r.row), 'token.statusChanged')
}

/** Tokens (API keys) of the signed-in user: every call sees and changes only the caller's own. */
export function tokensRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx

  app.on('GET', ['/token/', '/token'], user, async (c) => {
    const { p, size } = readQuery(c, listQuery)
    return ok(c, await present(ctx, me(c), await listTokens(db, me(c), p, size)))
  })

  app.get('/token/search', user, async (c) => {
    const q = readQuery(c, searchQuery)
    const rows = await searchTokens(ctx.database, me(c), { name: q.keyword, keyPrefix: q.token.replace(/^sk-/, '') }, SEARCH_LIMIT)
    return ok(c, await present(ctx, me(c), rows))
  })

  app.get('/token/:id{[0-9]+}', user, async (c) => {
    const t = await findToken(db, me(c), paramId(c))
    return t ? ok(c, (await present(ctx, me(c), [t]))[0]) : fail(c, 'token.notFound')
  })

  app.on('POST', ['/token/', '/token'], user, async (c) => {
    const { unlimited_quota, model_limits_enabled, ...body } = await readBody(c, createBody)
    requireChosenModels(model_limits_enabled, body.model_limits)
    const now = nowSeconds()
    const flags = { unlimited_quota: unlimited_quota ? 1 : 0, model_limits_enabled: model_limits_enabled ? 1 : 0 }
    const values = { ...body, ...flags, user_id: me(c), created_time: now, accessed_time: now, group: '' }
    const created = await insertToken(db, values, now)
    ctx.bus.emit('tokens', created.id)
    return ok(c, wireToken(created), 'token.created')
  })

  app.on('PUT', ['/token/', '/token'], user, async (c) => {
    if (['true', '1'].includes(c.req.query('status_only') ?? '')) return changeStatus(ctx, c)
    const body = await readBody(c, updateBody)
    if (body.model_limits_enabled !== undefined || body.model_limits !== undefined) {
      // a field the body leaves out keeps its stored value
      const stored =
        body.model_limits_enabled === undefined || body.model_limits === undefined ? await findToken(db, me(c), body.id) : undefined
      if (!stored && (body.model_limits_enabled === undefined || body.model_limits === undefined)) return fail(c, 'token.notFound')
      requireChosenModels(body.model_limits_enabled ?? stored?.model_limits_enabled === 1, body.model_limits ?? stored?.model_limits ?? '')
    }
    const t = await updateToken(db, me(c), body.id, tokenChanges(body))
    if (!t) return fail(c, 'token.notFound')
    ctx.bus.emit('tokens', t.id)
    return ok(c, (await present(ctx, me(c), [t]))[0], 'token.updated')
  })

  app.on('DELETE', ['/token/:id{[0-9]+}/', '/token/:id{[0-9]+}'], user, async (c) => {
    const id = paramId(c)
    if (!(await deleteToken(db, me(c), id))) return fail(c, 'token.notFound')
    ctx.bus.emit('tokens', id)
    return ok(c, null, 'token.deleted')
  })

  return app
}
