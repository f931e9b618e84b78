import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { deleteLogsBefore, listLogs, logBatch, type LogFilter, type LogRow } from '../db/logs.ts'
import { heldHours, logStat } from '../db/log-stat.ts'
import { fields, nowSeconds, ok, readQuery, refuse, type Env } from '../http.ts'
import { localeOf, text } from '../i18n/index.ts'
import { csvStream } from '../lib/csv-stream.ts'
import { logColumns, logFileName } from '../lib/log-csv.ts'
import { requireRole } from '../middleware/session.ts'
import { pageSizeQuery, queryInt } from '../lib/query.ts'
import { ROLE } from '../../domain/roles.ts'
import { SECONDS_MAX } from '../../domain/time.ts'

const filterText = (max: number) => z.string().trim().max(max).optional().default('')

/** The filters shared by the log list and the stat, as query parameters. */
const filterQuery = z.object({
  type: queryInt(0, 1000),
  token_name: filterText(128),
  model_name: filterText(255),
  start_timestamp: queryInt(0, SECONDS_MAX),
  end_timestamp: queryInt(0, SECONDS_MAX),
  username: filterText(64),
  channel: queryInt(0, Number.MAX_SAFE_INTEGER),
})

const listQuery = filterQuery.extend({ p: fields.page, page_size: pageSizeQuery })

const deleteQuery = z.object({ target_timestamp: z.string().optional() })

/** The query's filters; username and channel are an administrator's (ignored on the /self calls). */
function filterOf(q: z.infer<typeof filterQuery>, admin: boolean): LogFilter {
  return {
    type: q.type || undefined,
    tokenName: q.token_name || undefined,
    modelName: q.model_name || undefined,
    start: q.start_timestamp || undefined,
    end: q.end_timestamp || undefined,
    username: admin ? q.username || undefined : undefined,
    channel: admin ? q.channel || undefined : undefined,
  }
}

/** A log as its own user may see it: `other` without the administrator's details. */
export function selfLog(row: LogRow): LogRow {
  if (!row.other) return row
  let other: unknown
  try {
    other = JSON.parse(row.other)
  } catch {
    return { ...row, other: '' }
  }
  if (other === null || typeof other !== 'object' || Array.isArray(other)) return row
  if (!('admin_info' in other)) return row
  const { admin_info: _admin, ...rest } = other as Record<string, unknown>
  return { ...row, other: JSON.stringify(rest) }
}

/** DELETE /log/?target_timestamp=: a positive whole number of unix seconds. */
function targetTimestamp(raw: string | undefined): number {
  const field = 'target_timestamp'
  const value = raw?.trim() ?? ''
  if (value === '') refuse(text('log.targetMissing', { field }), { field })
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) refuse(text('log.targetInvalid', { field }), { field })
  return Number(value)
}

/**
 * The filter's rows as a CSV download, streamed in keyset batches as the client reads (issue 15).
 * A GET that changes nothing: the session cookie and the embed bearer both work.
 */
function exportLogs(c: Context<Env>, ctx: AppContext, f: LogFilter, admin: boolean) {
  const display = { currency: ctx.options.bool('DisplayInCurrencyEnabled'), quotaPerUnit: ctx.options.quotaPerUnit }
  const { header, cells } = logColumns(localeOf(c), admin, display)
  const body = csvStream({ header, cells, batch: (beforeId, size) => logBatch(ctx.db, ctx.database.dialect, f, beforeId, size) })
  const name = logFileName(f, !admin)
  return c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
    'cache-control': 'no-store',
  })
}

export function logsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx
  const dialect = ctx.database.dialect
  // the buckets are written every DataExportInterval minutes: the hours they hold end that long
  // (and a minute more) ago
  const held = () => {
    const o = ctx.options
    return heldHours(db, o.bool('DataExportEnabled'), (Math.max(1, o.num('DataExportInterval', 5)) + 1) * 60, nowSeconds())
  }

  app.on('GET', ['/log/', '/log'], admin, async (c) => {
    const q = readQuery(c, listQuery)
    return ok(c, await listLogs(db, dialect, filterOf(q, true), q.p, q.page_size))
  })

  app.on('GET', ['/log/self/', '/log/self'], user, async (c) => {
    const q = readQuery(c, listQuery)
    const rows = await listLogs(db, dialect, { ...filterOf(q, false), userId: c.get('user').id }, q.p, q.page_size)
    return ok(c, rows.map(selfLog))
  })

  app.get('/log/export', admin, (c) => exportLogs(c, ctx, filterOf(readQuery(c, filterQuery), true), true))

  app.get('/log/self/export', user, (c) =>
    exportLogs(c, ctx, { ...filterOf(readQuery(c, filterQuery), false), userId: c.get('user').id }, false),
  )

  app.on('GET', ['/log/stat', '/log/stat/'], admin, async (c) => {
    return ok(c, await logStat(db, dialect, filterOf(readQuery(c, filterQuery), true), await held()))
  })

  app.on('GET', ['/log/self/stat', '/log/self/stat/'], user, async (c) => {
    const q = readQuery(c, filterQuery)
    return ok(c, await logStat(db, dialect, { ...filterOf(q, false), userId: c.get('user').id }, await held()))
  })

  // cleaning the log is an operation setting (spec sections 2 and 6): root only, never an admin
  app.on('DELETE', ['/log/', '/log'], requireRole(ctx, ROLE.root), async (c) => {
    const before = targetTimestamp(readQuery(c, deleteQuery).target_timestamp)
    return ok(c, await deleteLogsBefore(db, before), 'log.cleaned')
  })

  return app
}
