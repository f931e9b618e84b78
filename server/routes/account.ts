import { Hono } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import bcrypt from 'bcryptjs'
import type { AppContext } from '../context.ts'
import { fail, fields, nowSeconds, ok, readBody, type Env } from '../http.ts'
import { clearSession, issueSession, requireRole } from '../middleware/session.ts'
import { rateLimit } from '../middleware/rate-limit.ts'
import { turnstileCheck } from '../middleware/turnstile.ts'
import { publicUser, randomAffCode, randomKey } from '../lib/users.ts'
import { DEFAULT_GROUP, ROLE, USER_STATUS } from '../../domain/roles.ts'
import { consumeVerificationCode } from '../lib/verification.ts'
import { problemText, rule } from '../lib/problems.ts'
import {
  credentialsProblem,
  DISPLAY_NAME_MAX,
  PASSWORD_MAX,
  passwordProblem,
  passwordsDifferProblem,
  transferProblem,
  USERNAME_MAX,
} from '../../domain/account-rules.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'

const username = z.string().trim().min(1).max(USERNAME_MAX)
const password = z.string().max(PASSWORD_MAX).superRefine(rule(passwordProblem))

const registerBody = z.object({
  username,
  password,
  password2: z.string().max(PASSWORD_MAX).optional(),
  email: z.string().trim().max(50).optional().default(''),
  verification_code: z.string().trim().max(16).optional().default(''),
  aff_code: z.string().trim().max(32).optional().default(''),
})

const loginBody = z.object({
  username: z.string().trim().max(64),
  password: z.string().max(128),
})

const selfBody = z.object({
  username: username.optional(),
  display_name: z.string().trim().max(DISPLAY_NAME_MAX).optional(),
  password: z.union([password, z.literal('')]).optional(),
})

export const hashPassword = (plain: string) => bcrypt.hash(plain, 10)

/** A fresh aff code nobody holds yet (4 characters, as the reference gateways use). */
async function freeAffCode(ctx: AppContext): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const code = i < 10 ? randomAffCode() : randomKey(8)
    const taken = await ctx.db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst()
    if (!taken) return code
  }
  return randomKey(16)
}

