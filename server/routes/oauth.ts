import { Hono, type Context } from 'hono'
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie'
import { sql } from 'kysely'
import { z } from 'zod'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import bcrypt from 'bcryptjs'
import type { AppContext } from '../context.ts'
import { ApiError, fail, nowSeconds, ok, readQuery, type Env } from '../http.ts'
import { issueSession, optionalUser, requireRole } from '../middleware/session.ts'
import { rateLimit } from '../middleware/rate-limit.ts'
import { publicUser, randomAffCode, randomKey, type UserRow } from '../lib/users.ts'
import { DEFAULT_GROUP, ROLE, USER_STATUS } from '../../domain/roles.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'
import type { OptionStore } from '../options.ts'

export const STATE_COOKIE = 'tollgate_oauth_state'
/** how long a sign-in started with /oauth/state may take to come back */
export const STATE_SECONDS = 10 * 60
/** how old a Telegram login-widget answer may be */
export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600
const FETCH_TIMEOUT_MS = 10_000

type Provider = 'github' | 'wechat' | 'telegram'
const COLUMN = { github: 'github_id', wechat: 'wechat_id', telegram: 'telegram_id' } as const
const LABEL = { github: 'GitHub', wechat: 'WeChat', telegram: 'Telegram' } as const
const SWITCH = { github: 'GitHubOAuthEnabled', wechat: 'WeChatAuthEnabled', telegram: 'TelegramOAuthEnabled' } as const

/** A refusal from the outside provider (bad code, provider down); the message is shown as is. */
class OAuthError extends Error {}

interface Profile {
  id: string
  displayName: string
  email: string
}

const codeQuery = z.object({ code: z.string().trim().min(1).max(512) })
const githubQuery = codeQuery.extend({ state: z.string().max(64).optional().default('') })

function stateSecret(ctx: AppContext): string {
  return `${ctx.config.sessionSecret}\0oauth-state`
}

async function getJson(url: string, init: RequestInit, provider: Provider): Promise<Record<string, unknown>> {
  let res: Response
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
  } catch {
    throw new OAuthError(`could not reach ${LABEL[provider]}, try again later`)
  }
  let body: unknown
  try {
    body = await res.json()
  } catch {
    throw new OAuthError(`${LABEL[provider]} answered something unreadable (HTTP ${res.status})`)
  }
  if (!body || typeof body !== 'object') throw new OAuthError(`${LABEL[provider]} answered something unreadable (HTTP ${res.status})`)
  return body as Record<string, unknown>
}

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** Exchanges the code at GitHub and reads the account (the numeric id is the stable key). */
async function githubProfile(o: OptionStore, code: string): Promise<Profile> {
  const oauthBase = (process.env.GITHUB_OAUTH_URL || 'https://github.com').replace(/\/+$/, '')
  const apiBase = (process.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  const grant = await getJson(
    `${oauthBase}/login/oauth/access_token`,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: o.get('GitHubClientId'), client_secret: o.get('GitHubClientSecret'), code }),
    },
    'github',
  )
  const token = text(grant.access_token)
  if (!token) throw new OAuthError(`GitHub refused the sign-in: ${text(grant.error_description) || text(grant.error) || 'no access token'}`)
  const user = await getJson(
    `${apiBase}/user`,
    { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'user-agent': 'Tollgate' } },
    'github',
  )
  const id = text(user.id)
  if (!/^\d+$/.test(id)) throw new OAuthError(`GitHub did not name the account: ${text(user.message) || 'no id'}`)
  return { id, displayName: text(user.name) || text(user.login), email: text(user.email) }
}

/** Asks the WeChat login server which WeChat account the (QR-code) verification code belongs to. */
async function wechatProfile(o: OptionStore, code: string): Promise<Profile> {
  const base = o.get('WeChatServerAddress').trim().replace(/\/+$/, '')
  if (!base) throw new OAuthError('the administrator has not set the WeChat server address')
  const answer = await getJson(
    `${base}/api/wechat/user?code=${encodeURIComponent(code)}`,
    { headers: { authorization: o.get('WeChatServerToken'), accept: 'application/json' } },
    'wechat',
  )
  const id = text(answer.data)
  if (answer.success !== true || !id) throw new OAuthError(text(answer.message) || 'the WeChat verification code is wrong or has expired')
  return { id, displayName: '', email: '' }
}

