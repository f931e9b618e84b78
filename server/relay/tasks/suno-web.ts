/**
 * Suno's web API paths, as the family's own client sends them to a Suno channel (type 41) beside
 * the task protocol of suno.ts (server-semantics §14, the fork's paths): POST /suno/generate and
 * /suno/generate/description-mode (priced by the body's `mv`, default chirp-v3-5) answer Suno's
 * generation `{id, clips:[…]}`; POST /suno/generate/lyrics answers `{id}` (chirp-lyrics); GET
 * /suno/feed/{clip ids, comma-separated} and /suno/lyrics/{id} are answered from our table. A
 * generation is one task (its id; its clips in `data`, sub_platform `web`), a lyrics job one task
 * (sub_platform `lyrics`). The poller asks the channel's /suno/feed/{clip ids} (all of a channel's
 * generations in one call) and /suno/lyrics/{id}.
 */
import type { Hono, Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import { findTask, type TaskRow } from '../../db/tasks.ts'
import { callerOf, submitTask, taskHandler, TaskError } from './submit.ts'
import { checkSunoLimit } from './suno.ts'
import { restRefuse } from './rest.ts'
import { field, num, str, upstreamJson, type Phase, type Reach, type TaskUpdate } from './types.ts'

const PLATFORM = 'suno'
export const WEB = 'web'
export const LYRICS = 'lyrics'
/** the model of a generation whose body names none (the fork's default) */
export const SUNO_WEB_DEFAULT_MV = 'chirp-v3-5'
/** Suno's clip ids are UUIDs: nothing a LIKE pattern would read as a wildcard */
const CLIP_ID = /^[A-Za-z0-9-]{1,100}$/

const auth = (ch: ChannelState) => ({ authorization: `Bearer ${ch.key}` })

const clipsOf = (row: TaskRow): Array<Record<string, unknown>> => {
  try {
    const v = JSON.parse(row.data || '[]')
    return Array.isArray(v) ? v : []
  } catch {
    return []
  }
}

/** The caller's generations that hold these clips. */
async function rowsWithClips(engine: RelayEngine, userId: number, ids: string[]): Promise<TaskRow[]> {
  const wanted = ids.filter((id) => CLIP_ID.test(id))
  if (wanted.length === 0) return []
  return engine.ctx.db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', PLATFORM)
    .where('sub_platform', '=', WEB)
    .where('user_id', '=', userId)
    .where((eb) => eb.or(wanted.map((id) => eb('data', 'like', `%"${id}"%`))))
    .execute()
}

async function submit(engine: RelayEngine, c: Context<Env>, lyrics: boolean): Promise<Response> {
  const caller = await callerOf(engine, c)
  const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new TaskError(400, 'invalid_request', 'the body must be a JSON object')
  if (lyrics && !str(body.prompt)) throw new TaskError(400, 'invalid_request', 'prompt is required for lyrics')
  await checkSunoLimit(engine, caller)
  let channelId: number | undefined
  const clip = str(body.continue_clip_id)
  if (clip) {
    const [origin] = await rowsWithClips(engine, caller.user.id, [clip])
    if (!origin) throw new TaskError(404, 'task_not_found', 'the clip to continue was not found')
    channelId = origin.channel_id
  }
  const path = new URL(c.req.url).pathname.replace(/\/+$/, '')
  const r = await submitTask(engine, caller, {
    platform: PLATFORM,
    subPlatform: lyrics ? LYRICS : WEB,
    action: lyrics ? 'suno_lyrics' : 'suno_generate',
    model: lyrics ? 'chirp-lyrics' : str(body.mv) || SUNO_WEB_DEFAULT_MV,
    channelId,
    path,
    body: JSON.stringify(body),
    auth,
    prompt: str(body.prompt) || str(body.gpt_description_prompt),
    properties: JSON.stringify({ input: body }),
    accepted(_status, json) {
      const id = str(field(json, 'id'))
      const clips = field(json, 'clips')
      if (!id || (!lyrics && !Array.isArray(clips))) return null
      return { taskId: id, changes: { status: 'SUBMITTED', data: JSON.stringify(lyrics ? json : clips) } }
    },
  })
  return new Response(r.text, { status: r.status, headers: { 'content-type': 'application/json' } })
}

/** A generation's phase from its clips: every clip complete, one in error, or still running. */
export function clipsUpdate(row: TaskRow, clips: unknown[]): TaskUpdate {
  const mine = clips.filter((x) => clipsOf(row).some((c) => c.id === field(x, 'id')))
  const states = mine.map((x) => str(field(x, 'status')))
  const failed = mine.find((x) => str(field(x, 'status')) === 'error')
  const phase: Phase = failed ? 'failure' : states.length > 0 && states.every((s) => s === 'complete') ? 'success' : 'running'
  const first = mine[0]
  const changes: TaskUpdate['changes'] = {
    status: { success: 'SUCCESS', failure: 'FAILURE', running: states.some((s) => s === 'streaming') ? 'IN_PROGRESS' : 'SUBMITTED' }[phase],
    data: JSON.stringify(mine.length ? mine : clipsOf(row)),
  }
  if (phase === 'running') changes.progress = states.some((s) => s === 'streaming') ? '50%' : '0%'
  if (failed) changes.fail_reason = str(field(failed, 'metadata', 'error_message')) || 'the song could not be made'
  for (const [col, key] of [
    ['audio_url', 'audio_url'],
    ['image_url', 'image_url'],
    ['title', 'title'],
  ] as const) {
    if (str(field(first, key))) changes[col] = str(field(first, key))
  }
  if (num(field(first, 'metadata', 'duration')) > 0) changes.video_duration = num(field(first, 'metadata', 'duration'))
  return { taskId: row.task_id, phase, changes }
}

/** The poll of a channel's web-API tasks: one feed call for its generations, one call per lyrics job. */
export async function pollSunoWeb(ch: ChannelState, at: Reach, tasks: readonly TaskRow[], signal: AbortSignal): Promise<TaskUpdate[]> {
  const updates: TaskUpdate[] = []
  const generations = tasks.filter((t) => t.sub_platform === WEB)
  const ids = generations.flatMap((t) => clipsOf(t).map((c) => str(c.id))).filter(Boolean)
  if (ids.length) {
    const clips = await upstreamJson(`${at.base}/suno/feed/${ids.map(encodeURIComponent).join(',')}`, { headers: auth(ch) }, signal, at)
    if (!Array.isArray(clips)) throw new Error('suno feed answered with something other than a list')
    for (const t of generations) updates.push(clipsUpdate(t, clips))
  }
  for (const t of tasks.filter((x) => x.sub_platform === LYRICS)) {
    const json = await upstreamJson(`${at.base}/suno/lyrics/${encodeURIComponent(t.task_id)}`, { headers: auth(ch) }, signal, at)
    const status = str(field(json, 'status'))
    const phase: Phase = status === 'complete' ? 'success' : status === 'error' ? 'failure' : 'running'
    updates.push({
      taskId: t.task_id,
      phase,
      changes: {
        status: { success: 'SUCCESS', failure: 'FAILURE', running: 'IN_PROGRESS' }[phase],
        data: JSON.stringify(json),
        ...(str(field(json, 'title')) ? { title: str(field(json, 'title')) } : {}),
        ...(str(field(json, 'text')) ? { text: str(field(json, 'text')) } : {}),
        ...(phase === 'failure' ? { fail_reason: str(field(json, 'error_message')) || 'the lyrics could not be made' } : {}),
      },
    })
  }
  return updates
}

export function sunoWebRoutes(app: Hono<Env>, engine: RelayEngine): void {
  const handle = (run: (c: Context<Env>) => Promise<Response>) => taskHandler(restRefuse, run)
  // the family's client sends some of these with a trailing slash
  for (const p of ['/suno/generate', '/suno/generate/description-mode', '/suno/generate/lyrics']) {
    const run = handle((c) => submit(engine, c, p.endsWith('/lyrics')))
    app.post(p, run)
    app.post(`${p}/`, run)
  }
  app.get(
    '/suno/feed/:ids',
    handle(async (c) => {
      const caller = await callerOf(engine, c)
      const ids = (c.req.param('ids') ?? '').split(',').map((s) => s.trim())
      const clips = (await rowsWithClips(engine, caller.user.id, ids)).flatMap(clipsOf)
      return Response.json(ids.map((id) => clips.find((x) => x.id === id)).filter(Boolean))
    }),
  )
  app.get(
    '/suno/lyrics/:id',
    handle(async (c) => {
      const caller = await callerOf(engine, c)
      const row = await findTask(engine.ctx.db, PLATFORM, c.req.param('id') ?? '', caller.user.id)
      if (!row || row.sub_platform !== LYRICS) throw new TaskError(404, 'task_not_found', 'task not found')
      return new Response(row.data, { headers: { 'content-type': 'application/json' } })
    }),
  )
}
