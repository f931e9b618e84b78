/**
 * Viggle (type 45) in the shapes the family's client uses: POST /viggle/video-task answers
 * `{data:{taskID}}` (a `code` other than 0 refuses); POST /viggle/video-task/by-ids `{ids}`
 * answers `{data:[{taskID, status, result, resultCover, videoDuration, …}]}`, status 0 done
 * (the spec's lists read Viggle's 0 as success), 2 failed (ours, the spec's failure label),
 * anything else running. A submit goes to the channel's `/pro` pool when the client asks for it
 * (`/pro/viggle/…`) or ViggleProEnabled is on; the task remembers its pool (sub_platform `pro`).
 * The poller asks each pool of a channel for all its tasks in one by-ids call; the client's
 * by-ids and GET /viggle/video-task/{id} (ours) answer from the table.
 */
import { field, num, str, upstreamJson, type Phase, type TaskPoll, type TaskUpdate } from './types.ts'
import { restRefuse, type RestPlatform } from './rest.ts'
import { findTasks, type TaskRow } from '../../db/tasks.ts'
import { callerOf, taskHandler } from './submit.ts'
import type { OptionStore } from '../../options.ts'

const inPro = (path: string, o: OptionStore) => path.startsWith('/pro/') || o.bool('ViggleProEnabled')
const poolOf = (row: TaskRow) => (row.sub_platform === 'pro' ? '/pro' : '')

/** A task item as stored (the last by-ids item, or the submit's answer until the first poll). */
function itemOf(row: TaskRow): unknown {
  try {
    const v = JSON.parse(row.data || '{}')
    return field(v, 'taskID') !== undefined ? v : { taskID: row.task_id, status: row.status === '0' ? 0 : 1 }
  } catch {
    return { taskID: row.task_id }
  }
}

/** What one by-ids item says. */
export function viggleUpdate(item: unknown): TaskUpdate {
  const status = str(field(item, 'status'))
  const phase: Phase = status === '0' ? 'success' : status === '2' ? 'failure' : 'running'
  const url = str(field(item, 'result'))
  return {
    taskId: str(field(item, 'taskID')),
    phase,
    changes: {
      status,
      progress: phase === 'running' ? '50%' : '100%',
      data: JSON.stringify(item),
      ...(url ? { result: url, url } : {}),
      ...(str(field(item, 'resultCover')) ? { image_url: str(field(item, 'resultCover')) } : {}),
      ...(num(field(item, 'videoDuration')) ? { video_duration: num(field(item, 'videoDuration')) } : {}),
      ...(phase === 'failure' ? { fail_reason: str(field(item, 'errMsg')) || 'the video could not be made' } : {}),
    },
  }
}

export const vigglePoll: TaskPoll = {
  channelTypes: [45],
  async poll(ch, at, tasks, signal) {
    const updates: TaskUpdate[] = []
    for (const pool of ['', '/pro']) {
      const ids = tasks.filter((t) => poolOf(t) === pool).map((t) => t.task_id)
      if (ids.length === 0) continue
      const answer = await upstreamJson(
        `${at.base}${pool}/viggle/video-task/by-ids`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${ch.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ids }),
        },
        signal,
        at,
      )
      const list = field(answer, 'data')
      if (!Array.isArray(list)) throw new Error('viggle by-ids answered without a data list')
      updates.push(...list.map(viggleUpdate))
    }
    return updates
  },
}

export const vigglePlatform: RestPlatform = {
  platform: 'viggle',
  channelTypes: [45],
  submits: ['', '/pro'].map((pool) => ({ path: `${pool}/viggle/video-task`, action: () => 'vg_generate', model: () => 'vg_generate' })),
  fetches: [],
  taskIdOf: (json) => (num(field(json, 'code')) === 0 ? str(field(json, 'data', 'taskID')) : ''),
  fetchPath: (row) => `${poolOf(row)}/viggle/video-task/by-ids`,
  read: (json) => viggleUpdate(json),
  poll: vigglePoll,
  upstreamPath: (path, o) => (inPro(path, o) && !path.startsWith('/pro/') ? `/pro${path}` : path),
  subPlatformOf: (path, o) => (inPro(path, o) ? 'pro' : ''),
  routes(app, engine) {
    for (const pool of ['', '/pro']) {
      app.post(
        `${pool}/viggle/video-task/by-ids`,
        taskHandler(restRefuse, async (c) => {
          const caller = await callerOf(engine, c)
          const ids = field(await c.req.json().catch(() => null), 'ids')
          const rows = await findTasks(engine.ctx.db, 'viggle', Array.isArray(ids) ? ids.map(str).filter(Boolean) : [], caller.user.id)
          return Response.json({ code: 0, data: rows.map(itemOf) })
        }),
      )
      app.get(
        `${pool}/viggle/video-task/:id`,
        taskHandler(restRefuse, async (c) => {
          const caller = await callerOf(engine, c)
          const [row] = await findTasks(engine.ctx.db, 'viggle', [c.req.param('id') ?? ''], caller.user.id)
          if (!row) return restRefuse(404, 'task_not_found', 'task not found')
          return Response.json({ code: 0, data: itemOf(row) })
        }),
      )
    }
  },
}