/**
 * Checks the Telegram login widget's answer: HMAC-SHA256 over the sorted `key=value` lines of the
 * fields it sent (all but hash, and our own lang), keyed with SHA-256 of the bot token.
 */
export function telegramProfile(o: OptionStore, query: Record<string, string>, now = nowSeconds()): Profile {
  const botToken = o.get('TelegramBotToken')
  if (!botToken) throw new OAuthError('the administrator has not set the Telegram bot token')
  const hash = (query.hash ?? '').toLowerCase()
  const check = Object.keys(query)
    .filter((k) => k !== 'hash' && k !== 'lang' && query[k] !== '')
    .sort()
    .map((k) => `${k}=${query[k]}`)
    .join('\n')
  const key = createHash('sha256').update(botToken).digest()
  const want = createHmac('sha256', key).update(check).digest('hex')
  if (!/^[0-9a-f]{64}$/.test(hash) || !timingSafeEqual(Buffer.from(want), Buffer.from(hash))) {
    throw new OAuthError('the Telegram login could not be verified')
  }
  const authDate = Number(query.auth_date)
  if (!Number.isFinite(authDate) || now - authDate > TELEGRAM_MAX_AGE_SECONDS) {
    throw new OAuthError('the Telegram login has expired, sign in with Telegram again')
  }
  const id = query.id ?? ''
  if (!/^-?\d+$/.test(id)) throw new OAuthError('the Telegram login could not be verified')
  const name = [query.first_name, query.last_name].filter(Boolean).join(' ')
  return { id, displayName: name || query.username || '', email: '' }
}

