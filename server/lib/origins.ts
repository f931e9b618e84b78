/**
 * Which web origins may act with a user's credentials: the gateway's own, and the embedding
 * allow-list (the root-only option EmbedOrigins together with the CORS_ORIGINS environment variable).
 */
import type { Context } from 'hono'
import type { AppContext } from '../context.ts'
import { canonicalOrigin, parseOrigins } from '../../domain/origins.ts'

export function allowedOrigins(ctx: AppContext): Set<string> {
  const fromOption = parseOrigins(ctx.options.get('EmbedOrigins')).origins
  const fromEnv = ctx.config.corsOrigins.map(canonicalOrigin).filter((o): o is string => o !== null)
  return new Set([...fromOption, ...fromEnv])
}

export function isAllowedOrigin(ctx: AppContext, origin: string): boolean {
  const o = canonicalOrigin(origin)
  return o !== null && allowedOrigins(ctx).has(o)
}

/** True when the request came through https (itself, or a TLS proxy saying so). */
export function isHttps(c: Context): boolean {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return forwarded === 'https' || new URL(c.req.url).protocol === 'https:'
}

/**
 * True when `origin` names the gateway itself: the host the request was sent to (Host, or the
 * X-Forwarded-Host of a proxy that rewrites Host), or the configured ServerAddress.
 */
export function isOwnOrigin(c: Context, origin: string): boolean {
  const o = canonicalOrigin(origin)
  if (!o) return false
  const host = new URL(o).host.toLowerCase()
  const ctx = c.get('ctx') as AppContext
  const own = [c.req.header('host') ?? new URL(c.req.url).host, c.req.header('x-forwarded-host')?.split(',')[0]?.trim()]
  if (own.some((h) => h?.toLowerCase() === host)) return true
  return canonicalOrigin(ctx.options.get('ServerAddress').replace(/\/+$/, '')) === o
}

/** True when the browser says the request comes from the gateway's own pages (Sec-Fetch-Site), or its Origin does. */
export function isSameOriginRequest(c: Context): boolean {
  const origin = c.req.header('origin')
  return c.req.header('sec-fetch-site') === 'same-origin' || origin === undefined || isOwnOrigin(c, origin)
}
