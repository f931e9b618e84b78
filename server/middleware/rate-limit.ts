import type { MiddlewareHandler } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import { ApiError, type Env } from '../http.ts'
import type { AppContext } from '../context.ts'

/** Fixed-window counters per client address, kept in memory. */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>()

  hit(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    const w = this.windows.get(key)
    if (!w || now - w.start >= windowMs) {
      if (this.windows.size > 100_000) this.sweep(now, windowMs)
      this.windows.set(key, { start: now, count: 1 })
      return true
    }
    w.count++
    return w.count <= limit
  }

  private sweep(now: number, windowMs: number) {
    for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k)
  }
}

export function clientAddress(c: Parameters<MiddlewareHandler>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || 'local'
  }
}

export function rateLimit(limiter: RateLimiter, bucket: string, limit: () => number, windowSeconds: () => number): MiddlewareHandler<Env> {
  return async function rateLimitHandler(c, next) {
    if (limit() > 0 && !limiter.hit(`${bucket}:${clientAddress(c)}`, limit(), windowSeconds() * 1000)) {
      throw new ApiError(429, 'rate.tooMany')
    }
    await next()
  }
}

/** The stricter limit of the sign-in calls (login, register, verification, reset, OAuth), per client address. */
export function criticalRateLimit(ctx: AppContext): MiddlewareHandler<Env> {
  return rateLimit(
    ctx.limiter,
    'critical',
    () => ctx.config.criticalRateLimit,
    () => ctx.config.criticalRateWindowSeconds,
  )
}
