/**
 * The Midjourney-proxy relay (channel types 2 and 5): mj-proxy's own routes, also behind a mode
 * prefix (`/mj-fast/mj/…`, `/mj-turbo/…`, `/mj-relax/…`, forwarded with it), answered in
 * mj-proxy's shapes: submits `{code, description, result, properties}` (codes 1, 21, 22 accepted),
 * tasks as mj-proxy's task objects read from our table.
 */
import type { Hono, Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import type { OptionStore } from '../../options.ts'
import { findTask, findTasks, type TaskRow } from '../../db/tasks.ts'
import { callerOf, submitTask, taskHandler, TaskError, type Submission } from './submit.ts'
import { reachOf, field, num, str, upstreamJson, type Phase, type TaskPoll, type TaskUpdate } from './types.ts'
import type { TaskPoller } from './poll.ts'
import { translatePrompt } from './translate.ts'
import { reason, REASON_MAX } from '../../lib/status-reason.ts'

const PLATFORM = 'midjourney'
const MJ_TYPES = [2, 5] as const
/** mj-proxy's submit codes the upstream accepted with (21: exists, 22: queued) */
const ACCEPTED = [1, 21, 22]
/** mj-proxy answers "no account instance" with code 3: the channel cannot serve */
const NO_ACCOUNT = 3
const MODE = ':mode{mj-(?:fast|turbo|relax)}'

function refuse(status: number, code: string | number, message: string): Response {
  const body = {
    code: typeof code === 'number' ? code : 4,
    description: message,
    type: typeof code === 'number' ? 'upstream_error' : code,
    result: '',
  }
  return Response.json(body, { status: status === 429 ? 429 : 400 })
}

/** The action of a button's customId (mj-proxy's `MJ::JOB::upsample::1::<hash>` …). */
export function actionOfCustomId(customId: string): string {
  const rules: Array<[RegExp, string]> = [
    [/::upsample/, 'UPSCALE'],
    [/::high_variation/, 'HIGH_VARIATION'],
    [/::low_variation/, 'LOW_VARIATION'],
    [/::variation/, 'VARIATION'],
    [/::reroll/, 'REROLL'],
    [/::pan_/, 'PAN'],
    [/::CustomZoom/, 'CUSTOM_ZOOM'],
    [/::Outpaint/, 'ZOOM'],
    [/::Inpaint/, 'INPAINT'],
  ]
  for (const [re, action] of rules) if (re.test(customId)) return action
  throw new TaskError(400, 'custom_id_unknown', `unknown customId: ${customId.slice(0, 100)}`)
}

/** The action of a submit and the earlier task it acts on. */
function actionOf(kind: string, body: Record<string, unknown>): { action: string; origin: string } {
  const origin = str(body.taskId)
  switch (kind) {
    case 'imagine':
      if (!str(body.prompt)) throw new TaskError(400, 'prompt_is_required', 'prompt is required')
      return { action: 'IMAGINE', origin: '' }
    case 'change':
      return { action: str(body.action).toUpperCase() || 'UPSCALE', origin }
    case 'simple-change': {
      const [id = '', op = ''] = str(body.content).trim().split(/\s+/)
      const action = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' }[op.charAt(0).toUpperCase()]
      if (!id || !action) throw new TaskError(400, 'content_invalid', 'content must be "<task id> U1" (U, V or R and an index)')
      return { action, origin: id }
    }
    case 'action':
      return { action: actionOfCustomId(str(body.customId)), origin }
    case 'modal':
      return { action: 'MODAL', origin }
    case 'describe':
      return { action: 'DESCRIBE', origin: '' }
    case 'blend':
      return { action: 'BLEND', origin: '' }
    case 'shorten':
      return { action: 'SHORTEN', origin: '' }
    case 'upload-discord-images':
      return { action: 'UPLOAD', origin: '' }
    case 'swap':
      return { action: 'SWAP_FACE', origin: '' }
    default:
      throw new TaskError(404, 'not_found', `unknown submit: ${kind}`)
  }
}

/** The model a Midjourney action is priced by: mj_<action>, swap_face for a face swap. */
export const mjModel = (action: string): string => (action === 'SWAP_FACE' ? 'swap_face' : `mj_${action.toLowerCase()}`)

/** The options' changes to a submit body: mode flags, the callback, the account filter. */
function applyOptions(o: OptionStore, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body }
  if (o.bool('MjModeClearEnabled') && typeof out.prompt === 'string') {
    out.prompt = out.prompt.replace(/\s*--(fast|relax|turbo)\b/g, '').trim()
  }
  if (!o.bool('MjNotifyEnabled')) delete out.notifyHook
  if (!o.bool('MjAccountFilterEnabled')) delete out.accountFilter
  return out
}

