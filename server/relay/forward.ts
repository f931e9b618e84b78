import type { Readable } from 'node:stream'
import type { RelayEngine } from './engine.ts'
import { RelayError, parseUpstreamError, type UpstreamError } from './errors.ts'
import type { InFlight } from './in-flight.ts'
import type { ChannelState } from './state.ts'
import type { Upstream, UpstreamCall, UpstreamResponse } from './upstream.ts'
import { channelAdapter, nextChannel, noChannel, unsupported, upstreamModelOf } from './choose.ts'
import { multipartField } from './request.ts'
import type { Adapter, RelayCall } from './adapters/index.ts'
import { chatCallOf, doorOf, throughChat } from './doors/index.ts'
import { errorParam, type ReasonParam } from '../lib/status-reason.ts'

/** A successful upstream answer, not yet read, and the adapter that translates it. */
export interface Answer {
  res: UpstreamResponse
  adapter: Adapter
}

/** How one attempt on one channel went (see send). */
export type Sent =
  | { ok: true; res: UpstreamResponse; adapter: Adapter; upstreamModel: string }
  | { ok: false; failure: 'unsupported' }
  | { ok: false; failure: 'misconfigured' | 'unreachable'; message: string; detail: ReasonParam }
  | { ok: false; failure: 'refused'; error: UpstreamError }

const UNSUPPORTED: Sent = { ok: false, failure: 'unsupported' }

/**
 * Stage 4: sends the call to a channel and, while attempts are left (RetryTimes; none for a pinned
 * channel), to the next one after a failure that another channel may not have: unsupported,
 * misconfigured, unreachable, 429 or 5xx (after the channel's status-code mapping). Records the
 * channels tried and the one that answered on the flight; throws the last failure.
 */
export async function forward(engine: RelayEngine, flight: InFlight, pinned: ChannelState | null, signal: AbortSignal): Promise<Answer> {
  const { call, caller } = flight
  const retries = pinned ? 0 : Math.max(0, Math.floor(engine.ctx.options.num('RetryTimes', 0)))
  let last: RelayError | null = null
  for (let attempt = 0; attempt <= retries; attempt++) {
    const ch = nextChannel(engine, caller.group, call.model, pinned, attempt, flight.tried)
    if (!ch) break
    flight.tried.push(ch.id)
    const sent = await send(engine.upstream, call, ch, signal)
    if (sent.ok) {
      flight.channel = ch
      flight.upstreamModel = sent.upstreamModel
      return sent
    }
    if (sent.failure === 'unreachable' && signal.aborted) throw new RelayError(499, 'the client closed the request', 'client_closed')
    last = failureOf(engine, ch, call, sent)
    if (sent.failure === 'refused' && last.status !== 429 && last.status < 500) break
  }
  if (!last) throw noChannel(call, caller.group)
  if (last.status === 429)
    throw new RelayError(429, 'the upstream channels of this group are saturated, please try again later', last.code, last.type)
  throw last
}

/** The client's error for a failed attempt; an upstream refusal may disable the channel. */
function failureOf(engine: RelayEngine, ch: ChannelState, call: RelayCall, sent: Sent & { ok: false }): RelayError {
  switch (sent.failure) {
    case 'unsupported':
      return unsupported(ch, call.mode)
    case 'misconfigured':
      return new RelayError(500, `channel ${ch.id} is misconfigured: ${sent.message}`, 'channel_misconfigured')
    case 'unreachable':
      return new RelayError(502, `the upstream could not be reached: ${sent.message}`, 'upstream_unreachable', 'upstream_error')
    case 'refused': {
      const disabling = engine.monitor.consider(ch, sent.error)
      if (disabling) engine.track(disabling)
      return new RelayError(mapStatus(ch, sent.error.status), sent.error.message, sent.error.code, sent.error.type)
    }
  }
}

/**
 * One attempt on one channel: the channel's adapter builds the upstream request (model mapping
 * applied), the keep-alive pool sends it. A non-2xx answer is read (64 KiB at most) and parsed.
 * Shared by the relay and the channel test.
 */
export async function send(upstream: Upstream, call: RelayCall, ch: ChannelState, signal: AbortSignal): Promise<Sent> {
  const route = routeOf(call, ch)
  if (!route) return UNSUPPORTED
  const { adapter, wire } = route
  const upstreamModel = upstreamModelOf(ch, call.model)
  let req: UpstreamCall
  try {
    call.channelId = ch.id
    req = adapter.build(call, ch, upstreamModel, () => forwardBody(wire, adapter, upstreamModel))
  } catch (err) {
    return { ok: false, failure: 'misconfigured', message: (err as Error).message, detail: errorParam(err) }
  }
  let res: UpstreamResponse
  try {
    res = await upstream.request(req, signal)
  } catch (err) {
    return { ok: false, failure: 'unreachable', message: (err as Error).message, detail: errorParam(err) }
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, res, adapter, upstreamModel }
  return { ok: false, failure: 'refused', error: parseUpstreamError(res.statusCode, await readLimited(res.body)) }
}

/** The status the client sees for an upstream status: the channel's status-code mapping applied. */
function mapStatus(ch: ChannelState, status: number): number {
  const to = ch.statusCodeMapping?.[String(status)]
  const n = to ? Number(to) : NaN
  return Number.isInteger(n) && n >= 100 && n < 600 ? n : status
}

/**
 * The request bytes for an OpenAI-format upstream: as received unless the channel maps the
 * model or we add stream_options.include_usage (then the one field is rewritten).
 */
export function forwardBody(call: RelayCall, adapter: Adapter, upstreamModel: string): Buffer {
  const mapped = upstreamModel !== call.model
  if (!call.json) {
    if (!mapped) return call.raw
    const f = multipartField(call.raw, call.contentType, 'model')
    if (!f) return call.raw
    return Buffer.concat([call.raw.subarray(0, f.start), Buffer.from(upstreamModel), call.raw.subarray(f.end)])
  }
  const inject = call.stream && adapter.streamUsage && !call.wantUsage
  if (!mapped && !inject) return call.raw
  if (!mapped && call.json.stream_options === undefined) {
    const open = call.raw.indexOf(123)
    return Buffer.concat([
      call.raw.subarray(0, open + 1),
      Buffer.from('"stream_options":{"include_usage":true},'),
      call.raw.subarray(open + 1),
    ])
  }
  const body: Record<string, unknown> = { ...call.json, model: upstreamModel }
  if (inject) body.stream_options = { ...(call.json.stream_options ?? {}), include_usage: true }
  return Buffer.from(JSON.stringify(body))
}

/**
 * How a call reaches a channel: in its own format when the channel's adapter speaks it (a door
 * and a channel of the same format), else a front door's call through the chat completions shape.
 */
function routeOf(call: RelayCall, ch: ChannelState): { adapter: Adapter; wire: RelayCall } | null {
  const own = channelAdapter(ch, call.mode)
  if (own) return { adapter: own, wire: call }
  const door = doorOf(call.mode)
  const chat = door && channelAdapter(ch, 'chat')
  if (!door || !chat) return null
  const wire = chatCallOf(call, door)
  return { adapter: throughChat(door, chat, wire), wire }
}

/** Bytes of an upstream answer, at most `limit` of them (the rest is read and dropped). */
export async function readLimited(body: Readable & { text?: () => Promise<string> }, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const c of body as AsyncIterable<Buffer>) {
      if (size < limit) chunks.push(c)
      size += c.length
    }
  } catch {
    /* what arrived is enough */
  }
  return Buffer.concat(chunks).toString('utf8', 0, Math.min(size, limit))
}
