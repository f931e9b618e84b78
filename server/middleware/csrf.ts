/**
 * Cross-site request forgery rules of the session contract (issue 10 item 3). Writes carry JSON
 * bodies only (415 otherwise), so no HTML form or no-cors fetch can make one. A cookie-authenticated
 * request that changes state must come from the gateway's own pages or an allowed embedding site;
 * the GETs that change state also need a header no link can send. Bearer requests are not
 * CSRF-able (a page cannot make a browser attach someone's bearer) and pass.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { ApiError, type Env } from '../http.ts'
import type { AppContext } from '../context.ts'
import { isAllowedOrigin, isOwnOrigin } from '../lib/origins.ts'
import { SESSION_COOKIE } from './session.ts'

/**
 * The GETs (under /api) that change something or reach outside: the spec makes them GETs, so they
 * take the header rule. The Telegram widget's bind callback is a cross-site navigation by design
 * and is guarded by the one-time state the signed-in user started instead.
 */
export const STATE_CHANGING_GETS: readonly RegExp[] = [
  /^\/user\/(logout|token|aff)\/?$/,
  /^\/verification\/?$/,
  /^\/reset_password\/?$/,
  /^\/oauth\/(state|github|email\/bind|wechat\/bind|telegram\/state)\/?$/,
  /^\/channel\/(test|update_balance|fetch_models)(\/|$)/,
]

/** The media type of a write's body must be JSON; an empty body may come without one. */
function requireJsonBody(c: Context): void {
  const type = c.req.header('content-type')
  if (type === undefined) {
    const length = c.req.header('content-length')
    if ((length !== undefined && length !== '0') || c.req.header('transfer-encoding')) throw new ApiError(415, 'body.notJsonType')
    return
  }
  const media = type.split(';')[0]!.trim().toLowerCase()
  if (media !== 'application/json') throw new ApiError(415, 'body.notJsonType')
}

/**
 * True when the browser says the request comes from the gateway's own pages (or an allowed
 * site). Sec-Fetch-Site is set by the browser and cannot be forged by a page; without it the
 * Origin header decides; a request with neither is not from a current browser (a script or a
 * command-line client, which a forging page cannot drive) and passes.
 */
export function fromTrustedPage(c: Context, ctx: AppContext): boolean {
  const site = c.req.header('sec-fetch-site')?.toLowerCase()
  if (site === 'same-origin' || site === 'none') return true
  const origin = c.req.header('origin')
  if (origin !== undefined) return origin !== 'null' && (isOwnOrigin(c, origin) || isAllowedOrigin(ctx, origin))
  return site === undefined
}

export function csrfGuard(ctx: AppContext): MiddlewareHandler<Env> {
  return async function csrfHandler(c, next) {
    const method = c.req.method
    if (method === 'OPTIONS') return next()
    const write = method !== 'GET' && method !== 'HEAD'
    if (write) requireJsonBody(c)
    const path = new URL(c.req.url).pathname.replace(/^\/api/, '')
    const changingGet = !write && STATE_CHANGING_GETS.some((re) => re.test(path))
    const byCookie = !c.req.header('authorization') && getCookie(c, SESSION_COOKIE) !== undefined
    if ((write || changingGet) && byCookie) {
      if (!fromTrustedPage(c, ctx)) throw new ApiError(403, 'auth.crossSite')
      if (changingGet && !c.req.header('x-tollgate-client') && !c.req.header('new-api-user')) throw new ApiError(403, 'auth.clientHeader')
    }
    await next()
  }
}
