import type { Context, MiddlewareHandler } from 'hono'
import { getSignedCookie, setSignedCookie } from 'hono/cookie'
import { isIP } from 'node:net'
import type { AppContext } from '../context.ts'
import { fail, nowSeconds, type Env } from '../http.ts'
import { clientAddress } from './rate-limit.ts'

export const TURNSTILE_COOKIE = 'tollgate_turnstile'
/** how long one passed check covers the client (register, login, verification, reset) */
export const TURNSTILE_PASS_SECONDS = 60 * 60
const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

/** the refusals' catalogue keys */
export const TURNSTILE_MISSING = 'turnstile.missing'
export const TURNSTILE_FAILED = 'turnstile.failed'
export const TURNSTILE_UNREACHABLE = 'turnstile.unreachable'

function cookieSecret(ctx: AppContext): string {
  return `${ctx.config.sessionSecret}\0turnstile`
}

/** Asks Cloudflare (or TURNSTILE_VERIFY_URL) whether the widget's token is good. */
export async function verifyTurnstile(secret: string, token: string, remoteIp: string): Promise<'ok' | 'bad' | 'unreachable'> {
  const form = new URLSearchParams({ secret, response: token })
  if (isIP(remoteIp)) form.set('remoteip', remoteIp)
  try {
    const res = await fetch(process.env.TURNSTILE_VERIFY_URL || DEFAULT_VERIFY_URL, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(10_000),
    })
    if (!res.ok) return 'unreachable'
    const answer = (await res.json()) as { success?: unknown }
    return answer.success === true ? 'ok' : 'bad'
  } catch {
    return 'unreachable'
  }
}

/**
 * When TurnstileCheckEnabled, the call needs `?turnstile=<token>` that Cloudflare accepts. A pass
 * is remembered in a signed cookie for TURNSTILE_PASS_SECONDS, so the client is not asked again
 * for a while (the reference gateways keep the same mark in their session).
 */
export function turnstileCheck(ctx: AppContext): MiddlewareHandler<Env> {
  return async function turnstileHandler(c: Context<Env>, next) {
    const o = ctx.options
    if (!o.bool('TurnstileCheckEnabled')) return next()
    const secret = cookieSecret(ctx)
    const passedUntil = await getSignedCookie(c, secret, TURNSTILE_COOKIE)
    if (passedUntil && Number(passedUntil) > nowSeconds()) return next()

    const token = c.req.query('turnstile') ?? ''
    if (!token) return fail(c, TURNSTILE_MISSING)
    if (token.length > 4096) return fail(c, TURNSTILE_FAILED)
    const verdict = await verifyTurnstile(o.get('TurnstileSecretKey'), token, clientAddress(c))
    if (verdict === 'bad') return fail(c, TURNSTILE_FAILED)
    if (verdict === 'unreachable') return fail(c, TURNSTILE_UNREACHABLE)

    await setSignedCookie(c, TURNSTILE_COOKIE, String(nowSeconds() + TURNSTILE_PASS_SECONDS), secret, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      path: '/',
      maxAge: TURNSTILE_PASS_SECONDS,
    })
    await next()
  }
}
