import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { listTasks, type TaskFilter, type TaskRow } from '../db/tasks.ts'
import { ok, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { ROLE } from '../../domain/roles.ts'

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
  { path: '/mj', platform: 'midjourney', idName: 'mj_id', urlField: 'image_url' },
  { path: '/suno', platform: 'suno', idName: 'suno_id', urlField: 'audio_url' },
  { path: '/luma', platform: 'luma', idName: 'luma_id', urlField: 'result' },
  { path: '/luma/v2', platform: 'lumav2', idName: 'task_id', urlField: 'result' },
  { path: '/viggle', platform: 'viggle', idName: 'viggle_id', urlField: 'result' },
  { path: '/runway', platform: 'runway', idName: 'runway_id', urlField: 'result' },
  { path: '/pika', platform: 'pika', idName: 'pika_id', urlField: 'result', subPlatform: true },
  { path: '/kling', platform: 'kling', idName: 'kling_id', urlField: 'result' },
  { path: '/ideo', platform: 'ideogram', idName: 'ideo_id', urlField: 'image_url' },
]

export const TASK_PAGE_SIZE = 10

const blankIsNull = (v: unknown) => (v === '' ? null : v)
const optionalInt = (max: number) => z.preprocess(blankIsNull, z.coerce.number().int().min(0).max(max).nullish())
const optionalText = (max: number) => z.string().trim().max(max).optional()

const baseQuery = z.object({
  p: optionalInt(1e9),
  channel_id: optionalInt(Number.MAX_SAFE_INTEGER),
  // seconds; submit_time is kept in milliseconds
  start_timestamp: optionalInt(1e11),
  end_timestamp: optionalInt(1e11),
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

/** The filters a list's query asks for; channel_id is an administrator's (ignored on /self). */
function filterOf(list: TaskList, q: z.infer<typeof baseQuery> & { [id: string]: unknown }, admin: boolean): TaskFilter {
  const seconds = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v * 1000)
  return {
    platform: list.platform,
    channelId: admin ? (q.channel_id ?? undefined) : undefined,
    taskId: (q[list.idName] as string | undefined) || q.mj_id || q.task_id || undefined,
    subPlatform: list.subPlatform ? q.platfrom || undefined : undefined,
    // seconds on the wire; submit_time is kept in milliseconds
    submittedFrom: seconds(q.start_timestamp),
    submittedTo: seconds(q.end_timestamp),
  }
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
      const rows = await listTasks(ctx.db, filter, q.p ?? 0, TASK_PAGE_SIZE)
      return ok(
        c,
        rows.map((r) => taskView(r, list, !self)),
      )
    }
    for (const suffix of ['', '/']) {
      app.get(`${list.path}/self${suffix}`, user, handler(true))
      app.get(`${list.path}${suffix}`, admin, handler(false))
    }
  }

  return app
}
