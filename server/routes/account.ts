/** The own account (spec section 7, auth and account): registration, sign-in, profile, invites. */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import bcrypt from 'bcryptjs'
import type { AppContext } from '../context.ts'
import { ApiError, fields, nowSeconds, ok, readBody, refuse, type Env } from '../http.ts'
import { optional } from '../lib/wire.ts'
import { endSession, endUserSessions, hashAccessToken, requireRole, startSession } from '../middleware/session.ts'
import { clientAddress, criticalRateLimit } from '../middleware/rate-limit.ts'
import { loginGuardOf } from '../lib/login-guard.ts'
import { text } from '../i18n/index.ts'
import { turnstileCheck } from '../middleware/turnstile.ts'
import { hashPassword, publicUser, randomKey } from '../lib/users.ts'
import { freeAffCode, giftsOf, openAccount, refuseOnUnique } from '../lib/accounts.ts'
import { consumeVerificationCode } from '../lib/verification.ts'
import { problemText, rule } from '../lib/problems.ts'
import {
  cancelUser,
  findInviter,
  findUserBySignInName,
  findUserByUsername,
  moveInviteQuota,
  updateUser,
  usernameTaken,
  type UserChanges,
} from '../db/users.ts'
import { modelsOfGroup } from '../db/abilities.ts'
import { ROLE, USER_STATUS } from '../../domain/roles.ts'
import {
  credentialsProblem,
  DISPLAY_NAME_MAX,
  PASSWORD_MAX,
  passwordProblem,
  passwordsDifferProblem,
  transferProblem,
  USERNAME_MAX,
} from '../../domain/account-rules.ts'

const username = z.string().trim().min(1).max(USERNAME_MAX)
const password = z.string().max(PASSWORD_MAX).superRefine(rule(passwordProblem))

const registerBody = z.object({
  username,
  password,
  password2: optional(z.string().max(PASSWORD_MAX).optional()),
  email: optional(z.string().trim().max(50).default('')),
  verification_code: optional(z.string().trim().max(16).default('')),
  aff_code: optional(z.string().trim().max(32).default('')),
})

const loginBody = z.object({
  username: z.string().trim().max(64),
  password: z.string().max(128),
})

const selfBody = z.object({
  username: optional(username.optional()),
  display_name: optional(z.string().trim().max(DISPLAY_NAME_MAX).optional()),
  password: optional(z.union([password, z.literal('')]).optional()),
})

type C = Context<Env>

async function register(c: C) {
  const { db, options: o, bus } = c.get('ctx')
  if (!o.bool('RegisterEnabled')) refuse('account.registerClosed')
  if (!o.bool('PasswordRegisterEnabled')) refuse('account.passwordRegisterClosed')
  const body = await readBody(c, registerBody)
  const differ = body.password2 === undefined ? null : passwordsDifferProblem(body.password, body.password2)
  if (differ) refuse(problemText(differ))
  if (o.bool('EmailVerificationEnabled')) {
    if (!body.email || !body.verification_code) refuse('account.emailAndCodeRequired')
    if (!(await consumeVerificationCode(db, 'register', body.email, body.verification_code))) refuse('account.codeWrong')
  }
  if (await usernameTaken(db, body.username, body.email)) refuse('account.nameOrEmailTaken')
  const inviter = body.aff_code ? await findInviter(db, body.aff_code) : undefined
  const user = {
    username: body.username,
    password: await hashPassword(body.password),
    display_name: body.username,
    role: ROLE.user,
    email: body.email,
    aff_code: await freeAffCode(db),
    created_time: nowSeconds(),
  }
  await openAccount(db, user, giftsOf(o, inviter !== undefined), inviter).catch(refuseOnUnique('account.nameOrEmailTaken'))
  if (inviter) bus.emit('users', inviter.id)
  return ok(c, null, 'account.registered')
}

