import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie, deleteCookie } from 'hono/cookie'
import { ApiError, nowSeconds, refuse, type Auth, type Env } from '../http.ts'
import type { AppContext } from '../context.ts'
import { findUser, findUserByAccessToken, type UserRow } from '../db/users.ts'
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSession,
  insertSession,
  touchSession,
  type SessionRow,
} from '../db/sessions.ts'
import { isAllowedOrigin, isHttps, isSameOriginRequest } from '../lib/origins.ts'
import { ROLE, USER_STATUS } from '../../domain/roles.ts'

export const SESSION_COOKIE = 'tollgate_session'
export const EMBED_PREFIX = 'tgs_'
const DAY = 24 * 3600
/** a cookie session lasts 30 days; an embed credential 7 days without use, 30 days at most */
export const COOKIE_SECONDS = 30 * DAY
export const EMBED_IDLE_SECONDS = 7 * DAY
export const EMBED_MAX_SECONDS = 30 * DAY
/** last_seen_at is written at most this often per session (a write per request would cost the relay) */
const TOUCH_EVERY_SECONDS = 60

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

/** Access tokens are kept as their SHA-256; the clear token is shown once and never stored. */
export const hashAccessToken = sha256

async function newSession(c: Context, userId: number, kind: 'cookie' | 'embed', origin: string | null): Promise<string> {
  const ctx = c.get('ctx') as AppContext
  const id = randomBytes(16).toString('hex')
  const secret = randomBytes(32).toString('base64url')
  const now = nowSeconds()
  const ttl = kind === 'cookie' ? COOKIE_SECONDS : EMBED_MAX_SECONDS
  await deleteExpiredSessions(ctx.db, userId, now)
  await insertSession(ctx.db, {
    id,
    user_id: userId,
    secret_hash: sha256(secret),
    kind,
    origin,
    created_at: now,
    last_seen_at: now,
    expires_at: now + ttl,
    user_agent: (c.req.header('user-agent') ?? '').slice(0, 256),
  })
  return `${id}.${secret}`
}

/**
 * Signs the user in. A sign-in from another origin on the allow-list gets an embed credential
 * (answered as `{session: {token, expires_at}}`, merged into the login answer); from another origin
 * not on it, a refusal and a warning in the log; from the gateway's own pages, the session cookie.
 */
export async function startSession(c: Context<Env>, userId: number): Promise<{ session?: { token: string; expires_at: number } }> {
  const ctx = c.get('ctx')
  const origin = c.req.header('origin')
  if (origin && !isSameOriginRequest(c)) {
    if (!isAllowedOrigin(ctx, origin)) {
      console.warn(`[${c.get('requestId')}] sign-in refused from ${JSON.stringify(origin.slice(0, 200))}: not an allowed embedding site`)
      refuse('auth.originNotAllowed')
    }
    const token = EMBED_PREFIX + (await newSession(c, userId, 'embed', new URL(origin).origin))
    return { session: { token, expires_at: nowSeconds() + EMBED_IDLE_SECONDS } }
  }
  setCookie(c, SESSION_COOKIE, await newSession(c, userId, 'cookie', null), {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    maxAge: COOKIE_SECONDS,
  })
  return {}
}

/** Logout: ends the session the request came with (cookie or embed credential) on the server. */
export async function endSession(c: Context<Env>): Promise<void> {
  const ctx = c.get('ctx')
  const auth = await resolveAuth(c, ctx)
  if (auth?.auth.sessionId) await deleteSession(ctx.db, auth.auth.sessionId)
  if (getCookie(c, SESSION_COOKIE)) deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) })
}

/** Ends every session of a user (but `keep`): after a password change or reset, disable, role change or delete. */
export const endUserSessions = (ctx: AppContext, userId: number, keep?: string) => deleteUserSessions(ctx.db, userId, keep)

function sameHash(want: string, secret: string): boolean {
  const a = Buffer.from(want)
  const b = Buffer.from(sha256(secret))
  return a.length === b.length && timingSafeEqual(a, b)
}