async function originTask(engine: RelayEngine, userId: number, id: string): Promise<TaskRow> {
  const t = await findTask(engine.ctx.db, PLATFORM, id, userId)
  if (!t) throw new TaskError(400, 'task_not_found', 'task_not_found')
  if (engine.ctx.options.bool('MjActionCheckSuccessEnabled') && t.status !== 'SUCCESS')
    throw new TaskError(400, 'task_status_not_success', 'the task this action acts on has not succeeded')
  return t
}

const auth = (ch: ChannelState) => ({ 'mj-api-secret': ch.key })

async function submit(engine: RelayEngine, c: Context<Env>, kind: string): Promise<Response> {
  const caller = await callerOf(engine, c)
  const raw = (await c.req.json().catch(() => null)) as Record<string, unknown> | null
  if (!raw || typeof raw !== 'object') throw new TaskError(400, 'invalid_request', 'the body must be a JSON object')
  const { action, origin } = actionOf(kind, raw)
  const from = origin ? await originTask(engine, caller.user.id, origin) : null
  const body = applyOptions(engine.ctx.options, raw)
  const written = str(body.prompt)
  if (engine.ctx.options.bool('MjTranslate') && written && (action === 'IMAGINE' || action === 'MODAL'))
    body.prompt = await translatePrompt(engine, caller.group, written)
  const s: Submission = {
    platform: PLATFORM,
    action,
    model: mjModel(action),
    channelId: from?.channel_id,
    path: new URL(c.req.url).pathname,
    body: JSON.stringify(body),
    auth,
    prompt: written,
    properties: JSON.stringify({ input: body }),
    accepted(_status, json) {
      const code = num(field(json, 'code'))
      const id = str(field(json, 'result'))
      if (!ACCEPTED.includes(code) || !id) return null
      return {
        taskId: id,
        changes: {
          code,
          description: str(field(json, 'description')),
          properties: JSON.stringify(field(json, 'properties') ?? {}),
          ...(str(body.prompt) !== written ? { prompt_en: str(body.prompt) } : {}),
        },
      }
    },
    async refused(ch, _status, json) {
      if (num(field(json, 'code')) === NO_ACCOUNT && ch.autoBan && engine.ctx.options.bool('AutomaticDisableChannelEnabled'))
        await engine.monitor.disable(
          ch.id,
          reason('channel.disabled.proxyRefused', { description: str(field(json, 'description')).slice(0, REASON_MAX) }),
        )
    },
  }
  const r = await submitTask(engine, caller, s)
  if (!r.row) {
    const code = num(field(r.json, 'code'))
    return refuse(
      r.status >= 400 ? r.status : 400,
      code || 4,
      `${str(field(r.json, 'description')) || r.text.slice(0, 200)} ${str(field(r.json, 'result'))}`.trim(),
    )
  }
  return Response.json({ ...(r.json as object), code: 1 })
}

/** A task as mj-proxy answers it; imageUrl through our /mj/image/ or the CDN proxy as the options say. */
export function mjTask(row: TaskRow, o: OptionStore) {
  const parse = (s: string, fallback: unknown) => {
    try {
      return s ? JSON.parse(s) : fallback
    } catch {
      return fallback
    }
  }
  let imageUrl = row.image_url
  const cdn = o.get('MjCDNProxy').trim().replace(/\/+$/, '')
  if (imageUrl && o.bool('MjForwardUrlEnabled')) {
    imageUrl = `${o.get('ServerAddress').replace(/\/+$/, '')}/mj/image/${row.task_id}${row.status === 'SUCCESS' ? '' : `?rand=${Date.now()}`}`
  } else if (imageUrl && cdn) imageUrl = imageUrl.replace(/^https:\/\/cdn\.discordapp\.com/, cdn)
  const props = parse(row.properties, {}) as Record<string, unknown>
  return {
    id: row.task_id,
    action: row.action,
    customId: '',
    botType: '',
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: '',
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl,
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parse(row.buttons, []),
    properties: 'input' in props ? {} : props,
  }
}

/** What mj-proxy's task object says, as columns. */
export function mjUpdate(dto: unknown): TaskUpdate {
  const status = str(field(dto, 'status'))
  const phase: Phase = status === 'SUCCESS' ? 'success' : status === 'FAILURE' ? 'failure' : 'running'
  const changes: TaskUpdate['changes'] = { status, progress: str(field(dto, 'progress')) || '0%' }
  const copy: Array<[keyof TaskUpdate['changes'], string]> = [
    ['image_url', 'imageUrl'],
    ['fail_reason', 'failReason'],
    ['prompt_en', 'promptEn'],
    ['description', 'description'],
  ]
  for (const [col, key] of copy) {
    const v = str(field(dto, key))
    if (v) (changes as Record<string, unknown>)[col] = v
  }
  for (const [col, key] of [
    ['start_time', 'startTime'],
    ['finish_time', 'finishTime'],
  ] as const) {
    const v = num(field(dto, key))
    if (v > 0) changes[col] = v
  }
  const buttons = field(dto, 'buttons')
  if (Array.isArray(buttons)) changes.buttons = JSON.stringify(buttons)
  return { taskId: str(field(dto, 'id')), phase, changes }
}

