/**
 * Signing in with an outside account (spec section 7): GitHub (with a state bound to the browser),
 * WeChat and Telegram; each signs in, registers on first sight, or binds to the signed-in user.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { ApiError, nowSeconds, ok, readQuery, refuse, type Env } from '../http.ts'
import { optional } from '../lib/wire.ts'
import { optionalUser, requireRole, startSession } from '../middleware/session.ts'
import { criticalRateLimit } from '../middleware/rate-limit.ts'
import { hashPassword, publicUser, randomKey, type UserRow } from '../lib/users.ts'
import { freeAffCode, giftsOf, openAccount } from '../lib/accounts.ts'
import { isUniqueViolation } from '../lib/query.ts'
import { isHttps } from '../lib/origins.ts'
import { issueState, spendState, useOnceBefore } from '../lib/one-time.ts'
import {
  githubProfile,
  PROVIDER_COLUMN,
  PROVIDER_SWITCH,
  telegramProfile,
  wechatProfile,
  type Profile,
  type Provider,
} from '../lib/oauth.ts'
import { claimForUser, emailTaken, findUser, findUserByOutsideAccount, highestUserId } from '../db/users.ts'
import { ROLE, USER_STATUS } from '../../domain/roles.ts'

export { TELEGRAM_MAX_AGE_SECONDS } from '../lib/oauth.ts'
export const STATE_COOKIE = 'tollgate_oauth_state'
/** how long a sign-in started with /oauth/state may take to come back */
export const STATE_SECONDS = 10 * 60

const codeQuery = z.object({ code: z.string().trim().min(1).max(512) })
const githubQuery = codeQuery.extend({ state: optional(z.string().max(64).default('')) })

type C = Context<Env>

const stateSecret = (c: C) => `${c.get('ctx').config.sessionSecret}\0oauth-state`

/** A new account `<provider>_<n>` holding the outside account, n one past the highest id. */
async function registerOutside(ctx: AppContext, provider: Provider, profile: Profile): Promise<UserRow> {
  const email = profile.email && profile.email.length <= 50 && !(await emailTaken(ctx.db, profile.email)) ? profile.email : ''
  const password = await hashPassword(randomKey(32))
  const gifts = giftsOf(ctx.options, false)
  const next = (await highestUserId(ctx.db)) + 1
  for (let attempt = 0; ; attempt++) {
    const username = attempt < 5 ? `${provider}_${next + attempt}` : `${provider}_${randomKey(8)}`
    const user = {
      username,
      password,
      display_name: (profile.displayName || username).slice(0, 20),
      role: ROLE.user,
      email,
      aff_code: await freeAffCode(ctx.db),
      outside: { column: PROVIDER_COLUMN[provider], id: profile.id },
      created_time: nowSeconds(),
    }
    try {
      return await openAccount(ctx.db, user, gifts)
    } catch (e) {
      if (!isUniqueViolation(e) || attempt === 5) throw e
    }
  }
}

/** Signs in the user holding this outside account, or registers one when registration is open. */
async function signIn(c: C, provider: Provider, profile: Profile) {
  const ctx = c.get('ctx')
  let user = await findUserByOutsideAccount(ctx.db, PROVIDER_COLUMN[provider], profile.id)
  if (user && user.status !== USER_STATUS.enabled) refuse('account.banned')
  if (!user) {
    if (!ctx.options.bool('RegisterEnabled')) refuse('account.registerClosed')
    user = await registerOutside(ctx, provider, profile)
  }
  return ok(c, { ...publicUser(user), ...(await startSession(c, user.id)) }, 'account.loggedIn')
}

/** Binds the outside account to the signed-in user, unless another user already holds it. */
async function bind(c: C, provider: Provider, profile: Profile): Promise<UserRow> {
  const { db, bus } = c.get('ctx')
  const me = c.get('user')
  if (!(await claimForUser(db, me.id, PROVIDER_COLUMN[provider], profile.id))) refuse(`oauth.boundElsewhere.${provider}`)
  bus.emit('users', me.id)
  return (await findUser(db, me.id))!
}

