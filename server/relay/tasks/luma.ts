/**
 * Luma (type 43) and Luma v2 (type 57) in Luma's generation objects: POST /luma/generations and
 * /luma/generations/:id/extend; GET /luma/generations/:id. Luma v2 is the same protocol behind the
 * `/pro` prefix (the family's "pro" pool), forwarded without it. States: queued, dreaming,
 * completed, failed; the video at `video.url` or `assets.video`. POST /luma/tasks (the fork's
 * `luma_video_fetch_tasks`) is a batch fetch from the table: `{ids}` or a bare array of ids, answered
 * with the generations of the caller's own tasks among them, in the order asked.
 */
import { field, num, phaseOf, str } from './types.ts'
import { lastAnswer, restRefuse, type RestPlatform } from './rest.ts'
import { findTask, findTasks } from '../../db/tasks.ts'
import { callerOf, taskHandler, TaskError } from './submit.ts'

function read(json: unknown) {
  const state = str(field(json, 'state'))
  const phase = phaseOf(state, ['completed'], ['failed'])
  const url = str(field(json, 'video', 'url')) || str(field(json, 'assets', 'video'))
  return {
    phase,
    changes: {
      status: state,
      progress: phase === 'running' ? (state === 'dreaming' ? '50%' : '0%') : '100%',
      data: JSON.stringify(json),
      ...(url ? { result: url, url } : {}),
      ...(str(field(json, 'thumbnail', 'url')) ? { image_url: str(field(json, 'thumbnail', 'url')) } : {}),
      ...(str(field(json, 'failure_reason')) ? { fail_reason: str(field(json, 'failure_reason')) } : {}),
      ...(num(field(json, 'video', 'duration')) ? { video_duration: num(field(json, 'video', 'duration')) } : {}),
    },
  }
}

/** The most ids one batch fetch takes (the table reads at most this many at once). */
const MAX_IDS = 500

/** The ids of a batch fetch's body: `{"ids": [...]}` or a bare array of strings, each once, in order. */
export function batchIds(body: unknown): string[] {
  const ids = Array.isArray(body) ? body : field(body, 'ids')
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 191))
    throw new TaskError(400, 'invalid_request', 'the body must be {"ids": ["<generation id>", …]} or a JSON array of generation ids')
  if (ids.length > MAX_IDS) throw new TaskError(400, 'invalid_request', `at most ${MAX_IDS} ids at a time`)
  return [...new Set(ids as string[])]
}

function luma(pool: '' | '/pro', platform: string, generate: string, extend: string, types: number[]): RestPlatform {
  return {
    platform,
    channelTypes: types,
    submits: [
      { path: `${pool}/luma/generations`, action: () => generate, model: () => generate },
      { path: `${pool}/luma/generations/:id/extend`, action: () => 'luma_extend', model: () => extend, origin: 'id' },
    ],
    fetches: [`${pool}/luma/generations/:id`],
    taskIdOf: (json) => str(field(json, 'id')),
    fetchPath: (row) => `/luma/generations/${encodeURIComponent(row.task_id)}`,
    read,
    upstreamPath: (path) => path.slice(pool.length),
    routes(app, engine) {
      // a batch fetch from the table: never forwarded, never charged
      app.post(
        `${pool}/luma/tasks`,
        taskHandler(restRefuse, async (c) => {
          const caller = await callerOf(engine, c)
          const ids = batchIds(await c.req.json().catch(() => null))
          // newest last, so a task id recorded twice answers as its newest row (as the single fetch)
          const found = (await findTasks(engine.ctx.db, platform, ids, caller.user.id)).reverse()
          const rows = new Map(found.map((r) => [r.task_id, r]))
          return Response.json(ids.flatMap((id) => (rows.has(id) ? [lastAnswer(rows.get(id)!)] : [])))
        }),
      )
      // the family's client asks where to download a finished video: {url} from the table
      app.get(
        `${pool}/luma/generations/:id/download_video_url`,
        taskHandler(restRefuse, async (c) => {
          const caller = await callerOf(engine, c)
          const row = await findTask(engine.ctx.db, platform, c.req.param('id') ?? '', caller.user.id)
          if (!row?.url) throw new TaskError(404, 'task_not_found', row ? 'the video is not ready' : 'task not found')
          return Response.json({ url: row.url })
        }),
      )
    },
  }
}

export const lumaPlatform = luma('', 'luma', 'luma_generate', 'luma_extend', [43])
export const lumaV2Platform = luma('/pro', 'lumav2', 'luma_v2_generate', 'luma_v2_extend', [57])