export function accountRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const o = ctx.options
  const critical = rateLimit(
    ctx.limiter,
    'critical',
    () => ctx.config.criticalRateLimit,
    () => ctx.config.criticalRateWindowSeconds,
  )
  const user = requireRole(ctx, ROLE.user)
  const turnstile = turnstileCheck(ctx)

  app.post('/user/register', critical, turnstile, async (c) => {
    if (!o.bool('RegisterEnabled')) return fail(c, 'new registrations are closed by the administrator')
    if (!o.bool('PasswordRegisterEnabled')) return fail(c, 'registration with a password is closed; use another sign-in method')
    const body = await readBody(c, registerBody)
    const differ = body.password2 === undefined ? null : passwordsDifferProblem(body.password, body.password2)
    if (differ) return fail(c, problemText(differ))
    if (o.bool('EmailVerificationEnabled')) {
      if (!body.email || !body.verification_code) return fail(c, 'e-mail address and verification code are required')
      if (!consumeVerificationCode('register', body.email, body.verification_code)) {
        return fail(c, 'the verification code is wrong or has expired')
      }
    }
    const exists = await ctx.db
      .selectFrom('users')
      .select('id')
      .where((eb) =>
        body.email ? eb.or([eb('username', '=', body.username), eb('email', '=', body.email)]) : eb('username', '=', body.username),
      )
      .executeTakeFirst()
    if (exists) return fail(c, 'the username (or e-mail) is already taken, or belongs to a cancelled account')

    const inviter = body.aff_code
      ? await ctx.db
          .selectFrom('users')
          .select(['id', 'username'])
          .where('aff_code', '=', body.aff_code)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined
    const forNew = Math.max(0, Math.trunc(o.num('QuotaForNewUser')))
    const forInvitee = inviter ? Math.max(0, Math.trunc(o.num('QuotaForInvitee'))) : 0
    const forInviter = inviter ? Math.max(0, Math.trunc(o.num('QuotaForInviter'))) : 0
    const hash = await hashPassword(body.password)
    const affCode = await freeAffCode(ctx)
    const now = nowSeconds()

    try {
      await ctx.db.transaction().execute(async (tx) => {
        const created = await tx
          .insertInto('users')
          .values({
            username: body.username,
            password: hash,
            display_name: body.username,
            role: ROLE.user,
            status: USER_STATUS.enabled,
            email: body.email,
            github_id: '',
            wechat_id: '',
            telegram_id: '',
            quota: forNew + forInvitee,
            used_quota: 0,
            request_count: 0,
            group: DEFAULT_GROUP,
            aff_code: affCode,
            aff_count: 0,
            aff_quota: 0,
            aff_history_quota: 0,
            inviter_id: inviter?.id ?? 0,
            created_time: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        const logs = []
        const log = (user_id: number, uname: string, content: string) => ({
          user_id,
          username: uname,
          created_at: now,
          type: LOG_TYPE.system,
          content,
        })
        if (forNew > 0) logs.push(log(created.id, body.username, `new user bonus: ${forNew} quota`))
        if (forInvitee > 0) logs.push(log(created.id, body.username, `invite code bonus: ${forInvitee} quota`))
        if (inviter) {
          await tx
            .updateTable('users')
            .set({
              aff_count: sql`aff_count + 1`,
              aff_quota: sql`aff_quota + ${forInviter}`,
              aff_history_quota: sql`aff_history_quota + ${forInviter}`,
            })
            .where('id', '=', inviter.id)
            .execute()
          if (forInviter > 0) logs.push(log(inviter.id, inviter.username, `invited ${body.username}: ${forInviter} invite quota`))
        }
        if (logs.length) await tx.insertInto('logs').values(logs).execute()
      })
    } catch (e) {
      if (/unique|duplicate/i.test(String(e)))
        return fail(c, 'the username (or e-mail) is already taken, or belongs to a cancelled account')
      throw e
    }
    if (inviter) ctx.bus.emit('users', inviter.id)
    return ok(c, null, 'registered')
  })

  app.post('/user/login', critical, turnstile, async (c) => {
    if (!o.bool('PasswordLoginEnabled')) return fail(c, 'password login is turned off by the administrator; use another sign-in method')
    const body = await readBody(c, loginBody)
    const missing = credentialsProblem(body.username, body.password)
    if (missing) return fail(c, problemText(missing))
    const found = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('username', '=', body.username), eb.and([eb('email', '=', body.username), eb('email', '!=', '')])]))
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    const good = found ? await bcrypt.compare(body.password, found.password) : false
    if (!found || !good || found.status !== USER_STATUS.enabled) {
      return fail(c, 'wrong username or password, or the user has been banned')
    }
    issueSession(c, ctx.config.sessionSecret, found.id)
    return ok(c, publicUser(found), 'logged in')
  })

  app.get('/user/logout', (c) => {
    clearSession(c)
    return ok(c, null, 'logged out')
  })

  app.get('/user/self', user, async (c) => ok(c, publicUser(c.get('user'))))

  app.put('/user/self', user, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, selfBody)
    const changes: { username?: string; display_name?: string; password?: string } = {}
    if (body.username !== undefined && body.username !== me.username) {
      const taken = await ctx.db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirst()
      if (taken) return fail(c, 'the username is already taken')
      changes.username = body.username
    }
    if (body.display_name !== undefined) changes.display_name = body.display_name
    if (body.password) changes.password = await hashPassword(body.password)
    if (Object.keys(changes).length === 0) return ok(c, publicUser(me), 'nothing changed')
    await ctx.db.updateTable('users').set(changes).where('id', '=', me.id).execute()
    const updated = await ctx.db.selectFrom('users').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow()
    ctx.bus.emit('users', me.id)
    return ok(c, publicUser(updated), body.password ? 'password changed' : 'user info updated')
  })

  app.delete('/user/self', user, async (c) => {
    const me = c.get('user')
    if (me.role >= ROLE.root) return fail(c, 'the super administrator account cannot be deleted')
    await ctx.db.updateTable('users').set({ deleted_at: nowSeconds(), access_token: null }).where('id', '=', me.id).execute()
    ctx.bus.emit('users', me.id)
    ctx.bus.emit('tokens')
    clearSession(c)
    return ok(c, null, 'account deleted')
  })

  app.get('/user/token', user, async (c) => {
    const token = randomKey(32)
    await ctx.db.updateTable('users').set({ access_token: token }).where('id', '=', c.get('user').id).execute()
    return ok(c, token)
  })

  app.get('/user/aff', user, async (c) => {
    const me = c.get('user')
    if (me.aff_code) return ok(c, me.aff_code)
    const code = await freeAffCode(ctx)
    await ctx.db.updateTable('users').set({ aff_code: code }).where('id', '=', me.id).execute()
    return ok(c, code)
  })

  app.post('/user/aff_transfer', user, async (c) => {
    const { quota } = await readBody(c, z.object({ quota: fields.quota }))
    const small = transferProblem(quota, o.quotaPerUnit)
    if (small) return fail(c, problemText(small))
    const me = c.get('user')
    const r = await ctx.db
      .updateTable('users')
      .set({ aff_quota: sql`aff_quota - ${quota}`, quota: sql`quota + ${quota}` })
      .where('id', '=', me.id)
      .where('aff_quota', '>=', quota)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) return fail(c, 'not enough invite quota to transfer')
    ctx.bus.emit('users', me.id)
    return ok(c, null, 'transferred')
  })

  app.get('/user/models', user, async (c) => {
    const rows = await ctx.db
      .selectFrom('abilities')
      .select('model')
      .distinct()
      .where('group', '=', c.get('user').group)
      .where('enabled', '=', 1)
      .orderBy('model')
      .execute()
    return ok(
      c,
      rows.map((r) => r.model),
    )
  })

  return app
}
