import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { listTasks, type TaskFilter, type TaskRow } from '../db/tasks.ts'
import { ok, readQuery, type Env } from '../http.ts'
import { localeOf } from '../i18n/index.ts'
import { csvStream } from '../lib/csv-stream.ts'
import { taskColumns, taskFileName } from '../lib/task-csv.ts'
import { requireRole } from '../middleware/session.ts'
import { familyTask } from '../relay/tasks/types.ts'
import { ROLE } from '../../domain/roles.ts'
import { TASK_LIST_PATHS, TASK_PAGE_SIZE } from '../../domain/tasks.ts'

/** Where a URL column is empty, the platform's main `url` stands in for its natural field. */
type UrlField = 'image_url' | 'audio_url' | 'result'

interface TaskList {
  /** path under /api */
  path: string
  /** tasks.platform value */
  platform: string
  /** the name the provider task id goes under, in the query and in the answer */
  idName: string
  /** which of image_url / audio_url / result falls back to `url` */
  urlField: UrlField
  /** the Pika list filters on a sub-platform with the query `platfrom` (spelled so) */
  subPlatform?: boolean
}

/** One list per provider kind of the spec, all served from the one tasks table. */
export const TASK_LISTS: readonly TaskList[] = [
  { path: TASK_LIST_PATHS.midjourney, platform: 'midjourney', idName: 'mj_id', urlField: 'image_url' },
  { path: TASK_LIST_PATHS.suno, platform: 'suno', idName: 'suno_id', urlField: 'audio_url' },
  { path: TASK_LIST_PATHS.luma, platform: 'luma', idName: 'luma_id', urlField: 'result' },
  { path: TASK_LIST_PATHS.lumav2, platform: 'lumav2', idName: 'task_id', urlField: 'result' },
  { path: TASK_LIST_PATHS.viggle, platform: 'viggle', idName: 'viggle_id', urlField: 'result' },
  { path: TASK_LIST_PATHS.runway, platform: 'runway', idName: 'runway_id', urlField: 'result' },
  { path: TASK_LIST_PATHS.pika, platform: 'pika', idName: 'pika_id', urlField: 'result', subPlatform: true },
  { path: TASK_LIST_PATHS.kling, platform: 'kling', idName: 'kling_id', urlField: 'result' },
  { path: TASK_LIST_PATHS.ideo, platform: 'ideogram', idName: 'ideo_id', urlField: 'image_url' },
]

const blankIsNull = (v: unknown) => (v === '' ? null : v)
const optionalInt = (max: number) => z.preprocess(blankIsNull, z.coerce.number().int().min(0).max(max).nullish())
const optionalText = (max: number) => z.string().trim().max(max).optional()

const baseQuery = z.object({
  p: optionalInt(1e9),
  channel_id: optionalInt(Number.MAX_SAFE_INTEGER),
  // seconds, or milliseconds as the family's console sends them for Midjourney
  start_timestamp: optionalInt(1e13),
  end_timestamp: optionalInt(1e13),
  mj_id: optionalText(191),
  task_id: optionalText(191),
  platfrom: optionalText(32),
})

/** The list's query: the common fields plus the provider task id under the platform's name. */
function querySchema(list: TaskList) {
  return baseQuery.extend({ [list.idName]: optionalText(191) }) as unknown as z.ZodType<
    z.infer<typeof baseQuery> & { [id: string]: unknown }
  >
}

