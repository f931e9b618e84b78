/**
 * CORS for the console API: any site may call it without credentials (the bearer embed
 * credential, public reads), never with cookies, so the caller's origin is reflected and
 * Access-Control-Allow-Credentials is never sent.
 *
 * Ours rather than hono/cors, which sets its headers on `c.res` before the route runs. hono then
 * copies every answer into a new Response when the route returns it (the `c.res` setter reads the
 * body), and the node server can no longer write the route's string or buffer as it is: it reads
 * the copy back as a web stream. For a month's dashboard (1.8 MB) that was two copies of the body
 * and some 15 ms of garbage collection a call. Here the headers are added to the route's own
 * answer, after it.
 */
import type { MiddlewareHandler } from 'hono'

const METHODS = 'GET,HEAD,PUT,POST,DELETE,PATCH'

export function apiCors(opts: { allowHeaders: readonly string[]; exposeHeaders: readonly string[]; maxAge: number }): MiddlewareHandler {
  const allow = opts.allowHeaders.join(',')
  const expose = opts.exposeHeaders.join(',')
  const maxAge = String(opts.maxAge)
  return async function corsHandler(c, next) {
    const origin = c.req.header('origin')
    if (c.req.method === 'OPTIONS') {
      const h = new Headers({
        'Access-Control-Expose-Headers': expose,
        'Access-Control-Max-Age': maxAge,
        'Access-Control-Allow-Methods': METHODS,
        'Access-Control-Allow-Headers': allow,
        Vary: 'Origin, Access-Control-Request-Headers',
      })
      if (origin) h.set('Access-Control-Allow-Origin', origin)
      return new Response(null, { status: 204, headers: h })
    }
    await next()
    const h = c.res.headers
    if (origin) h.set('Access-Control-Allow-Origin', origin)
    h.set('Access-Control-Expose-Headers', expose)
    h.append('Vary', 'Origin')
  }
}