async function login(c: C) {
  const { db, options } = c.get('ctx')
  if (!options.bool('PasswordLoginEnabled')) refuse('account.passwordLoginOff')
  const body = await readBody(c, loginBody)
  const missing = credentialsProblem(body.username, body.password)
  if (missing) refuse(problemText(missing))
  const guard = loginGuardOf(c.get('ctx'))
  const address = clientAddress(c)
  const wait = await guard.waitFor(body.username, address)
  if (wait > 0) throw new ApiError(429, text('rate.loginWait', { seconds: wait }))
  const found = await findUserBySignInName(db, body.username)
  const good = found ? await bcrypt.compare(body.password, found.password) : false
  if (!found || !good) await guard.failed(body.username, address)
  if (!found || !good || found.status !== USER_STATUS.enabled) refuse('account.wrongCredentials')
  await guard.succeeded(body.username)
  return ok(c, { ...publicUser(found), ...(await startSession(c, found.id)) }, 'account.loggedIn')
}

async function updateSelf(c: C) {
  const { db, bus } = c.get('ctx')
  const me = c.get('user')
  const body = await readBody(c, selfBody)
  const changes: UserChanges = {}
  if (body.username !== undefined && body.username !== me.username) {
    if (await findUserByUsername(db, body.username)) refuse('account.usernameTaken')
    changes.username = body.username
  }
  if (body.display_name !== undefined) changes.display_name = body.display_name
  if (body.password) changes.password = await hashPassword(body.password)
  if (Object.keys(changes).length === 0) return ok(c, publicUser(me), 'account.nothingChanged')
  const updated = await updateUser(db, me.id, changes).catch(refuseOnUnique('account.usernameTaken'))
  if (changes.password) await endOtherSessions(c)
  bus.emit('users', me.id)
  return ok(c, publicUser(updated), body.password ? 'account.passwordChanged' : 'account.infoUpdated')
}

/** After an own password change every other session ends; the one that changed it stays signed in. */
const endOtherSessions = (c: C) => endUserSessions(c.get('ctx'), c.get('user').id, c.get('auth').sessionId)

async function deleteSelf(c: C) {
  const { db, bus } = c.get('ctx')
  const me = c.get('user')
  if (me.role >= ROLE.root) refuse('account.rootUndeletable')
  await cancelUser(db, me.id, nowSeconds())
  bus.emit('users', me.id)
  bus.emit('tokens')
  await endUserSessions(c.get('ctx'), me.id)
  await endSession(c)
  return ok(c, null, 'account.deleted')
}

/** A new system access token (the old one stops working), shown this once. */
async function newAccessToken(c: C) {
  const token = randomKey(32)
  await updateUser(c.get('ctx').db, c.get('user').id, { access_token: hashAccessToken(token) })
  return ok(c, token)
}

/** The own invite code, made on first ask. */
async function inviteCode(c: C) {
  const { db } = c.get('ctx')
  const me = c.get('user')
  if (me.aff_code) return ok(c, me.aff_code)
  const code = await freeAffCode(db)
  await updateUser(db, me.id, { aff_code: code })
  return ok(c, code)
}

/** Moves invite earnings to the balance: at least one quota unit, never more than there is. */
async function transferInviteQuota(c: C) {
  const { db, options, bus } = c.get('ctx')
  const { quota } = await readBody(c, z.object({ quota: fields.quota }))
  const small = transferProblem(quota, options.quotaPerUnit)
  if (small) refuse(problemText(small))
  const me = c.get('user')
  if (!(await moveInviteQuota(db, me.id, quota))) refuse('account.inviteQuotaShort')
  bus.emit('users', me.id)
  return ok(c, null, 'account.transferred')
}

export function accountRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const critical = criticalRateLimit(ctx)
  const user = requireRole(ctx, ROLE.user)
  const turnstile = turnstileCheck(ctx)

  app.post('/user/register', critical, turnstile, register)
  // password guessing is limited per account and per address by the login guard, not by the critical limit
  app.post('/user/login', turnstile, login)
  app.get('/user/logout', async (c) => {
    await endSession(c)
    return ok(c, null, 'account.loggedOut')
  })
  app.get('/user/self', user, (c) => ok(c, publicUser(c.get('user'))))
  app.put('/user/self', user, updateSelf)
  app.delete('/user/self', user, deleteSelf)
  app.get('/user/token', user, newAccessToken)
  app.get('/user/aff', user, inviteCode)
  app.post('/user/aff_transfer', user, transferInviteQuota)
  app.get('/user/models', user, async (c) => ok(c, await modelsOfGroup(ctx.db, c.get('user').group)))
  return app
}
