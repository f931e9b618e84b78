import { Hono } from 'hono'
import { sql, type Selectable } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import type { TokensTable } from '../db/schema.ts'
import { fail, fields, nowSeconds, ok, readBody, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { randomKey } from '../lib/users.ts'
import { rule } from '../lib/problems.ts'
import { bodyId, containsText, isUniqueViolation, pageSizeQuery, paramId, startsWithExact } from '../lib/query.ts'
import { splitList } from '../../domain/text.ts'
import { ROLE } from '../../domain/roles.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import {
  effectiveTokenStatus,
  expiryProblem,
  modelLimitsProblem,
  NEVER_EXPIRES,
  remainQuotaProblem,
  tokenLimitSql,
  tokenNameProblem,
} from '../../domain/token-rules.ts'

export type TokenRow = Selectable<TokensTable>

const SEARCH_LIMIT = 100

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
  ...tokenFields,
  remain_quota: tokenFields.remain_quota.optional().default(0),
  expired_time: tokenFields.expired_time.optional().default(NEVER_EXPIRES),
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
    const limit = tokenLimitSql(nowSeconds())
    const rows = await db
      .updateTable('tokens')
      .set({
        status: sql<number>`case when ${sql.raw(limit.expired)} then ${sql.lit(TOKEN_STATUS.expired)} else ${sql.lit(TOKEN_STATUS.exhausted)} end`,
      })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where('status', '=', TOKEN_STATUS.enabled)
      .where(sql<boolean>`(${sql.raw(limit.expired)}) or (${sql.raw(limit.exhausted)})`)
      .returning(['id', 'status'])
      .execute()
    for (const r of rows) ctx.bus.emit('tokens', r.id)
    return new Map(rows.map((r) => [r.id, r.status]))
  }

  /** The rows as they should read now, storing any lazy status change first. */
  async function present(userId: number, rows: TokenRow[]) {
    const now = nowSeconds()
    const stale = rows.filter((t) => effectiveTokenStatus(t, now) !== t.status).map((t) => t.id)
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
    const status = effectiveTokenStatus({ ...values, status: TOKEN_STATUS.enabled }, now)
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
        const limit = tokenLimitSql(now)
        update = update.where(sql<boolean>`not (${sql.raw(limit.expired)}) and not (${sql.raw(limit.exhausted)})`)
      }
      const r = await update.executeTakeFirst()
      const t = await own(me.id, body.id)
      if (!t) return fail(c, 'token not found')
      if (Number(r.numUpdatedRows) !== 1) {
        return fail(
          c,
          effectiveTokenStatus({ ...t, status: TOKEN_STATUS.enabled }, now) === TOKEN_STATUS.expired ? EXPIRED_REFUSAL : EXHAUSTED_REFUSAL,
        )
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
