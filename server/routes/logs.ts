import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { ok, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { ROLE } from '../../domain/roles.ts'
import { filterFromQuery, listLogs, logFilterQuery, logListQuery, logStat, selfLog } from '../lib/logs.ts'

const deleteQuery = z.object({
  target_timestamp: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^\d{1,12}$/, 'must be a positive integer (unix seconds)')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be a positive integer (unix seconds)')),
})

export function logsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx
  const dialect = ctx.database.dialect

  app.on('GET', ['/log/', '/log'], admin, async (c) => {
    const q = readQuery(c, logListQuery)
    return ok(c, await listLogs(db, dialect, filterFromQuery(q, true), q.p, q.page_size))
  })

  app.on('GET', ['/log/self/', '/log/self'], user, async (c) => {
    const q = readQuery(c, logListQuery)
    const rows = await listLogs(db, dialect, { ...filterFromQuery(q, false), userId: c.get('user').id }, q.p, q.page_size)
    return ok(c, rows.map(selfLog))
  })

  app.on('GET', ['/log/stat', '/log/stat/'], admin, async (c) => {
    const q = readQuery(c, logFilterQuery)
    return ok(c, await logStat(db, dialect, filterFromQuery(q, true)))
  })

  app.on('GET', ['/log/self/stat', '/log/self/stat/'], user, async (c) => {
    const q = readQuery(c, logFilterQuery)
    return ok(c, await logStat(db, dialect, { ...filterFromQuery(q, false), userId: c.get('user').id }))
  })

  app.on('DELETE', ['/log/', '/log'], admin, async (c) => {
    const { target_timestamp } = readQuery(c, deleteQuery)
    const r = await db.deleteFrom('logs').where('created_at', '<', target_timestamp).executeTakeFirst()
    return ok(c, Number(r.numDeletedRows), 'logs cleaned')
  })

  return app
}