export const midjourneyPoll: TaskPoll = {
  channelTypes: MJ_TYPES,
  async poll(ch, at, tasks, signal) {
    const list = await upstreamJson(
      `${at.base}/mj/task/list-by-condition`,
      {
        method: 'POST',
        headers: { ...auth(ch), 'content-type': 'application/json' },
        body: JSON.stringify({ ids: tasks.map((t) => t.task_id) }),
      },
      signal,
    )
    if (!Array.isArray(list)) throw new Error('mj-proxy answered list-by-condition with something other than a list')
    return list.map(mjUpdate)
  },
}

type Handler = (c: Context<Env>) => Promise<Response>

/** The read routes' handlers: one task, tasks by ids, an image's seed (asked of the task's channel). */
function readers(engine: RelayEngine) {
  const o = engine.ctx.options
  const own = async (c: Context<Env>) => {
    const caller = await callerOf(engine, c)
    const t = await findTask(engine.ctx.db, PLATFORM, c.req.param('id') ?? '', caller.user.id)
    if (!t) throw new TaskError(400, 'task_no_found', 'task_no_found')
    return t
  }
  const fetchOne: Handler = async (c) => Response.json(mjTask(await own(c), o))
  const byIds: Handler = async (c) => {
    const caller = await callerOf(engine, c)
    const ids = field(await c.req.json().catch(() => null), 'ids')
    const list = Array.isArray(ids) ? ids.map(str).filter(Boolean) : []
    const rows = await findTasks(engine.ctx.db, PLATFORM, list, caller.user.id)
    return Response.json(rows.map((r) => mjTask(r, o)))
  }
  const seed: Handler = async (c) => {
    const t = await own(c)
    const ch = engine.state.channels.get(t.channel_id)
    if (!ch) throw new TaskError(400, 'task_no_found', 'task_no_found')
    const res = await fetch(`${reachOf(ch, o).base}/mj/task/${encodeURIComponent(t.task_id)}/image-seed`, {
      headers: auth(ch),
      signal: AbortSignal.timeout(60_000),
    })
    return new Response(await res.text(), { status: res.status, headers: { 'content-type': 'application/json' } })
  }
  return { fetchOne, byIds, seed }
}

/** mj-proxy's callback carries no secret: it only makes us ask the channel about the task now. */
function notify(engine: RelayEngine, poller: TaskPoller): Handler {
  return async (c) => {
    const id = str(field(await c.req.json().catch(() => null), 'id'))
    const t = id ? await findTask(engine.ctx.db, PLATFORM, id) : undefined
    const ch = t && engine.state.channels.get(t.channel_id)
    if (!t || !ch) throw new TaskError(400, 'task_no_found', 'task_no_found')
    if (t.progress !== '100%') {
      const updates = await midjourneyPoll.poll(ch, reachOf(ch, engine.ctx.options), [t], AbortSignal.timeout(15_000))
      const u = updates.find((x) => x.taskId === t.task_id)
      if (u) await poller.apply(t, u)
    }
    return Response.json({ code: 1, description: 'ok' })
  }
}

/** The stored image, without a key (image tags cannot send one). */
function image(engine: RelayEngine): Handler {
  return async (c) => {
    const t = await findTask(engine.ctx.db, PLATFORM, c.req.param('id') ?? '')
    if (!t?.image_url) return c.text('image not found', 404)
    const res = await fetch(t.image_url, { signal: AbortSignal.timeout(60_000) }).catch(() => null)
    if (!res?.ok || !res.body) return c.text('the image could not be fetched', 502)
    return new Response(res.body, {
      headers: { 'content-type': res.headers.get('content-type') ?? 'image/png', 'cache-control': 'max-age=86400' },
    })
  }
}

/** mj-proxy's routes, at the root and behind each mode prefix. */
export function midjourneyRoutes(app: Hono<Env>, engine: RelayEngine, poller: TaskPoller): void {
  const read = readers(engine)
  const handle = (run: Handler) => taskHandler(refuse, run)
  for (const prefix of ['', `/${MODE}`]) {
    const at = (p: string) => `${prefix}/mj${p}`
    app.post(
      at('/submit/:kind'),
      handle((c) => submit(engine, c, c.req.param('kind') ?? '')),
    )
    app.post(
      at('/insight-face/swap'),
      handle((c) => submit(engine, c, 'swap')),
    )
    app.get(at('/task/:id/fetch'), handle(read.fetchOne))
    app.post(at('/task/list-by-condition'), handle(read.byIds))
    app.get(at('/task/:id/image-seed'), handle(read.seed))
    app.post(at('/notify'), handle(notify(engine, poller)))
  }
  app.get('/mj/image/:id', image(engine))
}