function parseData(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Whole seconds between two millisecond times, or 0 when either is missing. */
function secondsBetween(from: number, to: number): number {
  return from > 0 && to > 0 && to >= from ? Math.round((to - from) / 1000) : 0
}

/**
 * A task as the console's lists show it. qtime is the time spent queued (submit to start) and
 * duration the time until it finished (submit to finish), both in seconds; video_duration is the
 * length of the produced media. channel_id and user_id only go to administrators.
 */
export function taskView(row: TaskRow, list: TaskList, admin: boolean) {
  const fallback = (field: UrlField) => row[field] || (list.urlField === field ? row.url : '')
  return {
    id: row.id,
    created_at: row.created_at,
    ...(admin ? { channel_id: row.channel_id, user_id: row.user_id } : {}),
    platform: row.platform,
    ...(list.subPlatform ? { sub_platform: row.sub_platform } : {}),
    action: row.action,
    [list.idName]: row.task_id,
    code: row.code,
    status: row.status,
    progress: row.progress,
    url: row.url,
    image_url: fallback('image_url'),
    audio_url: fallback('audio_url'),
    result: fallback('result'),
    prompt: row.prompt,
    prompt_en: row.prompt_en,
    description: row.description,
    fail_reason: row.fail_reason,
    title: row.title,
    text: row.text,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    qtime: secondsBetween(row.submit_time, row.start_time),
    duration: secondsBetween(row.submit_time, row.finish_time),
    video_duration: row.video_duration,
    data: parseData(row.data),
  }
}

/** A bound in milliseconds: values from 1e11 up are milliseconds already (1e11 seconds is the year 5138). */
function toMs(v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined
  return v >= 1e11 ? v : v * 1000
}

/** The filters a list's query asks for; channel_id is an administrator's (ignored on /self). */
function filterOf(list: TaskList, q: z.infer<typeof baseQuery> & { [id: string]: unknown }, admin: boolean): TaskFilter {
  return {
    platform: list.platform,
    channelId: admin ? (q.channel_id ?? undefined) : undefined,
    taskId: (q[list.idName] as string | undefined) || q.mj_id || q.task_id || undefined,
    subPlatform: list.subPlatform ? q.platfrom || undefined : undefined,
    submittedFrom: toMs(q.start_timestamp),
    submittedTo: toMs(q.end_timestamp),
  }
}

/**
 * A task list's filter as a CSV download (issue 15), streamed in keyset batches as the client
 * reads, newest first like the list. A GET that changes nothing, as the log export.
 */
function exportTasks(c: Context<Env>, ctx: AppContext, list: TaskList, filter: TaskFilter, self: boolean) {
  const { header, cells } = taskColumns(localeOf(c), !self, !!list.subPlatform)
  const body = csvStream({
    header,
    cells,
    batch: (beforeId, size) => listTasks(ctx.db, ctx.database.dialect, { ...filter, beforeId }, 0, size),
  })
  return c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${taskFileName(filter, self)}"`,
    'cache-control': 'no-store',
  })
}

export function tasksRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)

  for (const list of TASK_LISTS) {
    const schema = querySchema(list)
    const handler = (self: boolean) => async (c: Context<Env>) => {
      const q = readQuery(c, schema)
      const filter = { ...filterOf(list, q, !self), userId: self ? c.get('user').id : undefined }
      const rows = await listTasks(ctx.db, ctx.database.dialect, filter, q.p ?? 0, TASK_PAGE_SIZE)
      return ok(
        c,
        rows.map((r) => taskView(r, list, !self)),
      )
    }
    for (const suffix of ['', '/']) {
      app.get(`${list.path}/self${suffix}`, user, handler(true))
      app.get(`${list.path}${suffix}`, admin, handler(false))
    }
    const exporter = (self: boolean) => (c: Context<Env>) => {
      const filter = { ...filterOf(list, readQuery(c, schema), !self), userId: self ? c.get('user').id : undefined }
      return exportTasks(c, ctx, list, filter, self)
    }
    app.get(`${list.path}/self/export`, user, exporter(true))
    app.get(`${list.path}/export`, admin, exporter(false))
  }

  familyTaskList(app, ctx, admin, user)
  return app
}

const familyQuery = baseQuery.extend({ platform: optionalText(32), status: optionalText(32), action: optionalText(64) })

/** A task as the family's /api/task/ answers it: the row, times in seconds, channel_id to administrators. */
export function familyTaskView(row: TaskRow, admin: boolean) {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    platform: row.platform,
    user_id: row.user_id,
    ...(admin ? { channel_id: row.channel_id } : {}),
    quota: row.quota,
    ...familyTask(row),
    properties: parseData(row.properties),
  }
}

/** The family's generic list over every platform but Midjourney: GET /api/task/ (admin) and /api/task/self. */
function familyTaskList(app: Hono<Env>, ctx: AppContext, admin: MiddlewareHandler<Env>, user: MiddlewareHandler<Env>) {
  const handler = (self: boolean) => async (c: Context<Env>) => {
    const q = readQuery(c, familyQuery)
    const rows = await listTasks(
      ctx.db,
      ctx.database.dialect,
      {
        platform: q.platform || undefined,
        otherThan: 'midjourney',
        userId: self ? c.get('user').id : undefined,
        channelId: self ? undefined : (q.channel_id ?? undefined),
        taskId: q.task_id || undefined,
        status: q.status || undefined,
        action: q.action || undefined,
        submittedFrom: toMs(q.start_timestamp),
        submittedTo: toMs(q.end_timestamp),
      },
      q.p ?? 0,
      TASK_PAGE_SIZE,
    )
    return ok(
      c,
      rows.map((r) => familyTaskView(r, !self)),
    )
  }
  for (const suffix of ['', '/']) {
    app.get(`/task/self${suffix}`, user, handler(true))
    app.get(`/task${suffix}`, admin, handler(false))
  }
}
