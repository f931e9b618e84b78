/** Redemption codes (spec section 7): the administrators' list and edits, and the wallet's redeem. */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { nowSeconds, ok, readBody, readQuery, refuse, type Env } from '../http.ts'
import { optional, pagingQuery } from '../lib/wire.ts'
import { requireRole } from '../middleware/session.ts'
import { randomKey } from '../lib/users.ts'
import { bodyId, isUniqueViolation, paramId } from '../lib/query.ts'
import { must, problemText, rule } from '../lib/problems.ts'
import {
  deleteRedemption,
  editRedemption,
  findRedemption,
  insertRedemptions,
  listRedemptions,
  redeemCode,
  searchRedemptions,
  setRedemptionStatus,
  type CodeChange,
} from '../db/redemptions.ts'
import { ROLE } from '../../domain/roles.ts'
import {
  REDEMPTION_DEFAULTS,
  redemptionCountProblem,
  redemptionNameProblem,
  redemptionQuotaProblem,
} from '../../domain/redemption-rules.ts'
import { REDEMPTION_STATUS } from '../../domain/statuses.ts'
import { redeemCodeProblem } from '../../domain/wallet-rules.ts'

const SEARCH_LIMIT = 100
const KEY_LENGTH = 32

const name = z.string().trim().superRefine(rule(redemptionNameProblem))
const quota = z.number().superRefine(rule(redemptionQuotaProblem))
const count = z.number().superRefine(rule(redemptionCountProblem))
const settable = [REDEMPTION_STATUS.unused, REDEMPTION_STATUS.disabled] as number[]

const createBody = z.object({ name, quota, count: optional(count.default(REDEMPTION_DEFAULTS.count)) })
const updateBody = z.object({ id: bodyId, name: optional(name.optional()), quota: optional(quota.optional()) })
const statusBody = z.object({
  id: bodyId,
  status: z.unknown().superRefine(must((s: unknown) => typeof s === 'number' && settable.includes(s), 'redemption.statusValue')),
})
const redeemBody = z.object({ key: z.string().trim().max(128) })

type C = Context<Env>

/** The answer to an edit: the code as it now is, or why it did not change. */
function answerChange(c: C, change: CodeChange) {
  if ('row' in change) return ok(c, change.row, 'redemption.updated')
  if (change.refused === 'missing') refuse('redemption.notFound')
  refuse(change.refused === 'used' ? 'redemption.usedKeepsStatus' : 'redemption.onlyUnusedEditable')
}

async function createCodes(c: C) {
  const { db } = c.get('ctx')
  const body = await readBody(c, createBody)
  const batch = { name: body.name, quota: body.quota, userId: c.get('user').id, at: nowSeconds() }
  for (let attempt = 0; ; attempt++) {
    const keys = new Set<string>()
    while (keys.size < body.count) keys.add(randomKey(KEY_LENGTH))
    try {
      await insertRedemptions(db, { ...batch, keys: [...keys] })
      return ok(c, [...keys], 'redemption.created')
    } catch (e) {
      // One statement: a key collision inserts nothing, so a fresh batch can simply be tried.
      if (!isUniqueViolation(e) || attempt >= 2) throw e
    }
  }
}

async function editCode(c: C) {
  const { db } = c.get('ctx')
  if (['true', '1'].includes(c.req.query('status_only') ?? '')) {
    const body = await readBody(c, statusBody)
    return answerChange(c, await setRedemptionStatus(db, body.id, body.status as number))
  }
  const body = await readBody(c, updateBody)
  const changes: { name?: string; quota?: number } = {}
  if (body.name !== undefined) changes.name = body.name
  if (body.quota !== undefined) changes.quota = body.quota
  return answerChange(c, await editRedemption(db, body.id, changes))
}

async function redeem(c: C) {
  const { db, bus } = c.get('ctx')
  const me = c.get('user')
  const { key } = await readBody(c, redeemBody)
  const missing = redeemCodeProblem(key)
  if (missing) refuse(problemText(missing))
  const result = await redeemCode(db, me, key, nowSeconds())
  if ('refused' in result) refuse(`redemption.${result.refused}`)
  bus.emit('users', me.id)
  return ok(c, result.quota, 'redemption.redeemed')
}

export function redemptionsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)

  app.on('GET', ['/redemption/', '/redemption'], admin, async (c) => {
    const { page, size } = readQuery(c, pagingQuery)
    return ok(c, await listRedemptions(ctx.db, page, size))
  })
  app.get('/redemption/search', admin, async (c) => {
    const { keyword } = readQuery(c, z.object({ keyword: optional(z.string().trim().max(64).default('')) }))
    return ok(c, await searchRedemptions(ctx.db, keyword, SEARCH_LIMIT))
  })
  app.get('/redemption/:id{[0-9]+}', admin, async (c) => {
    const row = await findRedemption(ctx.db, paramId(c))
    return row ? ok(c, row) : refuse('redemption.notFound')
  })
  app.on('POST', ['/redemption/', '/redemption'], admin, createCodes)
  app.on('PUT', ['/redemption/', '/redemption'], admin, editCode)
  app.on('DELETE', ['/redemption/:id{[0-9]+}/', '/redemption/:id{[0-9]+}'], admin, async (c) => {
    if (!(await deleteRedemption(ctx.db, paramId(c)))) refuse('redemption.notFound')
    return ok(c, null, 'redemption.deleted')
  })
  app.post('/user/topup', user, redeem)
  return app
}
