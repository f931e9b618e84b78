/** The shapes the task relays share: a platform's poll, and what a poll learned about one task. */
import type { TaskChanges, TaskRow } from '../../db/tasks.ts'
import type { ChannelState } from '../state.ts'
import type { OptionStore } from '../../options.ts'
import { fetch as undiciFetch, ProxyAgent, type Dispatcher } from 'undici'

/** Where a task stands: still running, or finished one way or the other. */
export type Phase = 'running' | 'success' | 'failure'

/** What a poll learned about one task (by the provider's id). */
export interface TaskUpdate {
  taskId: string
  phase: Phase
  /** the columns to write (status, progress, URLs, reason, data…) */
  changes: TaskChanges
}

/** How the poller asks one kind of channel about its tasks. */
export interface TaskPoll {
  /** the channel types whose tasks this reads */
  channelTypes: readonly number[]
  /** asks the upstream (`at`) about these tasks of one channel; a task it does not mention stays as it was */
  poll(ch: ChannelState, at: Reach, tasks: readonly TaskRow[], signal: AbortSignal): Promise<TaskUpdate[]>
}

/** How a channel's upstream is reached: its base URL (no trailing slash) and, for Suno behind SunoProxy, the proxy. */
export interface Reach {
  base: string
  dispatcher?: Dispatcher
}

const SUNO = 41
/** the SunoProxy agent of each server (its options), replaced when the option changes */
const proxies = new WeakMap<OptionStore, { url: string; agent: ProxyAgent }>()

/** Where a channel is reached: a Suno channel without a base URL at SunoServer, through SunoProxy when set. */
export function reachOf(ch: Pick<ChannelState, 'type' | 'baseUrl'>, o: OptionStore): Reach {
  const base = (ch.baseUrl || (ch.type === SUNO ? o.get('SunoServer').trim() : '')).replace(/\/+$/, '')
  const proxy = ch.type === SUNO ? o.get('SunoProxy').trim() : ''
  if (!proxy) return { base }
  let p = proxies.get(o)
  if (p?.url !== proxy) {
    void p?.agent.close()
    p = { url: proxy, agent: new ProxyAgent(proxy) }
    proxies.set(o, p)
  }
  return { base, dispatcher: p.agent }
}

/** Closes the server's SunoProxy agent. */
export async function closeReach(o: OptionStore): Promise<void> {
  await proxies.get(o)?.agent.close()
  proxies.delete(o)
}

/** One call to an upstream, through the reach's proxy when it has one. */
export function upstreamFetch(url: string, init: UndiciInit, at?: Reach) {
  return undiciFetch(url, at?.dispatcher ? { ...init, dispatcher: at.dispatcher } : init)
}

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>

/** Fetches JSON from an upstream; throws on a non-2xx answer or a body that is not JSON. */
export async function upstreamJson(url: string, init: UndiciInit, signal: AbortSignal, at?: Reach): Promise<unknown> {
  const res = await upstreamFetch(url, { ...init, signal }, at)
  const text = await res.text()
  if (!res.ok) throw new Error(`upstream answered ${res.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text)
}

/** A property of an object-shaped JSON value, or undefined. */
export function field(v: unknown, ...path: string[]): unknown {
  let x = v
  for (const k of path) {
    if (x === null || typeof x !== 'object') return undefined
    x = (x as Record<string, unknown>)[k]
  }
  return x
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0)

/** The phase of a provider's status word, by the words it uses for the two ends (any case). */
export function phaseOf(status: string, success: readonly string[], failure: readonly string[]): Phase {
  const s = status.toLowerCase()
  if (success.includes(s)) return 'success'
  if (failure.includes(s)) return 'failure'
  return 'running'
}

/** A task as the family's task API answers it (Suno's fetch, /api/task/): times in seconds, data parsed. */
export function familyTask(row: TaskRow) {
  let data: unknown = null
  try {
    data = row.data ? JSON.parse(row.data) : null
  } catch {
    data = row.data
  }
  const s = (ms: number) => Math.floor(ms / 1000)
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: s(row.submit_time),
    start_time: s(row.start_time),
    finish_time: s(row.finish_time),
    progress: row.progress,
    data,
  }
}
