import { Hono } from 'hono'
import { sql, type Selectable } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import type { TokensTable } from '../db/schema.ts'
import { fail, fields, nowSeconds, ok, readBody, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { randomKey, ROLE } from '../lib/users.ts'
import { bodyId, containsText, isUniqueViolation, pageSizeQuery, paramId, startsWithExact } from '../lib/query.ts'
import { QUOTA_MAX } from './users.ts'

export type TokenRow = Selectable<TokensTable>

export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const

/** Year 9999: anything later is a millisecond timestamp sent by mistake. */
const LATEST_SECOND = 253402300799
const SEARCH_LIMIT = 100

const modelLimits = z
  .string()
  .max(1024)
  .transform((s) =>
    [
      ...new Set(
        s
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    ].join(','),
  )
  .refine((s) => s.length <= 1024, 'must be at most 1024 characters')

const tokenFields = {
  name: z.string().trim().min(1).max(30),
  remain_quota: z.number().int().min(0).max(QUOTA_MAX),
  expired_time: z
    .number()
    .int()
    .min(-1)
    .max(LATEST_SECOND)
    .refine((v) => v === -1 || v > 0, 'must be -1 (never) or a time in unix seconds'),
  model_limits: modelLimits,
  model_limits_enabled: z.boolean(),
  unlimited_quota: z.boolean(),
}

const createBody = z.object({
  ...tokenFields,
  remain_quota: tokenFields.remain_quota.optional().default(0),
  expired_time: tokenFields.expired_time.optional().default(-1),
  model_limits: tokenFields.model_limits.optional().default(''),
  model_limits_enabled: tokenFields.model_limits_enabled.optional().default(false),
  unlimited_quota: tokenFields.unlimited_quota.optional().default(false),
})

const updateBody = z.object({
  id: bodyId,
  name: tokenFields.name.optional(),
  remain_quota: tokenFields.remain_quota.optional(),
  expired_time: tokenFields.expired_time.optional(),
  model_limits: tokenFields.model_limits.optional(),
  model_limits_enabled: tokenFields.model_limits_enabled.optional(),
  unlimited_quota: tokenFields.unlimited_quota.optional(),
})

const statusBody = z.object({
  id: bodyId,
  status: z.union([z.literal(TOKEN_STATUS.enabled), z.literal(TOKEN_STATUS.disabled)], { error: 'must be 1 (enabled) or 2 (disabled)' }),
})

/** What an enabled token really is now: expiry and exhaustion are applied lazily, when read. */
export function effectiveStatus(
  t: Pick<TokenRow, 'status' | 'expired_time' | 'unlimited_quota' | 'remain_quota'>,
  now = nowSeconds(),
): number {
  if (t.status !== TOKEN_STATUS.enabled) return t.status
  if (t.expired_time !== -1 && t.expired_time < now) return TOKEN_STATUS.expired
  if (!t.unlimited_quota && t.remain_quota <= 0) return TOKEN_STATUS.exhausted
  return t.status
}

/** The token on the wire: flags as booleans; the key without the sk- prefix (the client adds it). */
export function wireToken(t: TokenRow) {
  return { ...t, unlimited_quota: t.unlimited_quota === 1, model_limits_enabled: t.model_limits_enabled === 1 }
}

const EXPIRED_REFUSAL = 'the token has expired and cannot be enabled; change its expiry time or set it to never expire first'
const EXHAUSTED_REFUSAL = 'the token quota is used up and cannot be enabled; raise its remaining quota or make it unlimited first'

export function tokensRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const user = requireRole(ctx, ROLE.user)
  const db = ctx.db

  /**
   * Stores the expired/exhausted status of enabled tokens found past their limits. The CASE runs
   * on the row as it is at write time, so a concurrent top-up or edit is never overwritten.
   */
  async function settle(userId: number, ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map()
    const now = nowSeconds()
    const rows = await db
      .updateTable('tokens')
      .set({
        status: sql<number>`case when expired_time <> -1 and expired_time < ${now} then ${sql.lit(TOKEN_STATUS.expired)} else ${sql.lit(TOKEN_STATUS.exhausted)} end`,
      })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where('status', '=', TOKEN_STATUS.enabled)
      .where((eb) =>
        eb.or([
          eb.and([eb('expired_time', '<>', -1), eb('expired_time', '<', now)]),
          eb.and([eb('unlimited_quota', '=', 0), eb('remain_quota', '<=', 0)]),
        ]),
      )
      .returning(['id', 'status'])
      .execute()
    for (const r of rows) ctx.bus.emit('tokens', r.id)
    return new Map(rows.map((r) => [r.id, r.status]))
  }

  /** The rows as they should read now, storing any lazy status change first. */
  async function present(userId: number, rows: TokenRow[]) {
    const now = nowSeconds()
    const stale = rows.filter((t) => effectiveStatus(t, now) !== t.status).map((t) => t.id)
    const changed = await settle(userId, stale)
    return rows.map((t) => wireToken({ ...t, status: changed.get(t.id) ?? t.status }))
  }

  const own = (userId: number, id: number) =>
    db.selectFrom('tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()

  app.on('GET', ['/token/', '/token'], user, async (c) => {
    const { p, size } = readQuery(c, z.object({ p: fields.page, size: pageSizeQuery }))
    const me = c.get('user')
    const rows = await db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', me.id)
      .orderBy('id', 'desc')
      .limit(size)
      .offset(p * size)
      .execute()
    return ok(c, await present(me.id, rows))
  })

  app.get('/token/search', user, async (c) => {
    const q = readQuery(
      c,
      z.object({ keyword: z.string().trim().max(64).optional().default(''), token: z.string().trim().max(128).optional().default('') }),
    )
    const me = c.get('user')
    const key = q.token.replace(/^sk-/, '')
    let query = db.selectFrom('tokens').selectAll().where('user_id', '=', me.id)
    if (q.keyword) query = query.where(containsText('name', q.keyword))
    if (key) query = query.where(startsWithExact(ctx.database.dialect, 'key', key))
    const rows = await query.orderBy('id', 'desc').limit(SEARCH_LIMIT).execute()
    return ok(c, await present(me.id, rows))
  })

  app.get('/token/:id{[0-9]+}', user, async (c) => {
    const me = c.get('user')
    const t = await own(me.id, paramId(c))
    if (!t) return fail(c, 'token not found')
    return ok(c, (await present(me.id, [t]))[0])
  })

  app.on('POST', ['/token/', '/token'], user, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, createBody)
    const now = nowSeconds()
    const values = {
      user_id: me.id,
      name: body.name,
      created_time: now,
      accessed_time: now,
      expired_time: body.expired_time,
      remain_quota: body.remain_quota,
      unlimited_quota: body.unlimited_quota ? 1 : 0,
      model_limits_enabled: body.model_limits_enabled ? 1 : 0,
      model_limits: body.model_limits,
      group: '',
    }
    const status = effectiveStatus({ ...values, status: TOKEN_STATUS.enabled }, now)
    for (let attempt = 0; ; attempt++) {
      try {
        const created = await db
          .insertInto('tokens')
          .values({ ...values, key: randomKey(48), status })
          .returningAll()
          .executeTakeFirstOrThrow()
        ctx.bus.emit('tokens', created.id)
        return ok(c, wireToken(created), 'token created')
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= 2) throw e
      }
    }
  })

  app.on('PUT', ['/token/', '/token'], user, async (c) => {
    const me = c.get('user')
    const statusOnly = ['true', '1'].includes(c.req.query('status_only') ?? '')
    if (statusOnly) {
      const body = await readBody(c, statusBody)
      const now = nowSeconds()
      let update = db.updateTable('tokens').set({ status: body.status }).where('id', '=', body.id).where('user_id', '=', me.id)
      if (body.status === TOKEN_STATUS.enabled) {
        // The limits are checked in the same statement that enables, so no race can slip past them.
        update = update
          .where((eb) => eb.or([eb('expired_time', '=', -1), eb('expired_time', '>=', now)]))
          .where((eb) => eb.or([eb('unlimited_quota', '=', 1), eb('remain_quota', '>', 0)]))
      }
      const r = await update.executeTakeFirst()
      const t = await own(me.id, body.id)
      if (!t) return fail(c, 'token not found')
      if (Number(r.numUpdatedRows) !== 1) {
        if (t.expired_time !== -1 && t.expired_time < now) return fail(c, EXPIRED_REFUSAL)
        return fail(c, EXHAUSTED_REFUSAL)
      }
      ctx.bus.emit('tokens', t.id)
      return ok(c, wireToken(t), 'operation completed successfully')
    }

    const body = await readBody(c, updateBody)
    const changes: Partial<Omit<TokenRow, 'id'>> = {}
    if (body.name !== undefined) changes.name = body.name
    if (body.remain_quota !== undefined) changes.remain_quota = body.remain_quota
    if (body.expired_time !== undefined) changes.expired_time = body.expired_time
    if (body.model_limits !== undefined) changes.model_limits = body.model_limits
    if (body.model_limits_enabled !== undefined) changes.model_limits_enabled = body.model_limits_enabled ? 1 : 0
    if (body.unlimited_quota !== undefined) changes.unlimited_quota = body.unlimited_quota ? 1 : 0
    if (Object.keys(changes).length) {
      const r = await db.updateTable('tokens').set(changes).where('id', '=', body.id).where('user_id', '=', me.id).executeTakeFirst()
      if (Number(r.numUpdatedRows) !== 1) return fail(c, 'token not found')
    }
    const t = await own(me.id, body.id)
    if (!t) return fail(c, 'token not found')
    ctx.bus.emit('tokens', t.id)
    return ok(c, (await present(me.id, [t]))[0], 'token updated successfully')
  })

  app.on('DELETE', ['/token/:id{[0-9]+}/', '/token/:id{[0-9]+}'], user, async (c) => {
    const me = c.get('user')
    const id = paramId(c)
    const r = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', me.id).executeTakeFirst()
    if (Number(r.numDeletedRows) !== 1) return fail(c, 'token not found')
    ctx.bus.emit('tokens', id)
    return ok(c, null, 'token deleted')
  })

  return app
}
