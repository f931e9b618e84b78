/**
 * The submit every task relay shares: the caller's key, the channel (the origin task's for an
 * action on an earlier task, else a pick for the model), the per-call price of the model held on
 * the balances, the upstream call, and only when the upstream accepted the task the charge, its
 * consumption log row and the task row. A refused or failed submit costs nothing.
 */
import type { Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import { authenticate, type Caller } from '../authenticate.ts'
import { RelayError } from '../errors.ts'
import { priceContent, priceOther, type Price } from '../pricing.ts'
import type { ChannelState } from '../state.ts'
import type { LogRow } from '../ledger.ts'
import { insertTask, type TaskChanges, type TaskRow } from '../../db/tasks.ts'
import { reachOf, upstreamFetch } from './types.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'
import type { OptionStore } from '../../options.ts'

/** The price of a task model that ModelPrice does not list, US dollars per call. */
export const DEFAULT_TASK_PRICE = 0.1

/** A refusal of ours, answered in the platform's wire format. */
export class TaskError extends Error {
  status: number
  code: string | number
  constructor(status: number, code: string | number, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

export interface Submission {
  platform: string
  action: string
  /** the model the call is priced (and routed) by */
  model: string
  /** an action on an earlier task goes to that task's channel */
  channelId?: number
  /** upstream path (and query) after the channel's base */
  path: string
  method?: string
  /** the bytes to forward (a multipart body as received) */
  body?: string | Uint8Array
  contentType?: string
  /** the headers that carry the channel's key */
  auth(ch: ChannelState): Record<string, string>
  /** the provider task id when the upstream accepted the task, else null (nothing is charged) */
  accepted(status: number, json: unknown): { taskId: string; changes?: TaskChanges } | null
  /** called when the upstream refused (e.g. to disable a channel that has no account left) */
  refused?(ch: ChannelState, status: number, json: unknown): Promise<void>
  prompt?: string
  /** the submitted input, kept for the lists */
  properties?: string
  subPlatform?: string
}

export interface Submitted {
  status: number
  text: string
  json: unknown
  /** the task row when accepted */
  row: TaskRow | null
}

/** Answers a route's refusals (ours and the relay's) in the platform's wire format. */
export function taskHandler(
  refuse: (status: number, code: string | number, message: string) => Response,
  run: (c: Context<Env>) => Promise<Response>,
) {
  return async (c: Context<Env>): Promise<Response> => {
    try {
      return await run(c)
    } catch (err) {
      if (err instanceof TaskError) return refuse(err.status, err.code, err.message)
      if (err instanceof RelayError) return refuse(err.status, err.code ?? 'relay_error', err.message)
      console.error(`[${c.get('requestId')}] task relay failure:`, err)
      return refuse(500, 'relay_error', 'the relay failed to process this request')
    }
  }
}

/** The key's caller, for the task routes. */
export const callerOf = (engine: RelayEngine, c: Context<Env>): Promise<Caller> => authenticate(engine, c)

/** Relays one submit; see the file comment. */
export async function submitTask(engine: RelayEngine, caller: Caller, submission: Submission): Promise<Submitted> {
  const s = { ...submission, model: videoModelOf(engine.ctx.options, submission.model) }
  const ch = channelFor(engine, caller, s)
  const price = engine.pricing.price(s.model, caller.group)
  const quota = quotaOf(price, engine.ctx.options.quotaPerUnit)
  const hold = engine.ledger.reserve(caller.user, caller.token, quota)
  if ('refused' in hold) throw new TaskError(403, 'quota_not_enough', hold.refused)
  const t0 = Date.now()
  let res: Awaited<ReturnType<typeof upstreamFetch>>
  let text: string
  try {
    const headers: Record<string, string> = { ...s.auth(ch) }
    if (s.body !== undefined) headers['content-type'] = s.contentType ?? 'application/json'
    const at = reachOf(ch, engine.ctx.options)
    res = await upstreamFetch(
      `${at.base}${s.path}`,
      { method: s.method ?? 'POST', headers, body: s.body, signal: AbortSignal.timeout(60_000) },
      at,
    )
    text = await res.text()
  } catch (err) {
    engine.ledger.release(hold)
    throw new TaskError(502, 'do_request_failed', `the upstream could not be reached: ${(err as Error).message}`)
  }
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    json = null
  }
  const accepted = res.ok ? s.accepted(res.status, json) : null
  if (!accepted) {
    engine.ledger.release(hold)
    await s.refused?.(ch, res.status, json)
    return { status: res.status, text, json, row: null }
  }
  const now = Math.floor(Date.now() / 1000)
  engine.ledger.settle(hold, quota, ch.id, logRow(caller, s, ch, price, quota, now, Date.now() - t0), now)
  const row = await insertTask(engine.ctx.db, {
    platform: s.platform,
    sub_platform: s.subPlatform ?? '',
    user_id: caller.user.id,
    token_id: caller.token.id,
    channel_id: ch.id,
    task_id: accepted.taskId,
    action: s.action,
    status: 'NOT_START',
    progress: '0%',
    prompt: s.prompt ?? '',
    properties: s.properties ?? '',
    quota,
    submit_time: Date.now(),
    created_at: now,
    updated_at: now,
    ...accepted.changes,
  })
  return { status: res.status, text, json, row }
}

/** The model a derived model name is priced and routed as: VmodelMap's entry for it, else itself. */
export function videoModelOf(o: OptionStore, model: string): string {
  const mapped = (o.json('VmodelMap', {}) as Record<string, unknown>)[model]
  return typeof mapped === 'string' && mapped ? mapped : model
}

/** Per call: the model's price (DEFAULT_TASK_PRICE when unlisted) x group ratio, in quota. */
export function quotaOf(price: Price, quotaPerUnit: number): number {
  const usd = price.modelPrice >= 0 ? price.modelPrice : DEFAULT_TASK_PRICE
  return Math.round(usd * quotaPerUnit * price.groupRatio)
}

function channelFor(engine: RelayEngine, caller: Caller, s: Submission): ChannelState {
  const { token, group } = caller
  if (token.modelLimits && !token.modelLimits.has(s.model))
    throw new TaskError(403, 'model_not_allowed', `this API key may not use the model ${s.model}`)
  const id = s.channelId || caller.pinned
  if (id) {
    const ch = engine.state.channels.get(id)
    if (!ch) throw new TaskError(404, 'channel_not_found', `channel ${id} does not exist`)
    if (ch.status !== CHANNEL_STATUS.enabled) throw new TaskError(403, 'channel_disabled', `channel ${id} is disabled`)
    return ch
  }
  const ch = engine.state.pick(group, s.model, 0, [], engine.random)
  if (!ch) throw new TaskError(503, 'model_not_found', `no channel available for the model ${s.model} in the group ${group}`)
  return ch
}

function logRow(caller: Caller, s: Submission, ch: ChannelState, price: Price, quota: number, now: number, ms: number): LogRow {
  return {
    user_id: caller.user.id,
    created_at: now,
    type: 2,
    content: `${priceContent({ ...price, modelPrice: price.modelPrice >= 0 ? price.modelPrice : DEFAULT_TASK_PRICE })} (${s.platform} ${s.action})`,
    username: caller.user.username,
    token_name: caller.token.name,
    token_id: caller.token.id,
    model_name: s.model,
    quota,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: Math.floor(ms / 1000),
    is_stream: 0,
    channel: ch.id,
    other: priceOther(price, [ch.id]),
  }
}
