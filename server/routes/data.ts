import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { modelTotals, userBuckets } from '../db/quota-data.ts'
import { fail, nowSeconds, ok, readQuery, refuse, type Env } from '../http.ts'
import { text } from '../i18n/index.ts'
import { requireRole } from '../middleware/session.ts'
import { queryInt } from '../lib/query.ts'
import { ROLE } from '../../domain/roles.ts'
import { DAY, MONTH, SECONDS_MAX } from '../../domain/time.ts'

/** The longest span a user may ask of their own dashboard data. */
export const SELF_SPAN_MAX = MONTH

const rangeQuery = z.object({
  start_timestamp: queryInt(0, SECONDS_MAX),
  end_timestamp: queryInt(0, SECONDS_MAX),
  username: z.string().trim().max(64).optional().default(''),
})

/** The time range asked, in seconds: the end defaults to now, the start to a month before it. */
function range(q: z.infer<typeof rangeQuery>): { start: number; end: number } {
  const end = q.end_timestamp || nowSeconds()
  const start = q.start_timestamp ?? Math.max(0, end - SELF_SPAN_MAX)
  if (start > end) refuse(text('data.endBeforeStart', { field: 'end_timestamp' }), { field: 'end_timestamp' })
  return { start, end }
}

/** The data dashboard: hourly usage buckets (everyone's by model for administrators, or one user's). */
export function dataRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx

  app.on('GET', ['/data/', '/data'], admin, async (c) => {
    const q = readQuery(c, rangeQuery)
    const { start, end } = range(q)
    return ok(c, q.username ? await userBuckets(db, { username: q.username }, start, end) : await modelTotals(db, start, end))
  })

  app.on('GET', ['/data/self', '/data/self/'], user, async (c) => {
    const { start, end } = range(readQuery(c, rangeQuery))
    if (end - start > SELF_SPAN_MAX) return fail(c, text('data.spanTooLong', { days: SELF_SPAN_MAX / DAY }))
    return ok(c, await userBuckets(db, { userId: c.get('user').id }, start, end))
  })

  return app
}
