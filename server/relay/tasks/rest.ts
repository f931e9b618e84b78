/**
 * The machinery of the REST-style task platforms (Luma, Runway, Kling, Pika, Viggle, Ideogram,
 * Udio, Pixverse, Riffusion, Replicate, bfl.ai, fal.ai): each submit path is forwarded to the same
 * path on the channel's base with a bearer key (or the provider's own key header) and the
 * upstream's answer passed back (unchanged, or with the provider's self-links pointed at the
 * gateway); the provider's task id is read from it; the platform's fetch paths answer from our
 * table with the provider's last answer; the poller asks the channel about each task on the
 * platform's fetch path (or the platform's own ask).
 */
import type { Hono, Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import type { OptionStore } from '../../options.ts'
import { findTask, type TaskChanges, type TaskRow } from '../../db/tasks.ts'
import { callerOf, submitTask, taskHandler, TaskError } from './submit.ts'
import { upstreamJson, type Reach, type TaskPoll, type TaskUpdate } from './types.ts'

export type Body = Record<string, unknown>

export interface RestSubmit {
  /** the client's path (a hono pattern) */
  path: string
  /** the action and the model of a submit, from its body and path (a TaskError refuses it) */
  action(body: Body, path: string): string
  model(body: Body, o: OptionStore, path: string): string
  /** the route parameter naming an earlier task this acts on (it goes to that task's channel) */
  origin?: string
}

export interface RestPlatform {
  /** tasks.platform */
  platform: string
  subPlatform?: string
  channelTypes: readonly number[]
  submits: readonly RestSubmit[]
  /** the client's fetch paths with `:id`, answered from our table */
  fetches: readonly string[]
  /** the provider's task id in a submit's answer ('' when refused) */
  taskIdOf(json: unknown): string
  /** a provider that answers at once (Ideogram): the finished task's columns */
  finishedAtSubmit?(json: unknown): TaskChanges
  /** the channel's path for one task */
  fetchPath(row: TaskRow): string
  /** what the channel's answer says about one task */
  read(json: unknown, row: TaskRow): Omit<TaskUpdate, 'taskId'>
  /** the upstream path of a client path (a pool prefix dropped, for example) */
  upstreamPath?(clientPath: string, o: OptionStore): string
  /** tasks.sub_platform of a submit (the pool it went to), when `subPlatform` does not fix it */
  subPlatformOf?(clientPath: string, o: OptionStore): string
  /** the platform's other read routes, answered from the table */
  routes?(app: Hono<Env>, engine: RelayEngine): void
  /** a poll of its own (a batch call) instead of one fetch per task */
  poll?: TaskPoll
  /** the headers that carry the channel's key (default `Authorization: Bearer <key>`) */
  auth?(ch: ChannelState): Record<string, string>
  /** asks the channel about one task (default: GET of fetchPath); the answer goes to read() */
  ask?(ch: ChannelState, at: Reach, row: TaskRow, signal: AbortSignal): Promise<unknown>
  /** what a submit's answer adds to the task's properties beside `input` (the upstream's links to poll) */
  moreProperties?(json: unknown, clientPath: string): Record<string, unknown>
  /** the provider's answer as the client gets it (self-links pointed at `gateway`, the gateway's address) */
  present?(json: unknown, row: TaskRow, gateway: string): unknown
}

export function restRefuse(status: number, code: string | number, message: string): Response {
  return Response.json({ error: { message, type: 'tollgate_error', code } }, { status: status >= 400 ? status : 400 })
}

const bearer = (ch: ChannelState) => ({ authorization: `Bearer ${ch.key}` })
const authOf = (p: RestPlatform) => p.auth ?? bearer

/** The gateway's address for the links in an answer: ServerAddress, else the address the call came to. */
export function gatewayOf(c: Context<Env>, o: OptionStore): string {
  return (o.get('ServerAddress').trim() || new URL(c.req.url).origin).replace(/\/+$/, '')
}

/** Answers the stored provider answer of a task, presented for the client when the platform does so. */
export function answerOf(c: Context<Env>, engine: RelayEngine, p: RestPlatform, row: TaskRow): Response {
  const json = lastAnswer(row)
  return Response.json(p.present ? p.present(json, row, gatewayOf(c, engine.ctx.options)) : json)
}

async function submit(engine: RelayEngine, c: Context<Env>, p: RestPlatform, s: RestSubmit): Promise<Response> {
  const caller = await callerOf(engine, c)
  const body = (await c.req.json().catch(() => null)) as Body | null
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new TaskError(400, 'invalid_request', 'the body must be a JSON object')
  let channelId: number | undefined
  if (s.origin) {
    const origin = await findTask(engine.ctx.db, p.platform, c.req.param(s.origin) ?? '', caller.user.id)
    if (!origin) throw new TaskError(404, 'task_not_found', 'the task this acts on was not found')
    channelId = origin.channel_id
  }
  const o = engine.ctx.options
  const path = new URL(c.req.url).pathname
  const r = await submitTask(engine, caller, {
    platform: p.platform,
    subPlatform: p.subPlatform ?? p.subPlatformOf?.(path, o),
    action: s.action(body, path),
    model: s.model(body, o, path),
    channelId,
    path: p.upstreamPath ? p.upstreamPath(path, o) : path,
    body: JSON.stringify(body),
    auth: authOf(p),
    prompt: typeof body.prompt === 'string' ? body.prompt : '',
    accepted(_status, json) {
      const taskId = p.taskIdOf(json)
      if (!taskId) return null
      const properties = JSON.stringify({ input: body, ...p.moreProperties?.(json, path) })
      return { taskId, changes: { data: JSON.stringify(json), properties, ...p.finishedAtSubmit?.(json) } }
    },
  })
  if (r.row && p.present) return Response.json(p.present(r.json, r.row, gatewayOf(c, o)), { status: r.status })
  return new Response(r.text, { status: r.status, headers: { 'content-type': 'application/json' } })
}

/** Asks the channel about each task (a few at a time); fails only when every ask failed. */
export function restPoll(p: RestPlatform): TaskPoll {
  const ask =
    p.ask ??
    ((ch: ChannelState, at: Reach, t: TaskRow, signal: AbortSignal) =>
      upstreamJson(`${at.base}${p.fetchPath(t)}`, { headers: authOf(p)(ch) }, signal, at))
  return {
    channelTypes: p.channelTypes,
    async poll(ch, at, tasks, signal) {
      const updates: TaskUpdate[] = []
      let failures = 0
      let lastError: unknown = null
      for (let i = 0; i < tasks.length; i += 8) {
        const settled = await Promise.allSettled(
          tasks.slice(i, i + 8).map(async (t) => {
            const json = await ask(ch, at, t, signal)
            updates.push({ taskId: t.task_id, ...p.read(json, t) })
          }),
        )
        for (const s of settled) {
          if (s.status === 'rejected') {
            failures++
            lastError = s.reason
          }
        }
      }
      if (failures === tasks.length) throw lastError
      return updates
    },
  }
}

export function restRoutes(app: Hono<Env>, engine: RelayEngine, p: RestPlatform): void {
  for (const s of p.submits) {
    app.post(
      s.path,
      taskHandler(restRefuse, (c) => submit(engine, c, p, s)),
    )
  }
  for (const path of p.fetches) {
    app.get(
      path,
      taskHandler(restRefuse, async (c) => {
        const caller = await callerOf(engine, c)
        const row = await findTask(engine.ctx.db, p.platform, c.req.param('id') ?? '', caller.user.id)
        if (!row) throw new TaskError(404, 'task_not_found', 'task not found')
        return answerOf(c, engine, p, row)
      }),
    )
  }
  p.routes?.(app, engine)
}

/** The provider's last answer about a task, as stored. */
export function lastAnswer(row: TaskRow): unknown {
  try {
    return row.data ? JSON.parse(row.data) : { id: row.task_id, status: row.status }
  } catch {
    return { id: row.task_id, status: row.status }
  }
}

/** "42%" from a fraction (0.42) or a percentage (42). */
export function percent(v: unknown): string {
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) return '0%'
  return `${Math.min(100, Math.round(n <= 1 ? n * 100 : n))}%`
}
