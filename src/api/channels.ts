import { del, get, post, put } from './client.ts'
import type { Channel, Envelope } from './types.ts'

/** What the search form sends; empty values are left out of the query. */
export interface ChannelSearch {
  keyword: string
  group: string
  model: string
  /** '' any, else 1, 2 or 3 */
  status: string
}

/** The body of a create or update: the channel with models and group as comma strings. */
export type ChannelBody = Partial<Omit<Channel, 'id' | 'auto_ban'>> & {
  id?: number
  auto_ban?: number
  priority?: number | null
  weight?: number | null
}

/** GET /api/channel/?p=&page_size=&id_sort= */
export async function list(p: number, pageSize: number, idSort: boolean): Promise<Channel[]> {
  return (await get<Channel[]>('/api/channel/', { p, page_size: pageSize, id_sort: idSort })).data ?? []
}

/** GET /api/channel/search: every match at once (no paging). */
export async function search(q: ChannelSearch, idSort: boolean): Promise<Channel[]> {
  const query = { keyword: q.keyword.trim(), group: q.group, model: q.model.trim(), status: q.status || undefined, id_sort: idSort }
  return (await get<Channel[]>('/api/channel/search', query)).data ?? []
}

/** GET /api/channel/{id}: the whole channel, key included. Quiet: the caller shows the failure. */
export async function one(id: number, quiet = false): Promise<Channel> {
  return (await get<Channel>(`/api/channel/${id}`, undefined, { quiet })).data
}

/** POST /api/channel/: one channel per key line; returns the channels created. */
export async function create(body: ChannelBody): Promise<Channel[]> {
  return (await post<Channel[]>('/api/channel/', body)).data ?? []
}

/** PUT /api/channel/ (also for status, priority and weight alone). */
export async function update(body: ChannelBody & { id: number }): Promise<Channel> {
  return (await put<Channel>('/api/channel/', body)).data
}

export async function remove(id: number): Promise<void> {
  await del<null>(`/api/channel/${id}/`)
}

/** GET /api/channel/test/{id}?model=: the seconds the test call took. */
export async function test(id: number, model?: string): Promise<number> {
  const res = (await get<null>(`/api/channel/test/${id}`, { model: model || undefined })) as Envelope<null> & { time?: number }
  return Number(res.time ?? 0)
}

/** GET /api/channel/test: starts a test of every channel in the background. */
export async function testAll(): Promise<void> {
  await get<null>('/api/channel/test')
}

/** GET /api/channel/update_balance/{id}/: the balance now. */
export async function updateBalance(id: number): Promise<number> {
  const res = (await get<null>(`/api/channel/update_balance/${id}/`)) as Envelope<null> & { balance?: number }
  return Number(res.balance ?? 0)
}

export async function updateAllBalances(): Promise<void> {
  await get<null>('/api/channel/update_balance')
}

/** DELETE /api/channel/disabled: how many were deleted. */
export async function removeDisabled(): Promise<number> {
  return Number((await del<number>('/api/channel/disabled')).data ?? 0)
}

/** POST /api/channel/batch: how many were deleted. */
export async function removeMany(ids: number[]): Promise<number> {
  return Number((await post<number>('/api/channel/batch', { ids })).data ?? 0)
}

/** POST /api/channel/fix: rebuilds the abilities; how many channels were fixed. */
export async function fix(): Promise<number> {
  return Number((await post<number>('/api/channel/fix')).data ?? 0)
}

export type AccountCheck = 'check_viggle' | 'check_suno'

export interface AccountCheckResult {
  checked: number
  enabled: number
  disabled: number
  failed: Array<{ id: number; name: string; reason: string }>
}

/** POST /api/channel/dooy: checks the upstream accounts of the enabled Viggle (45) or Suno (41) channels. */
export async function checkAccounts(act: AccountCheck): Promise<AccountCheckResult> {
  return (await post<AccountCheckResult>('/api/channel/dooy', { act, type: act === 'check_viggle' ? 45 : 41, status: 1 })).data
}

/** GET /api/channel/fetch_models/{id}: the server asks the channel's upstream. */
export async function fetchModels(id: number): Promise<string[]> {
  return (await get<string[]>(`/api/channel/fetch_models/${id}`)).data ?? []
}

/** GET /api/models: channel type (as a string) to its built-in model names. */
export async function modelsByType(): Promise<Record<string, string[]>> {
  return (await get<Record<string, string[]>>('/api/models', undefined, { quiet: true })).data ?? {}
}

/** GET /api/channel/models: every built-in model. */
export async function allModels(): Promise<string[]> {
  return ((await get<Array<{ id: string }>>('/api/channel/models', undefined, { quiet: true })).data ?? []).map((m) => m.id)
}

/** Thrown by upstreamModels when the upstream answers but not with a model list. */
export class UpstreamError extends Error {}

/**
 * For a channel not saved yet the browser itself asks the upstream's OpenAI model list
 * (`{base_url}/v1/models`, default https://api.openai.com) with the key as a bearer token.
 */
export async function upstreamModels(baseUrl: string, key: string): Promise<string[]> {
  const base = (baseUrl.trim() || 'https://api.openai.com').replace(/\/+$/, '')
  const res = await fetch(`${base}/v1/models`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } })
  if (!res.ok) throw new UpstreamError(`HTTP ${res.status}`)
  const body = (await res.json().catch(() => null)) as { data?: unknown } | null
  if (!body || !Array.isArray(body.data)) throw new UpstreamError('no model list')
  const ids = body.data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string' && id !== '')
  return [...new Set(ids)]
}