export function oauthRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const o = ctx.options
  const critical = rateLimit(
    ctx.limiter,
    'critical',
    () => ctx.config.criticalRateLimit,
    () => ctx.config.criticalRateWindowSeconds,
  )
  const signedIn = requireRole(ctx, ROLE.user)
  const maybeSignedIn = optionalUser(ctx)

  /** Signs in the user holding this outside account, or registers one when registration is open. */
  async function signIn(c: Context<Env>, provider: Provider, profile: Profile) {
    const column = COLUMN[provider]
    const found = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where(column, '=', profile.id)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst()
    if (found) {
      if (found.status !== USER_STATUS.enabled) return fail(c, 'this user has been banned')
      issueSession(c, ctx.config.sessionSecret, found.id)
      return ok(c, publicUser(found), 'logged in')
    }
    if (!o.bool('RegisterEnabled')) return fail(c, 'new registrations are closed by the administrator')
    const created = await register(provider, profile)
    issueSession(c, ctx.config.sessionSecret, created.id)
    return ok(c, publicUser(created), 'logged in')
  }

  /** A new user `<provider>_<n>` holding the outside account, n one past the highest id. */
  async function register(provider: Provider, profile: Profile): Promise<UserRow> {
    const forNew = Math.max(0, Math.trunc(o.num('QuotaForNewUser')))
    let email = ''
    if (profile.email && profile.email.length <= 50) {
      const taken = await ctx.db
        .selectFrom('users')
        .select('id')
        .where(sql<boolean>`lower(email) = ${profile.email.toLowerCase()}`)
        .executeTakeFirst()
      if (!taken) email = profile.email
    }
    const password = await bcrypt.hash(randomKey(32), 10)
    const top = await ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst()
    const next = Number(top?.max ?? 0) + 1
    for (let attempt = 0; attempt < 6; attempt++) {
      const username = attempt < 5 ? `${provider}_${next + attempt}` : `${provider}_${randomKey(8)}`
      const now = nowSeconds()
      try {
        return await ctx.db.transaction().execute(async (tx) => {
          const row = await tx
            .insertInto('users')
            .values({
              username,
              password,
              display_name: (profile.displayName || username).slice(0, 20),
              role: ROLE.user,
              status: USER_STATUS.enabled,
              email,
              github_id: provider === 'github' ? profile.id : '',
              wechat_id: provider === 'wechat' ? profile.id : '',
              telegram_id: provider === 'telegram' ? profile.id : '',
              quota: forNew,
              used_quota: 0,
              request_count: 0,
              group: DEFAULT_GROUP,
              aff_code: `${randomAffCode()}${randomKey(4)}`,
              aff_count: 0,
              aff_quota: 0,
              aff_history_quota: 0,
              inviter_id: 0,
              created_time: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow()
          if (forNew > 0) {
            await tx
              .insertInto('logs')
              .values({ user_id: row.id, username, created_at: now, type: LOG_TYPE.system, content: `new user bonus: ${forNew} quota` })
              .execute()
          }
          return row
        })
      } catch (e) {
        if (!/unique|duplicate/i.test(String(e)) || attempt === 5) throw e
      }
    }
    throw new Error('unreachable')
  }

  /** Binds the outside account to the signed-in user, unless another user already holds it. */
  async function bind(c: Context<Env>, provider: Provider, profile: Profile): Promise<UserRow | Response> {
    const me = c.get('user')
    const column = COLUMN[provider]
    const r = await ctx.db
      .updateTable('users')
      .set({ [column]: profile.id })
      .where('id', '=', me.id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('users as other')
              .select('other.id')
              .where(`other.${column}`, '=', profile.id)
              .where('other.id', '!=', me.id)
              .where('other.deleted_at', 'is', null),
          ),
        ),
      )
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) return fail(c, `this ${LABEL[provider]} account is already bound to another user`)
    ctx.bus.emit('users', me.id)
    return ctx.db.selectFrom('users').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow()
  }

  function refuseUnlessEnabled(c: Context<Env>, provider: Provider) {
    return o.bool(SWITCH[provider]) ? null : fail(c, `the administrator has not enabled sign-in with ${LABEL[provider]}`)
  }

  /** Runs an exchange with the provider; an OAuthError becomes success false with its message. */
  async function outside(c: Context<Env>, run: () => Promise<Response>): Promise<Response> {
    try {
      return await run()
    } catch (e) {
      if (e instanceof OAuthError) return fail(c, e.message)
      throw e
    }
  }

  app.get('/oauth/state', critical, async (c) => {
    const state = randomKey(12)
    await setSignedCookie(c, STATE_COOKIE, `${state}.${nowSeconds() + STATE_SECONDS}`, stateSecret(ctx), {
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      path: '/',
      maxAge: STATE_SECONDS,
    })
    return ok(c, state)
  })

  app.get('/oauth/github', critical, maybeSignedIn, async (c) => {
    const off = refuseUnlessEnabled(c, 'github')
    if (off) return off
    const q = readQuery(c, githubQuery)
    const kept = await getSignedCookie(c, stateSecret(ctx), STATE_COOKIE)
    deleteCookie(c, STATE_COOKIE, { path: '/' })
    const dot = kept ? kept.lastIndexOf('.') : -1
    const state = kept && dot > 0 ? kept.slice(0, dot) : ''
    const until = kept && dot > 0 ? Number(kept.slice(dot + 1)) : 0
    if (!q.state || !state || state !== q.state || !(until >= nowSeconds())) {
      throw new ApiError(403, 'the sign-in state is missing or does not match; start the GitHub sign-in again')
    }
    return outside(c, async () => {
      const profile = await githubProfile(o, q.code)
      if (c.get('user')) {
        const bound = await bind(c, 'github', profile)
        return bound instanceof Response ? bound : ok(c, publicUser(bound), 'bind')
      }
      return signIn(c, 'github', profile)
    })
  })

  app.get('/oauth/wechat', critical, async (c) => {
    const off = refuseUnlessEnabled(c, 'wechat')
    if (off) return off
    const q = readQuery(c, codeQuery)
    return outside(c, async () => signIn(c, 'wechat', await wechatProfile(o, q.code)))
  })

  app.get('/oauth/wechat/bind', critical, signedIn, async (c) => {
    const off = refuseUnlessEnabled(c, 'wechat')
    if (off) return off
    const q = readQuery(c, codeQuery)
    return outside(c, async () => {
      const bound = await bind(c, 'wechat', await wechatProfile(o, q.code))
      return bound instanceof Response ? bound : ok(c, publicUser(bound), 'bound')
    })
  })

  app.get('/oauth/telegram/login', critical, async (c) => {
    const off = refuseUnlessEnabled(c, 'telegram')
    if (off) return off
    return outside(c, async () => signIn(c, 'telegram', telegramProfile(o, c.req.query())))
  })

  /** The login widget's auth URL on the settings page: binds, then goes back to /setting. */
  app.get('/oauth/telegram/bind', critical, signedIn, async (c) => {
    const off = refuseUnlessEnabled(c, 'telegram')
    if (off) return off
    return outside(c, async () => {
      const bound = await bind(c, 'telegram', telegramProfile(o, c.req.query()))
      return bound instanceof Response ? bound : c.redirect('/setting', 302)
    })
  })

  return app
}