function expired(s: SessionRow, now: number): boolean {
  return now >= s.expires_at || (s.kind === 'embed' && now >= s.last_seen_at + EMBED_IDLE_SECONDS)
}

/** The live session a credential `<id>.<secret>` names, of the given kind. */
async function liveSession(ctx: AppContext, credential: string, kind: 'cookie' | 'embed'): Promise<SessionRow | null> {
  const m = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{20,64})$/.exec(credential)
  if (!m) return null
  const s = await findSession(ctx.db, m[1]!)
  if (!s || s.kind !== kind || !sameHash(s.secret_hash, m[2]!)) return null
  const now = nowSeconds()
  if (expired(s, now)) return null
  if (now - s.last_seen_at >= TOUCH_EVERY_SECONDS) await touchSession(ctx.db, s.id, now)
  return s
}

async function bearerUser(c: Context, ctx: AppContext, token: string): Promise<{ user: UserRow | undefined; auth: Auth } | null> {
  if (token.startsWith(EMBED_PREFIX)) {
    const s = await liveSession(ctx, token.slice(EMBED_PREFIX.length), 'embed')
    const origin = c.req.header('origin')
    if (!s || !origin || origin !== s.origin || !isAllowedOrigin(ctx, origin)) return null
    return { user: await findUser(ctx.db, s.user_id), auth: { kind: 'embed', sessionId: s.id } }
  }
  if (token.length > 128) return null
  return { user: await findUserByAccessToken(ctx.db, hashAccessToken(token)), auth: { kind: 'token' } }
}

async function resolveAuth(c: Context, ctx: AppContext): Promise<{ user: UserRow | undefined; auth: Auth } | null> {
  const header = c.req.header('authorization')
  if (header) {
    const token = header.replace(/^Bearer\s+/i, '').trim()
    return token ? bearerUser(c, ctx, token) : null
  }
  const raw = getCookie(c, SESSION_COOKIE)
  const s = raw ? await liveSession(ctx, raw, 'cookie') : null
  return s ? { user: await findUser(ctx.db, s.user_id), auth: { kind: 'cookie', sessionId: s.id } } : null
}

/** The caller: the session cookie, an embed credential, or the system access token as `Authorization: Bearer …`. */
export async function resolveUser(c: Context<Env>, ctx: AppContext): Promise<UserRow | null> {
  const found = await resolveAuth(c, ctx)
  if (!found?.user || found.user.deleted_at !== null) return null
  c.set('auth', found.auth)
  return found.user
}

/**
 * The family's clients name the signed-in user in a `New-API-User` header on every call, against
 * caches that mix users up. When the header is there it must be that user's id.
 */
function headerNamesUser(c: Context, user: UserRow): boolean {
  const named = c.req.header('new-api-user')
  return named === undefined || (/^\d{1,15}$/.test(named.trim()) && Number(named.trim()) === user.id)
}

/**
 * Requires a signed-in, enabled user whose role is at least `role` (1 user, 10 admin, 100 root).
 * A New-API-User header that names someone else (or is not an id) is a 401, as for no session.
 */
export function requireRole(ctx: AppContext, role: number = ROLE.user): MiddlewareHandler<Env> {
  return async function requireRoleHandler(c, next) {
    const user = await resolveUser(c, ctx)
    if (!user) throw new ApiError(401, 'auth.notLoggedIn')
    if (!headerNamesUser(c, user)) throw new ApiError(401, 'account.headerMismatch')
    if (user.status !== USER_STATUS.enabled) throw new ApiError(403, 'auth.disabled')
    if (user.role < role) throw new ApiError(403, 'auth.forbidden')
    c.set('user', user)
    await next()
  }
}

/**
 * Sets `user` when the caller is signed in, and goes on either way (public calls such as pricing).
 * A New-API-User header naming someone else makes the call a signed-out one: a public answer,
 * never another user's.
 */
export function optionalUser(ctx: AppContext): MiddlewareHandler<Env> {
  return async function optionalUserHandler(c, next) {
    const user = await resolveUser(c, ctx)
    if (user && user.status === USER_STATUS.enabled && headerNamesUser(c, user)) c.set('user', user)
    await next()
  }
}
