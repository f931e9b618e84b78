import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie, deleteCookie } from 'hono/cookie'
import { ApiError, type Env } from '../http.ts'
import type { AppContext } from '../context.ts'
import { findUser, findUserByAccessToken, type UserRow } from '../db/users.ts'
import { ROLE, USER_STATUS } from '../../domain/roles.ts'

export const SESSION_COOKIE = 'tollgate_session'
const MAX_AGE = 30 * 24 * 3600

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url')
}

/** A stateless signed cookie, so every instance that shares SESSION_SECRET can read it. */
export function issueSession(c: Context, secret: string, userId: number): void {
  const payload = Buffer.from(JSON.stringify({ id: userId, iat: Math.floor(Date.now() / 1000) })).toString('base64url')
  setCookie(c, SESSION_COOKIE, `${payload}.${sign(secret, payload)}`, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    path: '/',
    maxAge: MAX_AGE,
  })
}

export function clearSession(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' })
}

function sessionUserId(c: Context, secret: string): number | null {
  const raw = getCookie(c, SESSION_COOKIE)
  if (!raw) return null
  const [payload, mac] = raw.split('.')
  if (!payload || !mac) return null
  const want = Buffer.from(sign(secret, payload))
  const got = Buffer.from(mac)
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null
  try {
    const { id, iat } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { id: number; iat: number }
    if (!Number.isInteger(id) || typeof iat !== 'number' || iat + MAX_AGE < Date.now() / 1000) return null
    return id
  } catch {
    return null
  }
}

/** The caller: the session cookie, or the system access token as `Authorization: Bearer …`. */
export async function resolveUser(c: Context, ctx: AppContext): Promise<UserRow | null> {
  const header = c.req.header('authorization')
  if (header) {
    const token = header.replace(/^Bearer\s+/i, '').trim()
    if (!token || token.length > 128) return null
    return (await findUserByAccessToken(ctx.db, token)) ?? null
  }
  const id = sessionUserId(c, ctx.config.sessionSecret)
  if (id === null) return null
  const user = await findUser(ctx.db, id)
  return user && user.deleted_at === null ? user : null
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
