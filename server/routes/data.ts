import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { modelTotalsJson, userBucketsJson } from '../db/quota-data.ts'
import { dashboardPieces, DayJsonCache, type DashboardScope } from '../db/dashboard-days.ts'
import { breakdown, BREAKDOWN_BY, BREAKDOWN_PERIODS, type BreakdownPeriod } from '../db/breakdowns.ts'
import { fail, nowSeconds, ok, okJsonPieces, readQuery, refuse, type Env } from '../http.ts'
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

/** The longest span of a breakdown (from the buckets: a 90-day range stays cheap). */
export const BREAKDOWN_SPAN_MAX = 92 * DAY

const breakdownQuery = rangeQuery.extend({
  by: z.enum(BREAKDOWN_BY).optional().default('model'),
  granularity: z
    .enum(Object.keys(BREAKDOWN_PERIODS) as [BreakdownPeriod, ...BreakdownPeriod[]])
    .optional()
    .default('hour'),
  top: queryInt(1, 20),
  /** seconds east of UTC where the viewer's days begin */
  tz_offset: queryInt(-14 * 3600, 14 * 3600),
})

/** The time range asked, in seconds: the end defaults to now, the start to a month before it. */
function range(q: z.infer<typeof rangeQuery>): { start: number; end: number } {
  const end = q.end_timestamp || nowSeconds()
  const start = q.start_timestamp ?? Math.max(0, end - SELF_SPAN_MAX)
  if (start > end) refuse(text('data.endBeforeStart', { field: 'end_timestamp' }), { field: 'end_timestamp' })
  return { start, end }
}

/**
 * What the dashboard keeps of closed days' JSON (dashboard-days.ts): some 25 months of everyone's
 * buckets at ten million requests a month, or as many heavy users' months.
 */
const KEPT_DAYS_BYTES = 64 * 1024 * 1024

/** The data dashboard: hourly usage buckets (everyone's by model for administrators, or one user's). */
export function dataRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx

  const { dialect } = ctx.database
  const days = new DayJsonCache(KEPT_DAYS_BYTES)
  const buckets = (scope: DashboardScope, start: number, end: number) =>
    dashboardPieces(db, days, scope, start, end, (s, e) =>
      'models' in scope ? modelTotalsJson(db, dialect, s, e) : userBucketsJson(db, dialect, scope, s, e),
    )

  app.on('GET', ['/data/', '/data'], admin, async (c) => {
    const q = readQuery(c, rangeQuery)
    const { start, end } = range(q)
    return okJsonPieces(c, await buckets(q.username ? { username: q.username } : { models: true }, start, end))
  })

  app.on('GET', ['/data/self', '/data/self/'], user, async (c) => {
    const { start, end } = range(readQuery(c, rangeQuery))
    if (end - start > SELF_SPAN_MAX) return fail(c, text('data.spanTooLong', { days: SELF_SPAN_MAX / DAY }))
    return okJsonPieces(c, await buckets({ userId: c.get('user').id }, start, end))
  })

  app.get('/data/breakdown', admin, async (c) => {
    const q = readQuery(c, breakdownQuery)
    let userId: number | undefined
    if (q.username) {
      const found = await db.selectFrom('users').select('id').where('username', '=', q.username).executeTakeFirst()
      userId = found?.id ?? 0
    }
    return ok(c, await breakdown(db, ctx.database.dialect, ask(q, userId)))
  })

  app.get('/data/self/breakdown', user, async (c) => {
    const q = readQuery(c, breakdownQuery)
    if (q.by !== 'model' && q.by !== 'token') refuse(text('data.byNotAllowed', { field: 'by' }), { field: 'by' })
    return ok(c, await breakdown(db, ctx.database.dialect, ask(q, c.get('user').id)))
  })

  return app
}

function ask(q: z.infer<typeof breakdownQuery>, userId: number | undefined) {
  const { start, end } = range(q)
  if (end - start > BREAKDOWN_SPAN_MAX) refuse(text('data.spanTooLong', { days: BREAKDOWN_SPAN_MAX / DAY }))
  return { by: q.by, period: q.granularity, start, end, offset: q.tz_offset ?? 0, top: q.top ?? 8, userId }
}
