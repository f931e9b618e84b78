/**
 * The Suno relay (channel type 41) in the family's own task protocol: POST /suno/submit/{music,
 * lyrics} forwarded to the channel's `/suno/submit/{ACTION}` with a bearer key, answered
 * `{code:"success", message, data:"<task id>"}`; POST /suno/fetch {ids} and GET /suno/fetch/:id
 * read our table (times in seconds). The poller asks the channel's `/suno/fetch` in one call.
 */
import type { Hono, Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import { countUnfinished, findTask, findTasks } from '../../db/tasks.ts'
import { callerOf, submitTask, taskHandler, TaskError } from './submit.ts'
import { familyTask, field, num, str, upstreamJson, type Phase, type TaskPoll, type TaskUpdate } from './types.ts'
import type { Caller } from '../authenticate.ts'
import { pollSunoWeb } from './suno-web.ts'

const PLATFORM = 'suno'
/** Suno's model when the body names none */
export const SUNO_DEFAULT_MV = 'chirp-v3-0'
/** our action kinds (the spec's Suno list) by the family's submit action */
const ACTIONS: Record<string, { action: string; model: string }> = {
  music: { action: 'suno_generate', model: 'suno_music' },
  lyrics: { action: 'suno_lyrics', model: 'suno_lyrics' },
}

function refuse(status: number, code: string | number, message: string): Response {
  return Response.json({ code: String(code), message, data: null }, { status: status >= 400 ? status : 400 })
}

const auth = (ch: ChannelState) => ({ authorization: `Bearer ${ch.key}` })

/** SunoLimit: at most n unfinished Suno tasks per user of a group (both Suno protocols count). */
export async function checkSunoLimit(engine: RelayEngine, caller: Caller): Promise<void> {
  const limit = num((engine.ctx.options.json('SunoLimit', {}) as Record<string, unknown>)[caller.group])
  if (limit > 0 && (await countUnfinished(engine.ctx.db, PLATFORM, caller.user.id)) >= limit)
    throw new TaskError(429, 'too_many_tasks', `at most ${limit} Suno tasks may run at once in the group ${caller.group}`)
}

async function submit(engine: RelayEngine, c: Context<Env>): Promise<Response> {
  const caller = await callerOf(engine, c)
  const kind = (c.req.param('action') ?? '').toLowerCase()
  const a = ACTIONS[kind]
  if (!a) throw new TaskError(400, 'invalid_action', `unknown Suno action: ${kind}`)
  const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null
  if (!body || typeof body !== 'object') throw new TaskError(400, 'invalid_request', 'the body must be a JSON object')
  if (kind === 'lyrics' && !str(body.prompt)) throw new TaskError(400, 'invalid_request', 'prompt is required for lyrics')
  if (kind === 'music' && !str(body.mv)) body.mv = SUNO_DEFAULT_MV
  await checkSunoLimit(engine, caller)
  let channelId: number | undefined
  if (str(body.continue_clip_id)) {
    const origin = await findTask(engine.ctx.db, PLATFORM, str(body.task_id), caller.user.id)
    if (!origin) throw new TaskError(400, 'task_not_found', 'the task to continue was not found')
    channelId = origin.channel_id
  }
  const r = await submitTask(engine, caller, {
    platform: PLATFORM,
    action: a.action,
    model: a.model,
    channelId,
    path: `/suno/submit/${kind}`,
    body: JSON.stringify(body),
    auth,
    prompt: str(body.prompt) || str(body.gpt_description_prompt),
    properties: JSON.stringify({ input: body }),
    accepted: (_s, json) =>
      str(field(json, 'code')) === 'success' && str(field(json, 'data')) ? { taskId: str(field(json, 'data')) } : null,
  })
  if (!r.row) return refuse(r.status, str(field(r.json, 'code')) || 'upstream_error', str(field(r.json, 'message')) || r.text.slice(0, 200))
  return new Response(r.text, { headers: { 'content-type': 'application/json' } })
}

/** What the channel's fetch says about one task, as columns (the first clip's media and title). */
export function sunoUpdate(dto: unknown): TaskUpdate {
  const status = str(field(dto, 'status'))
  const phase: Phase = status === 'SUCCESS' ? 'success' : status === 'FAILURE' || str(field(dto, 'fail_reason')) ? 'failure' : 'running'
  const changes: TaskUpdate['changes'] = { status: phase === 'failure' ? 'FAILURE' : status }
  const progress = str(field(dto, 'progress'))
  if (progress) changes.progress = progress
  const reason = str(field(dto, 'fail_reason'))
  if (reason) changes.fail_reason = reason
  for (const [col, key] of [
    ['start_time', 'start_time'],
    ['finish_time', 'finish_time'],
  ] as const) {
    const v = num(field(dto, key))
    if (v > 0) changes[col] = v * 1000
  }
  const data = field(dto, 'data')
  if (data !== undefined && data !== null) {
    changes.data = JSON.stringify(data)
    const clip = Array.isArray(data) ? data[0] : data
    if (str(field(clip, 'audio_url'))) changes.audio_url = str(field(clip, 'audio_url'))
    if (str(field(clip, 'image_url'))) changes.image_url = str(field(clip, 'image_url'))
    if (str(field(clip, 'title'))) changes.title = str(field(clip, 'title'))
    if (str(field(clip, 'text'))) changes.text = str(field(clip, 'text'))
    const seconds = num(field(clip, 'metadata', 'duration'))
    if (seconds > 0) changes.video_duration = seconds
  }
  return { taskId: str(field(dto, 'task_id')), phase, changes }
}

export const sunoPoll: TaskPoll = {
  channelTypes: [41],
  async poll(ch, at, tasks, signal) {
    const web = tasks.filter((t) => t.sub_platform)
    const own = tasks.filter((t) => !t.sub_platform)
    const updates = web.length ? await pollSunoWeb(ch, at, web, signal) : []
    if (own.length === 0) return updates
    const answer = await upstreamJson(
      `${at.base}/suno/fetch`,
      {
        method: 'POST',
        headers: { ...auth(ch), 'content-type': 'application/json' },
        body: JSON.stringify({ ids: own.map((t) => t.task_id), action: '' }),
      },
      signal,
      at,
    )
    const list = field(answer, 'data')
    if (str(field(answer, 'code')) !== 'success' || !Array.isArray(list))
      throw new Error(`suno fetch failed: ${str(field(answer, 'message'))}`)
    return [...updates, ...list.map(sunoUpdate)]
  },
}

export function sunoRoutes(app: Hono<Env>, engine: RelayEngine): void {
  app.post(
    '/suno/submit/:action',
    taskHandler(refuse, (c) => submit(engine, c)),
  )
  app.post(
    '/suno/fetch',
    taskHandler(refuse, async (c) => {
      const caller = await callerOf(engine, c)
      const ids = field(await c.req.json().catch(() => null), 'ids')
      const rows = await findTasks(engine.ctx.db, PLATFORM, Array.isArray(ids) ? ids.map(str).filter(Boolean) : [], caller.user.id)
      return Response.json({ code: 'success', message: '', data: rows.map(familyTask) })
    }),
  )
  app.get(
    '/suno/fetch/:id',
    taskHandler(refuse, async (c) => {
      const caller = await callerOf(engine, c)
      const row = await findTask(engine.ctx.db, PLATFORM, c.req.param('id') ?? '', caller.user.id)
      if (!row) throw new TaskError(404, 'task_not_exist', 'task_not_exist')
      return Response.json({ code: 'success', message: '', data: familyTask(row) })
    }),
  )
}
