/**
 * Security headers (issue 10 item 9). Every answer: `X-Content-Type-Options: nosniff`. HTML pages
 * (the console): a Content-Security-Policy the console runs under, and no framing by other sites.
 * API answers: a policy that lets the JSON do nothing if opened as a page. Library files under
 * /lib stay loadable from any site (no framing or policy headers: they are scripts).
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from '../http.ts'
import type { AppContext } from '../context.ts'

const TURNSTILE = 'https://challenges.cloudflare.com'

/**
 * The console's policy. Scripts only from the gateway (and the bot check's when it is on);
 * styles inline too (components render <style> in their shadow roots); images from anywhere (the
 * logo and QR codes are addresses the administrator sets); frames from https pages (the about
 * page may embed one, the chat-app and bot-check widgets); connections to data: (the icons) and
 * to any upstream (the channel form asks an upstream's model list from the browser).
 */
export function consolePolicy(turnstile: boolean): string {
  const scripts = turnstile ? `'self' ${TURNSTILE}` : "'self'"
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    'img-src * data: blob:',
    "font-src 'self' data:",
    "connect-src 'self' data: https: http:",
    "frame-src 'self' https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}

export const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

export function securityHeaders(ctx: AppContext): MiddlewareHandler<Env> {
  return async function securityHeadersHandler(c, next) {
    await next()
    const h = c.res.headers
    h.set('X-Content-Type-Options', 'nosniff')
    const path = new URL(c.req.url).pathname
    if (path.startsWith('/api/')) {
      h.set('Content-Security-Policy', API_POLICY)
    } else if ((h.get('content-type') ?? '').startsWith('text/html')) {
      h.set('Content-Security-Policy', consolePolicy(ctx.options.bool('TurnstileCheckEnabled')))
      h.set('X-Frame-Options', 'SAMEORIGIN')
      h.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    }
  }
}
