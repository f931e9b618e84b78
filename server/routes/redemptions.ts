import { Hono } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { fail, fields, nowSeconds, ok, readBody, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { randomKey } from '../lib/users.ts'
import { ROLE } from '../../domain/roles.ts'
import { bodyId, isUniqueViolation, paramId, startsWithText } from '../lib/query.ts'
import { problemText, rule } from '../lib/problems.ts'
import {
  REDEMPTION_DEFAULTS,
  redemptionCountProblem,
  redemptionNameProblem,
  redemptionQuotaProblem,
} from '../../domain/redemption-rules.ts'
import { LOG_TYPE, REDEMPTION_STATUS } from '../../domain/statuses.ts'
import { redeemCodeProblem } from '../../domain/wallet-rules.ts'

const PAGE = 10
const SEARCH_LIMIT = 100
const KEY_LENGTH = 32

const name = z.string().trim().superRefine(rule(redemptionNameProblem))
const quota = z.number().superRefine(rule(redemptionQuotaProblem))
const count = z.number().superRefine(rule(redemptionCountProblem))

const createBody = z.object({ name, quota, count: count.optional().default(REDEMPTION_DEFAULTS.count) })
const updateBody = z.object({ id: bodyId, name: name.optional(), quota: quota.optional() })
const statusBody = z.object({
  id: bodyId,
  status: z.union([z.literal(REDEMPTION_STATUS.unused), z.literal(REDEMPTION_STATUS.disabled)], {
    error: 'must be 1 (enabled) or 2 (disabled)',
  }),
})
const redeemBody = z.object({ key: z.string().trim().max(128) })

export function redemptionsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const db = ctx.db

  const byId = (id: number) => db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst()

  app.on('GET', ['/redemption/', '/redemption'], admin, async (c) => {
    const { p } = readQuery(c, z.object({ p: fields.page }))
    return ok(
      c,
      await db
        .selectFrom('redemptions')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(PAGE)
        .offset(p * PAGE)
        .execute(),
    )
  })

  app.get('/redemption/search', admin, async (c) => {
    const { keyword } = readQuery(c, z.object({ keyword: z.string().trim().max(64).optional().default('') }))
    let q = db.selectFrom('redemptions').selectAll()
    if (keyword) {
      q = q.where((eb) => {
        const any = [startsWithText('name', keyword)]
        if (/^\d{1,15}$/.test(keyword)) any.unshift(eb('id', '=', Number(keyword)))
        return eb.or(any)
      })
    }
    return ok(c, await q.orderBy('id', 'desc').limit(SEARCH_LIMIT).execute())
  })

  app.get('/redemption/:id{[0-9]+}', admin, async (c) => {
    const r = await byId(paramId(c))
    return r ? ok(c, r) : fail(c, 'redemption code not found')
  })

  app.on('POST', ['/redemption/', '/redemption'], admin, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, createBody)
    const now = nowSeconds()
    for (let attempt = 0; ; attempt++) {
      const keys = new Set<string>()
      while (keys.size < body.count) keys.add(randomKey(KEY_LENGTH))
      try {
        await db
          .insertInto('redemptions')
          .values(
            [...keys].map((key) => ({
              user_id: me.id,
              key,
              status: REDEMPTION_STATUS.unused,
              name: body.name,
              quota: body.quota,
              created_time: now,
            })),
          )
          .execute()
        return ok(c, [...keys], 'redemption codes created')
      } catch (e) {
        // One statement: a key collision inserts nothing, so a fresh batch can simply be tried.
        if (!isUniqueViolation(e) || attempt >= 2) throw e
      }
    }
  })

  app.on('PUT', ['/redemption/', '/redemption'], admin, async (c) => {
    const statusOnly = ['true', '1'].includes(c.req.query('status_only') ?? '')
    if (statusOnly) {
      const body = await readBody(c, statusBody)
      const r = await db
        .updateTable('redemptions')
        .set({ status: body.status })
        .where('id', '=', body.id)
        .where('status', '<>', REDEMPTION_STATUS.used)
        .executeTakeFirst()
      const row = await byId(body.id)
      if (!row) return fail(c, 'redemption code not found')
      if (Number(r.numUpdatedRows) !== 1) return fail(c, 'this redemption code has already been used; its status cannot change')
      return ok(c, row, 'redemption updated successfully')
    }
    const body = await readBody(c, updateBody)
    const changes: { name?: string; quota?: number } = {}
    if (body.name !== undefined) changes.name = body.name
    if (body.quota !== undefined) changes.quota = body.quota
    let updated = 1
    if (Object.keys(changes).length) {
      const r = await db
        .updateTable('redemptions')
        .set(changes)
        .where('id', '=', body.id)
        .where('status', '=', REDEMPTION_STATUS.unused)
        .executeTakeFirst()
      updated = Number(r.numUpdatedRows)
    }
    const row = await byId(body.id)
    if (!row) return fail(c, 'redemption code not found')
    if (updated !== 1 || row.status !== REDEMPTION_STATUS.unused) return fail(c, 'only an unused, enabled redemption code can be edited')
    return ok(c, row, 'redemption updated successfully')
  })

  app.on('DELETE', ['/redemption/:id{[0-9]+}/', '/redemption/:id{[0-9]+}'], admin, async (c) => {
    const r = await db.deleteFrom('redemptions').where('id', '=', paramId(c)).executeTakeFirst()
    if (Number(r.numDeletedRows) !== 1) return fail(c, 'redemption code not found')
    return ok(c, null, 'redemption code deleted')
  })

  app.post('/user/topup', user, async (c) => {
    const me = c.get('user')
    const { key } = await readBody(c, redeemBody)
    const missing = redeemCodeProblem(key)
    if (missing) return fail(c, problemText(missing))
    const now = nowSeconds()
    // The guarded UPDATE is the lock: of any number of concurrent calls exactly one sees a row change.
    const result = await db.transaction().execute(async (tx) => {
      const used = await tx
        .updateTable('redemptions')
        .set({ status: REDEMPTION_STATUS.used, used_user_id: me.id, redeemed_time: now })
        .where('key', '=', key)
        .where('status', '=', REDEMPTION_STATUS.unused)
        .returning(['id', 'quota'])
        .execute()
      if (used.length !== 1) return null
      const { id, quota: amount } = used[0]!
      await tx
        .updateTable('users')
        .set({ quota: sql`quota + ${amount}` })
        .where('id', '=', me.id)
        .execute()
      await tx
        .insertInto('logs')
        .values({
          user_id: me.id,
          username: me.username,
          created_at: now,
          type: LOG_TYPE.topup,
          content: `topped up ${amount} quota with redemption code id ${id}`,
        })
        .execute()
      return amount
    })
    if (result === null) {
      const row = await db.selectFrom('redemptions').select('status').where('key', '=', key).executeTakeFirst()
      if (!row) return fail(c, 'invalid redemption code')
      if (row.status === REDEMPTION_STATUS.disabled) return fail(c, 'this redemption code is disabled')
      return fail(c, 'this redemption code has already been used')
    }
    ctx.bus.emit('users', me.id)
    return ok(c, result, 'redeemed successfully')
  })

  return app
}