/** The session the request came with ('-' signed out): a state is good only for it. */
const sessionOf = (c: C) => (c.get('user') ? c.get('auth').sessionId : undefined) ?? '-'

/** Hands out a state for the GitHub sign-in, kept in a signed cookie of this browser with its session. */
async function newState(c: C) {
  const state = randomKey(12)
  await setSignedCookie(c, STATE_COOKIE, `${state}.${nowSeconds() + STATE_SECONDS}.${sessionOf(c)}`, stateSecret(c), {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    maxAge: STATE_SECONDS,
  })
  return ok(c, state)
}

/** The GitHub callback: the state must be the one this browser (and session) was given, once and in time. */
async function github(c: C) {
  const q = readQuery(c, githubQuery)
  const kept = (await getSignedCookie(c, stateSecret(c), STATE_COOKIE)) || ''
  deleteCookie(c, STATE_COOKIE, { path: '/' })
  const [state = '', until = '0', session = ''] = kept.split('.')
  const now = nowSeconds()
  const good = q.state !== '' && state === q.state && Number(until) >= now && session === sessionOf(c)
  if (!good || !(await useOnceBefore(c.get('ctx').db, 'github-state', state, Number(until), now)))
    throw new ApiError(403, 'oauth.stateMismatch')
  const profile = await githubProfile(c.get('ctx').options, q.code)
  if (!c.get('user')) return signIn(c, 'github', profile)
  return ok(c, publicUser(await bind(c, 'github', profile)), 'oauth.bind')
}

/** A one-time state for binding Telegram: the widget's answer is bound only with it, in this session. */
function telegramState(c: C) {
  const sid = c.get('auth').sessionId
  if (!sid) refuse('oauth.bindStateWrong')
  return ok(c, issueState(stateSecret(c), 'telegram-bind', sid, nowSeconds() + STATE_SECONDS))
}

/** The widget's auth URL on the settings page: binds with the state this session started, then goes back to /setting. */
async function telegramBind(c: C) {
  const sid = c.get('auth').sessionId
  const o = c.get('ctx').options
  if (!sid || !(await spendState(c.get('ctx').db, stateSecret(c), 'telegram-bind', sid, c.req.query('state') ?? '', nowSeconds())))
    refuse('oauth.bindStateWrong')
  await bind(c, 'telegram', await telegramProfile(c.get('ctx').db, o, c.req.query()))
  return c.redirect('/setting', 302)
}

export function oauthRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const critical = criticalRateLimit(ctx)
  const signedIn = requireRole(ctx, ROLE.user)
  const o = ctx.options
  const enabled =
    (provider: Provider): MiddlewareHandler<Env> =>
    async (c, next) => {
      if (!o.bool(PROVIDER_SWITCH[provider])) refuse(`oauth.notEnabled.${provider}`)
      await next()
    }
  const wechatCode = (c: C) => wechatProfile(o, readQuery(c, codeQuery).code)

  app.get('/oauth/state', critical, optionalUser(ctx), newState)
  app.get('/oauth/github', critical, optionalUser(ctx), enabled('github'), github)
  app.get('/oauth/wechat', critical, enabled('wechat'), async (c) => signIn(c, 'wechat', await wechatCode(c)))
  app.get('/oauth/wechat/bind', critical, signedIn, enabled('wechat'), async (c) =>
    ok(c, publicUser(await bind(c, 'wechat', await wechatCode(c))), 'account.bound'),
  )
  app.get('/oauth/telegram/login', critical, enabled('telegram'), async (c) =>
    signIn(c, 'telegram', await telegramProfile(c.get('ctx').db, o, c.req.query())),
  )
  app.get('/oauth/telegram/state', critical, signedIn, enabled('telegram'), telegramState)
  app.get('/oauth/telegram/bind', critical, signedIn, enabled('telegram'), telegramBind)
  return app
}
