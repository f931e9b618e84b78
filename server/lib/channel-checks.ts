/**
 * Calls the console makes to a channel's upstream outside the relay: the model list of an
 * OpenAI-format channel (GET /channel/fetch_models/:id) and the account checks of POST
 * /channel/dooy. Every failure comes back as a message of the catalogue, for the caller's language.
 */
import type { ChannelRow } from '../db/channels.ts'
import { text, type Text } from '../i18n/index.ts'
import { CHANNEL_TYPE } from '../../domain/channel-types.ts'
import type { OptionStore } from '../options.ts'
import { reachOf, upstreamFetch, type Reach } from '../relay/tasks/types.ts'
import { networkReason } from './status-reason.ts'

const UPSTREAM_TIMEOUT_MS = 15_000
const UPSTREAM_MAX_BYTES = 8 * 1024 * 1024

interface UpstreamReply {
  status: number
  text: string
  json: unknown
}

/** An upstream call that did not get a usable answer, and why. */
class UpstreamFailure extends Error {
  reason: Text
  constructor(reason: Text) {
    super(reason.key)
    this.reason = reason
  }
}

/** Why a call to the upstream did not come back: a timeout, or the network's own reason. */
function networkFailure(e: unknown): UpstreamFailure {
  if (e instanceof UpstreamFailure) return e
  const err = e as Error & { cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError') return new UpstreamFailure(text('upstream.timeout', { seconds: UPSTREAM_TIMEOUT_MS / 1000 }))
  // a refused or reset connection, an unknown host, a certificate: said in the reader's words
  const net = networkReason(err)
  if (net) return new UpstreamFailure(text(net.key, { detail: err.cause?.code ?? net.params.detail }))
  return new UpstreamFailure(text('upstream.unreachable', { reason: err.cause?.code ?? err.cause?.message ?? err.message }))
}

/** GET with a bearer key, a time limit and a size limit. */
async function upstreamGet(url: string, key: string, at?: Reach): Promise<UpstreamReply> {
  try {
    const init = {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    }
    // a Suno channel is reached as the relay reaches it: through SunoProxy when that is set
    const res = at?.dispatcher ? await upstreamFetch(url, init, at) : await fetch(url, init)
    if (Number(res.headers.get('content-length') ?? 0) > UPSTREAM_MAX_BYTES) {
      await res.body?.cancel()
      throw new UpstreamFailure(text('upstream.tooLarge'))
    }
    const body = await res.text()
    let json: unknown = undefined
    try {
      json = JSON.parse(body)
    } catch {
      /* not JSON */
    }
    return { status: res.status, text: body, json }
  } catch (e) {
    throw networkFailure(e)
  }
}

/** A reply other than 2xx, with the upstream's own message (OpenAI style or plain). */
function refusedBy(reply: UpstreamReply): Text {
  const j = reply.json as { error?: { message?: unknown } | string; message?: unknown } | undefined
  const m = typeof j?.error === 'object' ? j.error?.message : (j?.error ?? j?.message)
  const said = typeof m === 'string' && m ? m : reply.text
  return text('upstream.status', { status: reply.status, message: said.replace(/\s+/g, ' ').trim().slice(0, 300) })
}

/** First key of a channel (a channel may hold several keys, one per line). */
function firstKey(key: string): string {
  return (
    key
      .split('\n')
      .map((k) => k.trim())
      .find(Boolean) ?? ''
  )
}

/** The model ids an OpenAI-format upstream lists at GET /v1/models, each once. */
export async function fetchModelIds(channel: ChannelRow): Promise<{ ids: string[] } | { failed: Text }> {
  const base = (channel.base_url || 'https://api.openai.com').replace(/\/+$/, '')
  try {
    const reply = await upstreamGet(`${base}/v1/models`, firstKey(channel.key))
    if (reply.status < 200 || reply.status >= 300) return { failed: refusedBy(reply) }
    const list = (reply.json as { data?: unknown } | undefined)?.data
    if (!Array.isArray(list)) return { failed: text('upstream.noModelList') }
    const ids = list.map((m) => (m as { id?: unknown })?.id).filter((v): v is string => typeof v === 'string' && v !== '')
    return { ids: [...new Set(ids)] }
  } catch (e) {
    if (e instanceof UpstreamFailure) return { failed: e.reason }
    throw e
  }
}

/** The account checks of POST /channel/dooy, by `act`. */
export const ACCOUNT_CHECKS = {
  check_viggle: { type: CHANNEL_TYPE.viggle, label: 'Viggle', path: '/viggle/template2/tag' },
  check_suno: { type: CHANNEL_TYPE.suno, label: 'Suno', path: '/api/get_limit' },
} as const
export type AccountCheck = keyof typeof ACCOUNT_CHECKS

export const isAccountCheck = (act: string): act is AccountCheck => Object.hasOwn(ACCOUNT_CHECKS, act)

/**
 * One account check; null when the account passes. There is no public reference for this call;
 * each check is one authenticated GET against the channel's upstream, the same way the relay
 * reaches it (`Authorization: Bearer <key>`):
 * - Viggle: `GET {base_url}/viggle/template2/tag`, a cheap listing every Viggle upstream of this
 *   gateway family serves; any 2xx passes.
 * - Suno: `GET {base_url}/api/get_limit` (the credits call of the common Suno API servers); a 2xx
 *   passes unless it reports `credits_left` of 0 or less. An empty base_url falls back to the
 *   SunoServer option, and the call goes through SunoProxy when it is set, as the relay's do.
 */
export async function checkAccount(act: AccountCheck, channel: ChannelRow, o: OptionStore): Promise<Text | null> {
  const at = reachOf({ type: channel.type, baseUrl: channel.base_url ?? '' }, o)
  const base = at.base
  if (!base) return text('channel.noBaseUrl')
  const key = firstKey(channel.key)
  if (!key) return text('channel.noKey')
  try {
    const reply = await upstreamGet(base + ACCOUNT_CHECKS[act].path, key, at)
    if (reply.status < 200 || reply.status >= 300) return refusedBy(reply)
    const credits = (reply.json as { credits_left?: unknown } | undefined)?.credits_left
    if (act === 'check_suno' && typeof credits === 'number' && credits <= 0) return text('channel.noCredits')
    return null
  } catch (e) {
    if (e instanceof UpstreamFailure) return e.reason
    throw e
  }
}

/** Runs `fn` over `items` with at most `width` at a time. */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))))
  return out
}
