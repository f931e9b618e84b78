import { Hono } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { Refusal, fail, nowSeconds, ok, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { ROLE } from '../../domain/roles.ts'
import { queryInt } from '../lib/query.ts'
import { MONTH, SECONDS_MAX } from '../../domain/time.ts'

/** The longest span a user may ask of their own dashboard data. */
export const SELF_SPAN_MAX = MONTH

const rangeQuery = z.object({
  start_timestamp: queryInt(0, SECONDS_MAX),
  end_timestamp: queryInt(0, SECONDS_MAX),
  username: z.string().trim().max(64).optional().default(''),
})

function range(q: z.infer<typeof rangeQuery>, defaultSpan: number): { start: number; end: number } {
  const end = q.end_timestamp || nowSeconds()
  const start = q.start_timestamp ?? Math.max(0, end - defaultSpan)
  if (start > end) throw new Refusal('end_timestamp must not be before start_timestamp', { field: 'end_timestamp' })
  return { start, end }
}

export function dataRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx

  app.on('GET', ['/data/', '/data'], admin, async (c) => {
    const q = readQuery(c, rangeQuery)
    const { start, end } = range(q, SELF_SPAN_MAX)
    if (q.username) {
      const rows = await db
        .selectFrom('quota_data')
        .select(['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'])
        .where('username', '=', q.username)
        .where('created_at', '>=', start)
        .where('created_at', '<=', end)
        .orderBy('created_at')
        .orderBy('model_name')
        .execute()
      return ok(c, rows)
    }
    const rows = await db
      .selectFrom('quota_data')
      .select([
        'model_name',
        'created_at',
        sql<number>`sum(count)`.as('count'),
        sql<number>`sum(quota)`.as('quota'),
        sql<number>`sum(token_used)`.as('token_used'),
      ])
      .where('created_at', '>=', start)
      .where('created_at', '<=', end)
      .groupBy(['model_name', 'created_at'])
      .orderBy('created_at')
      .orderBy('model_name')
      .execute()
    return ok(
      c,
      rows.map((r) => ({ ...r, count: Number(r.count), quota: Number(r.quota), token_used: Number(r.token_used) })),
    )
  })

  app.on('GET', ['/data/self', '/data/self/'], user, async (c) => {
    const q = readQuery(c, rangeQuery)
    const { start, end } = range(q, SELF_SPAN_MAX)
    if (end - start > SELF_SPAN_MAX) return fail(c, 'the time span is too long: at most 30 days at a time')
    const rows = await db
      .selectFrom('quota_data')
      .select(['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'])
      .where('user_id', '=', c.get('user').id)
      .where('created_at', '>=', start)
      .where('created_at', '<=', end)
      .orderBy('created_at')
      .orderBy('model_name')
      .execute()
    return ok(c, rows)
  })

  return app
}
