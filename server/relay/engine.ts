import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { RelayError, anthropicErrorResponse, errorResponse, parseUpstreamError, type UpstreamError } from './errors.ts'
import { Ledger, type LogRow, type Reservation } from './ledger.ts'
import { Pricing, priceContent, priceOther, type Price, type Usage } from './pricing.ts'
import { RelayState, type ChannelState, type TokenState, type UserState } from './state.ts'
import { Tokenizer } from './tokenizer.ts'
import { Upstream, type UpstreamCall, type UpstreamResponse } from './upstream.ts'
import { ChannelMonitor } from './monitor.ts'
import { SseFramer } from './sse.ts'
import { adapterFor, type Adapter, type Mode, type RelayCall } from './adapters/index.ts'
import { contentText, usageOf } from './adapters/types.ts'
import { extractUsage } from './adapters/openai.ts'
import { channelTypeName } from '../../domain/channel-types.ts'
import { relayQuota } from '../../domain/pricing.ts'
import { ROLE } from '../../domain/roles.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { tokenLimitStatus } from '../../domain/token-rules.ts'

const MAX_BODY = 32 * 1024 * 1024
const IMAGE_TOKENS_LOW = 85
const IMAGE_TOKENS = 765

const DEFAULT_MODEL: Partial<Record<Mode, string>> = {
  moderations: 'text-moderation-stable',
  images: 'dall-e-2',
  speech: 'tts-1',
  transcriptions: 'whisper-1',
  translations: 'whisper-1',
}

const MODE_LABEL: Record<Mode, string> = {
  chat: 'chat completions',
  completions: 'completions',
  embeddings: 'embeddings',
  images: 'image generation',
  moderations: 'moderations',
  speech: 'speech',
  transcriptions: 'transcriptions',
  translations: 'translations',
  messages: 'the Anthropic messages API',
}

/** Everything a successful upstream answer needs to be delivered and charged. */
interface Delivery {
  caller: Caller
  call: RelayCall
  price: Price
  hold: Reservation
  ch: ChannelState
  adapter: Adapter
  tried: number[]
  t0: number
  upstreamModel: string
  requestId: string
  /** the Node response when running under @hono/node-server */
  outgoing: ServerResponse | undefined
}

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'access-control-allow-origin': '*',
}

/**
 * node-server's "already sent" answer, usable only if it is a plain web Response (it is created
 * when the module loads, before serve() swaps in node-server's own Response class).
 */
const ALREADY_SENT = Object.getOwnPropertySymbols(RESPONSE_ALREADY_SENT).length === 0 ? RESPONSE_ALREADY_SENT : null

function nodeResponse(c: Context<Env>): ServerResponse | undefined {
  if (!ALREADY_SENT) return undefined
  const env = c.env as { outgoing?: unknown } | undefined
  return env?.outgoing instanceof ServerResponse ? env.outgoing : undefined
}

export interface Caller {
  token: TokenState
  user: UserState
  group: string
  pinned: number
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000)
}

function errorEvent(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: 'upstream_error', param: '', code: 'stream_interrupted' } })}\n\n`
}

/** Bytes of a failed upstream answer, at most `limit` of them. */
async function readLimited(body: Readable & { text?: () => Promise<string> }, limit = 64 * 1024): Promise<string> {
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

/** The value of a multipart form field, and where it sits in the bytes. */
export function multipartField(raw: Buffer, contentType: string, name: string): { value: string; start: number; end: number } | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType)
  if (!m) return null
  const boundary = `--${(m[1] ?? m[2]).trim()}`
  const marker = `name="${name}"`
  let at = 0
  for (;;) {
    const b = raw.indexOf(boundary, at)
    if (b < 0) return null
    const headEnd = raw.indexOf('\r\n\r\n', b)
    if (headEnd < 0) return null
    const head = raw.toString('latin1', b, headEnd)
    const next = raw.indexOf(`\r\n${boundary}`, headEnd + 4)
    if (next < 0) return null
    if (head.includes(marker) && !head.includes('filename=')) {
      return { value: raw.toString('utf8', headEnd + 4, next), start: headEnd + 4, end: next }
    }
    at = next + 2
  }
}

/** Prices an image request (spec 9, per call): size and quality factors times n. */
function imageQuota(json: Record<string, any>, model: string, price: Price, quotaPerUnit: number): number {
  const n = Math.max(1, Math.min(10, Number(json.n) || 1))
  const size = String(json.size ?? '1024x1024')
  const base = price.modelPrice >= 0 ? price.modelPrice : 0.0025 * price.modelRatio
  let sizeRatio = 1
  if (size === '256x256') sizeRatio = 0.4
  else if (size === '512x512') sizeRatio = 0.45
  else if (size.startsWith('1792') || size.endsWith('1792')) sizeRatio = 2
  let quality = 1
  if (model === 'dall-e-3' && json.quality === 'hd') quality = size.includes('1792') ? 1.5 : 2
  return Math.round(base * sizeRatio * quality * n * price.groupRatio * quotaPerUnit)
}

/**
 * The relay: authenticates the token from memory, holds the estimated cost, picks a channel,
 * forwards the request through the matching adapter, streams or returns the answer, and settles
 * the real cost in the ledger (written to the database in batches).
 */
export class RelayEngine {
  ctx: AppContext
  state: RelayState
  ledger: Ledger
  pricing: Pricing
  tokenizer = new Tokenizer()
  upstream = new Upstream()
  monitor: ChannelMonitor
  random: () => number = Math.random
  ready = false
  private readyPromise: Promise<void>
  private settling = new Set<Promise<unknown>>()
  inflight = 0

  constructor(ctx: AppContext) {
    this.ctx = ctx
    this.state = new RelayState(ctx)
    this.ledger = new Ledger(ctx, this.state)
    this.pricing = new Pricing(ctx.options)
    this.monitor = new ChannelMonitor(ctx, this.state)
    this.readyPromise = this.loadAll().then(() => {
      this.ready = true
    })
    this.readyPromise.catch((err) => console.error('relay: initial load failed:', err))
  }

  async loadAll(): Promise<void> {
    await this.ledger.locked(async () => {
      await this.state.loadUsers()
      await this.state.loadTokens()
    })
    await this.state.loadChannels()
  }

  whenReady(): Promise<void> {
    return this.readyPromise
  }

  /** Waits for settles in flight (counting) and writes everything pending. */
  async idle(): Promise<void> {
    while (this.settling.size) await Promise.allSettled([...this.settling])
    // a flush queues behind one the writer may be committing right now, so this waits for it too
    await this.ledger.flush()
    for (let i = 0; i < 50 && this.ledger.hasPending(); i++) {
      await new Promise((r) => setTimeout(r, 10))
      await this.ledger.flush()
    }
  }

  private track(p: Promise<unknown>): void {
    this.settling.add(p)
    p.finally(() => this.settling.delete(p)).catch(() => undefined)
  }

  // ---- authentication -----------------------------------------------------------------------

  async authenticate(c: Context<Env>): Promise<Caller> {
    if (!this.ready) await this.readyPromise
    const header = c.req.header('authorization') ?? c.req.header('x-api-key') ?? ''
    let key = header.length > 7 && header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : header.trim()
    if (!key) throw new RelayError(401, 'no API key provided: send Authorization: Bearer sk-...', 'missing_api_key')
    if (key.startsWith('sk-')) key = key.slice(3)
    let pinned = 0
    const dash = key.indexOf('-')
    if (dash >= 0) {
      const id = key.slice(dash + 1)
      key = key.slice(0, dash)
      if (!/^[0-9]{1,12}$/.test(id)) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
      pinned = Number(id)
    }
    const token = this.state.tokensByKey.get(key) ?? (key.length <= 64 ? await this.state.lookupMissingToken(key) : undefined)
    if (!token) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
    if (token.status === TOKEN_STATUS.exhausted) throw new RelayError(401, 'this API key has used up its quota', 'token_exhausted')
    if (token.status === TOKEN_STATUS.expired) throw new RelayError(401, 'this API key has expired', 'token_expired')
    if (token.status !== TOKEN_STATUS.enabled) throw new RelayError(401, 'this API key is disabled', 'token_disabled')
    const reached = tokenLimitStatus(
      {
        expired_time: token.expiredTime,
        unlimited_quota: token.unlimited,
        remain_quota: token.unlimited ? 0 : this.ledger.tokenRemain(token),
      },
      nowSec(),
    )
    if (reached !== null) {
      this.ledger.setTokenStatus(token, reached)
      if (reached === TOKEN_STATUS.expired) throw new RelayError(401, 'this API key has expired', 'token_expired')
      throw new RelayError(401, 'this API key has used up its quota', 'token_exhausted')
    }
    const user = this.state.users.get(token.userId) ?? (await this.ledger.reloadUser(token.userId))
    if (!user || user.deleted) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
    if (user.status !== 1) throw new RelayError(403, 'the owner of this API key is disabled', 'user_disabled')
    if (token.allowIps) {
      let ip = ''
      try {
        ip = getConnInfo(c).remote.address ?? ''
      } catch {
        ip = ''
      }
      const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip
      if (!token.allowIps.includes(ip) && !token.allowIps.includes(plain)) {
        throw new RelayError(403, `this API key may not be used from ${plain || 'this address'}`, 'ip_not_allowed')
      }
    }
    if (pinned && user.role < ROLE.admin)
      throw new RelayError(403, 'only administrators may pin a channel with sk-KEY-<channel id>', 'channel_pin_forbidden')
    return { token, user, group: token.group || user.group, pinned }
  }

  // ---- models --------------------------------------------------------------------------------

  modelsFor(caller: Caller): string[] {
    if (caller.token.modelLimits) return [...caller.token.modelLimits].sort()
    return this.state.modelsOf(caller.group)
  }

  ownerOf(model: string): string {
    for (const ch of this.state.channels.values()) {
      if (ch.status === 1 && ch.models.includes(model)) return adapterFor(ch.type)?.owner ?? 'custom'
    }
    return 'custom'
  }

  // ---- counting --------------------------------------------------------------------------------

  /** Tokens of the request's input, counted as OpenAI does (3 per message, 3 to prime the reply). */
  async countPrompt(call: RelayCall): Promise<number> {
    const j = call.json ?? {}
    const texts: string[] = []
    let extra = 0
    if (call.mode === 'messages') {
      // Anthropic: system and content blocks
      if (typeof j.system === 'string') texts.push(j.system)
      else if (Array.isArray(j.system)) for (const b of j.system) texts.push(String(b?.text ?? ''))
      for (const m of (Array.isArray(j.messages) ? j.messages : []) as Array<Record<string, any>>) {
        extra += 3
        if (typeof m.content === 'string') texts.push(m.content)
        else if (Array.isArray(m.content)) {
          for (const b of m.content as Array<Record<string, any>>) {
            if (b?.type === 'text') texts.push(String(b.text ?? ''))
            else if (b?.type === 'image') extra += IMAGE_TOKENS
            else if (b?.type === 'tool_use') texts.push(JSON.stringify(b.input ?? {}))
            else if (b?.type === 'tool_result') texts.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? ''))
          }
        }
      }
      if (Array.isArray(j.tools) && j.tools.length) texts.push(JSON.stringify(j.tools))
    } else if (call.mode === 'chat') {
      const messages = (Array.isArray(j.messages) ? j.messages : []) as Array<Record<string, any>>
      for (const m of messages) {
        extra += 3
        texts.push(String(m.role ?? ''))
        if (typeof m.content === 'string') texts.push(m.content)
        else if (Array.isArray(m.content)) {
          for (const p of m.content as Array<Record<string, any>>) {
            if (p?.type === 'text') texts.push(String(p.text ?? ''))
            else if (p?.type === 'image_url') extra += p.image_url?.detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS
          }
        }
        if (typeof m.name === 'string') {
          extra += 1
          texts.push(m.name)
        }
        if (Array.isArray(m.tool_calls)) texts.push(JSON.stringify(m.tool_calls))
      }
      extra += 3
      if (Array.isArray(j.tools) && j.tools.length) texts.push(JSON.stringify(j.tools))
    } else {
      const input = call.mode === 'completions' ? j.prompt : j.input
      const list = Array.isArray(input) ? input : [input]
      for (const x of list) {
        if (typeof x === 'string') texts.push(x)
        else if (Array.isArray(x)) extra += x.length
        else if (typeof x === 'number') extra += 1
      }
    }
    return extra + (await this.tokenizer.total(call.model, texts))
  }

  /** A bound the prompt cannot exceed, without a tokenizer: a token is at least one byte. */
  private promptUpperBound(call: RelayCall): number {
    let images = 0
    const messages = call.json?.messages
    if (Array.isArray(messages)) {
      for (const m of messages as Array<Record<string, any>>) {
        if (Array.isArray(m?.content)) for (const p of m.content) if (p?.type === 'image_url') images++
      }
    }
    return call.raw.length + images * IMAGE_TOKENS
  }

  // ---- the relay ----------------------------------------------------------------------------------

  async handle(c: Context<Env>, mode: Mode, path: string): Promise<Response> {
    const requestId = c.get('requestId')
    try {
      return await this.relay(c, mode, path)
    } catch (err) {
      const answer = mode === 'messages' ? anthropicErrorResponse : errorResponse
      if (err instanceof RelayError) return answer(err, requestId)
      console.error(`[${requestId}] relay failure:`, err)
      return answer(new RelayError(500, 'the relay failed to process this request', 'relay_error'), requestId)
    }
  }

  private async readCall(c: Context<Env>, mode: Mode, path: string): Promise<RelayCall> {
    const length = Number(c.req.header('content-length') ?? 0)
    if (length > MAX_BODY) throw new RelayError(413, 'request body is too large', 'body_too_large')
    const raw = Buffer.from(await c.req.raw.arrayBuffer())
    if (raw.length > MAX_BODY) throw new RelayError(413, 'request body is too large', 'body_too_large')
    const contentType = c.req.header('content-type') ?? ''
    let json: Record<string, any> | null = null
    let model = ''
    if (mode === 'transcriptions' || mode === 'translations') {
      if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
        throw new RelayError(400, 'send the audio as multipart/form-data with a file field', 'invalid_request')
      }
      model = multipartField(raw, contentType, 'model')?.value.trim() ?? ''
    } else {
      try {
        json = JSON.parse(raw.toString('utf8')) as Record<string, any>
      } catch {
        throw new RelayError(400, 'the request body is not valid JSON', 'invalid_request')
      }
      if (!json || typeof json !== 'object' || Array.isArray(json))
        throw new RelayError(400, 'the request body must be a JSON object', 'invalid_request')
      if (typeof json.model === 'string') model = json.model.trim()
    }
    if (!model) model = DEFAULT_MODEL[mode] ?? ''
    if (!model) throw new RelayError(400, 'model is required', 'model_required')
    const stream = (mode === 'chat' || mode === 'completions' || mode === 'messages') && json?.stream === true
    const wantUsage = stream && json?.stream_options?.include_usage === true
    const call: RelayCall = { mode, path, raw, json, contentType, model, stream, wantUsage }
    if (mode === 'messages') {
      call.headers = {
        'anthropic-version': c.req.header('anthropic-version') ?? '',
        'anthropic-beta': c.req.header('anthropic-beta') ?? '',
      }
    }
    return call
  }

  /** What to hold before forwarding: exact for per-call prices, images and speech; else an estimate. */
  private estimate(call: RelayCall, price: Price, promptTokens: number | null): number {
    const qpu = this.ctx.options.quotaPerUnit
    if (call.mode === 'images') return imageQuota(call.json ?? {}, call.model, price, qpu)
    if (price.modelPrice >= 0) return relayQuota(price, usageOf(0, 0), qpu)
    const ratio = price.modelRatio * price.groupRatio
    if (call.mode === 'speech') return Math.ceil(String(call.json?.input ?? '').length * ratio)
    if (call.mode === 'embeddings' || call.mode === 'moderations') return Math.ceil((promptTokens ?? this.promptUpperBound(call)) * ratio)
    const max = Number(call.json?.max_tokens ?? call.json?.max_completion_tokens ?? 0)
    if ((call.mode === 'chat' || call.mode === 'completions' || call.mode === 'messages') && max > 0) {
      const prompt = promptTokens ?? this.promptUpperBound(call)
      return Math.ceil((prompt + max * price.completionRatio) * ratio)
    }
    return Math.ceil(this.ctx.options.num('PreConsumedQuota', 500) * ratio)
  }

  private async reserve(caller: Caller, call: RelayCall, price: Price): Promise<Reservation> {
    let amount = this.estimate(call, price, null)
    let r = this.ledger.reserve(caller.user, caller.token, amount)
    const chatLike = call.mode === 'chat' || call.mode === 'completions' || call.mode === 'messages'
    const bounded =
      call.mode === 'embeddings' ||
      call.mode === 'moderations' ||
      (Number(call.json?.max_tokens ?? call.json?.max_completion_tokens ?? 0) > 0 && chatLike)
    if ('refused' in r && bounded && price.modelPrice < 0) {
      // the cheap bound did not fit: count the prompt for real and try once more
      amount = this.estimate(call, price, await this.countPrompt(call))
      r = this.ledger.reserve(caller.user, caller.token, amount)
    }
    if ('refused' in r) throw new RelayError(r.status, r.refused, r.code)
    return r
  }

  private async relay(c: Context<Env>, mode: Mode, path: string): Promise<Response> {
    const t0 = performance.now()
    const caller = await this.authenticate(c)
    const call = await this.readCall(c, mode, path)
    const { token, group } = caller
    if (token.modelLimits && !token.modelLimits.has(call.model)) {
      throw new RelayError(403, `this API key may not use the model ${call.model}`, 'model_not_allowed')
    }
    let pinned: ChannelState | undefined
    if (caller.pinned) {
      pinned = this.state.channels.get(caller.pinned)
      if (!pinned) throw new RelayError(404, `channel ${caller.pinned} does not exist`, 'channel_not_found')
      if (pinned.status !== 1) throw new RelayError(403, `channel ${caller.pinned} is disabled`, 'channel_disabled')
    } else if (!this.state.hasRoute(group, call.model)) {
      throw new RelayError(503, `no channel available for the model ${call.model} in the group ${group}`, 'model_not_found')
    }
    const price = this.pricing.price(call.model, group)
    const hold = await this.reserve(caller, call, price)
    this.inflight++
    let handedOver = false
    try {
      const retries = pinned ? 0 : Math.max(0, Math.floor(this.ctx.options.num('RetryTimes', 0)))
      const tried: number[] = []
      const signal = c.req.raw.signal
      let last: RelayError | null = null
      for (let attempt = 0; attempt <= retries; attempt++) {
        const ch = pinned ?? this.state.pick(group, call.model, attempt, tried, this.random)
        if (!ch) break
        tried.push(ch.id)
        const adapter = adapterFor(ch.type)
        if (!adapter || !adapter.supports(mode)) {
          last = new RelayError(
            400,
            `${MODE_LABEL[mode]} is not supported for this channel type (${channelTypeName(ch.type)})`,
            'channel_type_not_supported',
          )
          continue
        }
        const upstreamModel = ch.modelMapping?.[call.model] || call.model
        let req: UpstreamCall
        try {
          req = adapter.build(call, ch, upstreamModel, () => this.forwardBody(call, adapter, upstreamModel))
        } catch (err) {
          last = new RelayError(500, `channel ${ch.id} is misconfigured: ${(err as Error).message}`, 'channel_misconfigured')
          continue
        }
        let res: UpstreamResponse
        try {
          res = await this.upstream.request(req, signal)
        } catch (err) {
          if (signal.aborted) throw new RelayError(499, 'the client closed the request', 'client_closed')
          last = new RelayError(
            502,
            `the upstream could not be reached: ${(err as Error).message}`,
            'upstream_unreachable',
            'upstream_error',
          )
          continue
        }
        if (res.statusCode < 200 || res.statusCode >= 300) {
          const uerr = parseUpstreamError(res.statusCode, await readLimited(res.body))
          const disabling = this.monitor.consider(ch, uerr)
          if (disabling) this.track(disabling)
          const status = this.mapStatus(ch, res.statusCode)
          last = new RelayError(status, uerr.message, uerr.code, uerr.type)
          if (status === 429 || status >= 500) continue
          break
        }
        handedOver = true
        const info: Delivery = {
          caller,
          call,
          price,
          hold,
          ch,
          adapter,
          tried,
          t0,
          upstreamModel,
          requestId: c.get('requestId'),
          outgoing: nodeResponse(c),
        }
        return call.stream ? this.deliverStream(info, res) : await this.deliver(info, res)
      }
      if (!last) last = new RelayError(503, `no channel available for the model ${call.model} in the group ${group}`, 'model_not_found')
      if (last.status === 429)
        last = new RelayError(429, 'the upstream channels of this group are saturated, please try again later', last.code, last.type)
      throw last
    } finally {
      if (!handedOver) {
        this.ledger.release(hold)
        this.inflight--
      }
    }
  }

  private mapStatus(ch: ChannelState, status: number): number {
    const to = ch.statusCodeMapping?.[String(status)]
    const n = to ? Number(to) : NaN
    return Number.isInteger(n) && n >= 100 && n < 600 ? n : status
  }

  /**
   * The request bytes for an OpenAI-format upstream: as received unless the channel maps the
   * model or we add stream_options.include_usage (then the one field is rewritten).
   */
  private forwardBody(call: RelayCall, adapter: Adapter, upstreamModel: string): Buffer {
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

  /** Usage when the upstream gave none (or the mode never has any): counted from both sides. */
  private async countUsage(
    call: RelayCall,
    produced: { texts: string[]; extraTokens: number } | null,
    answer: Buffer | null,
  ): Promise<Usage> {
    switch (call.mode) {
      case 'speech':
        return usageOf(String(call.json?.input ?? '').length, 0)
      case 'images':
        return usageOf(Math.max(1, Number(call.json?.n) || 1), 0)
      case 'embeddings':
      case 'moderations':
        return usageOf(await this.countPrompt(call), 0)
      case 'transcriptions':
      case 'translations': {
        let text = answer?.toString('utf8') ?? ''
        if (text.startsWith('{')) {
          try {
            text = String((JSON.parse(text) as { text?: unknown }).text ?? '')
          } catch {
            /* count the raw answer */
          }
        }
        return usageOf(0, await this.tokenizer.total(call.model, [text]))
      }
      default: {
        const prompt = await this.countPrompt(call)
        let texts: string[] = []
        let extra = 0
        if (produced) {
          texts = produced.texts
          extra = produced.extraTokens
        } else if (answer && call.mode === 'messages') {
          try {
            const j = JSON.parse(answer.toString('utf8')) as { content?: Array<Record<string, any>> }
            for (const b of j.content ?? []) texts.push(b.type === 'tool_use' ? JSON.stringify(b.input ?? {}) : String(b.text ?? ''))
          } catch {
            /* nothing countable */
          }
        } else if (answer) {
          try {
            const j = JSON.parse(answer.toString('utf8')) as { choices?: Array<Record<string, any>> }
            for (const ch of j.choices ?? []) {
              if (typeof ch.text === 'string') texts.push(ch.text)
              const m = ch.message
              if (m) {
                texts.push(contentText(m.content))
                for (const t of m.tool_calls ?? []) {
                  extra += 7
                  texts.push(String(t.function?.name ?? ''), String(t.function?.arguments ?? ''))
                }
              }
            }
          } catch {
            /* nothing countable */
          }
        }
        return usageOf(prompt, extra + (await this.tokenizer.total(call.model, texts)))
      }
    }
  }

  private charge(info: Delivery, usage: Usage, opts: { frt?: number; note?: string } = {}): void {
    const { caller, call, price, hold, ch, tried, t0, upstreamModel } = info
    const qpu = this.ctx.options.quotaPerUnit
    let quota = call.mode === 'images' ? imageQuota(call.json ?? {}, call.model, price, qpu) : relayQuota(price, usage, qpu)
    let content = priceContent(price)
    if (price.modelPrice < 0 && call.mode !== 'images' && usage.prompt_tokens + usage.completion_tokens === 0) {
      quota = 0
      content += ' (the upstream may have timed out)'
    }
    if (opts.note) content += ` (${opts.note})`
    const now = nowSec()
    let extra: Record<string, string | number | boolean> | undefined
    if (opts.frt !== undefined) extra = { frt: opts.frt }
    if (upstreamModel !== call.model) extra = { ...extra, is_model_mapped: true, upstream_model_name: upstreamModel }
    const log: LogRow = {
      user_id: caller.user.id,
      created_at: now,
      type: 2,
      content,
      username: caller.user.username,
      token_name: caller.token.name,
      token_id: caller.token.id,
      model_name: call.model,
      quota,
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      use_time: Math.floor((performance.now() - t0) / 1000),
      is_stream: call.stream ? 1 : 0,
      channel: ch.id,
      other: priceOther(price, tried, extra),
    }
    this.ledger.settle(hold, quota, ch.id, log, now)
  }

  private async deliver(info: Delivery, res: UpstreamResponse): Promise<Response> {
    const { call, adapter } = info
    let out: { body: Buffer | string; usage: Usage | null; contentType: string }
    let answer: Buffer
    try {
      answer = Buffer.from(await res.body.arrayBuffer())
      const ct = String(res.headers['content-type'] ?? 'application/json')
      out = adapter.response(call, answer, ct)
    } catch (err) {
      this.ledger.release(info.hold)
      this.inflight--
      throw new RelayError(
        502,
        `the upstream answer could not be read: ${(err as Error).message}`,
        'bad_upstream_response',
        'upstream_error',
      )
    }
    const reported =
      call.mode === 'chat' || call.mode === 'completions' || call.mode === 'embeddings' || call.mode === 'messages' ? out.usage : null
    if (reported) {
      this.charge(info, reported)
      this.inflight--
    } else {
      const p = this.countUsage(call, null, answer)
        .catch(() => usageOf(0, 0))
        .then((u) => this.charge(info, u))
        .finally(() => this.inflight--)
      this.track(p)
    }
    const node = info.outgoing
    if (node && !node.headersSent && !node.destroyed) {
      // straight onto the socket: one write with the headers
      const length = typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.length
      node.writeHead(200, {
        'content-type': out.contentType,
        'content-length': length,
        'access-control-allow-origin': '*',
        'x-request-id': info.requestId,
      })
      node.end(out.body)
      return ALREADY_SENT!
    }
    return new Response(out.body as unknown as BodyInit, {
      status: 200,
      headers: { 'content-type': out.contentType, 'access-control-allow-origin': '*' },
    })
  }

  /**
   * Streams the upstream's events to the client as they arrive: straight onto the Node response
   * when running under @hono/node-server (headers go out with the first bytes), else as a web
   * ReadableStream. Settles when the upstream ends, breaks off, or the client goes away.
   */
  private deliverStream(info: Delivery, res: UpstreamResponse): Response {
    const { call, adapter } = info
    const body = res.body as unknown as Readable
    const framer = new SseFramer()
    const translator = adapter.stream(call, adapter.streamUsage && !call.wantUsage)
    let frt: number | undefined
    let done = false
    let clientGone = false
    let sink: { write(b: Buffer | string): void; end(b: Buffer | string | null): void }

    const track = (p: Promise<void>) => {
      this.track(p)
      return p
    }

    const send = (out: Buffer | string | null) => {
      if (!out || clientGone) return
      if (frt === undefined) frt = Math.round(performance.now() - info.t0)
      sink.write(out)
    }

    const finish = async (failed: Error | null) => {
      if (done) return
      done = true
      body.off('data', onData)
      const rest = framer.rest()
      if (rest && !clientGone) send(translator.segment(rest))
      const note = clientGone ? 'the client disconnected' : failed ? 'the upstream stream broke off' : undefined
      let usage = translator.usage
      let closed = false
      const close = (u: Usage) => {
        if (closed || clientGone) return
        closed = true
        try {
          // a broken upstream ends the stream as OpenAI does: an error event the SDKs raise
          sink.end(failed ? errorEvent(`the upstream stream broke off: ${failed.message}`) : translator.end(u))
        } catch {
          /* the client is gone */
        }
      }
      try {
        if (usage) close(usage)
        else if (!call.wantUsage) close(usageOf(0, 0))
        if (!usage) usage = await this.countUsage(call, translator.produced(), null).catch(() => usageOf(0, 0))
        close(usage)
        this.charge(info, usage, { frt, note })
      } finally {
        this.inflight--
      }
    }

    const onData = (chunk: Buffer) => {
      const seg = framer.push(chunk)
      if (seg) send(translator.segment(seg))
    }
    const listen = () => {
      body.on('data', onData)
      body.once('end', () => void track(finish(null)))
      body.once('error', (err: Error) => void track(finish(clientGone ? null : err)))
    }
    const goneNow = () => {
      if (clientGone || done) return
      clientGone = true
      body.destroy()
      void track(finish(null))
    }

    const node = info.outgoing
    if (node && !node.headersSent && !node.destroyed) {
      node.writeHead(200, { ...STREAM_HEADERS, 'x-request-id': info.requestId })
      sink = {
        write(b) {
          if (!node.write(b)) body.pause()
        },
        end(b) {
          if (b) node.end(b)
          else node.end()
        },
      }
      node.on('drain', () => body.resume())
      node.once('close', () => {
        if (!node.writableFinished) goneNow()
      })
      listen()
      return ALREADY_SENT!
    }

    let controller!: ReadableStreamDefaultController<Uint8Array>
    sink = {
      write(b) {
        controller.enqueue(typeof b === 'string' ? Buffer.from(b) : b)
        if ((controller.desiredSize ?? 1) <= 0) body.pause()
      },
      end(b) {
        if (b) controller.enqueue(typeof b === 'string' ? Buffer.from(b) : b)
        controller.close()
      },
    }
    const stream = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c
          listen()
        },
        pull() {
          if (body.isPaused()) body.resume()
        },
        cancel: goneNow,
      },
      { highWaterMark: 64 },
    )
    return new Response(stream, { status: 200, headers: STREAM_HEADERS })
  }

  // ---- channel test (used by /api/channel/test) -------------------------------------------------

  /** One real, non-stream chat call through the channel's adapter. Returns seconds and usage. */
  async testChannel(
    ch: ChannelState,
    model: string,
  ): Promise<
    | { ok: true; seconds: number; usage: Usage; model: string }
    | { ok: false; seconds: number; error: UpstreamError | null; message: string }
  > {
    const adapter = adapterFor(ch.type)
    const start = performance.now()
    const secs = () => Math.round(performance.now() - start) / 1000
    if (!adapter || !adapter.supports('chat')) {
      return {
        ok: false,
        seconds: 0,
        error: null,
        message: `channel test is not supported for this channel type (${channelTypeName(ch.type)})`,
      }
    }
    const upstreamModel = ch.modelMapping?.[model] || model
    const json: Record<string, any> = { model: upstreamModel, messages: [{ role: 'user', content: 'hi' }] }
    if (/^o\d/.test(upstreamModel)) json.max_completion_tokens = 1
    else json.max_tokens = 1
    const raw = Buffer.from(JSON.stringify(json))
    const call: RelayCall = {
      mode: 'chat',
      path: '/chat/completions',
      raw,
      json,
      contentType: 'application/json',
      model,
      stream: false,
      wantUsage: false,
    }
    let res: UpstreamResponse
    try {
      res = await this.upstream.request(
        adapter.build(call, ch, upstreamModel, () => raw),
        AbortSignal.timeout(60_000),
      )
    } catch (err) {
      return { ok: false, seconds: secs(), error: null, message: `the upstream could not be reached: ${(err as Error).message}` }
    }
    const text = await readLimited(res.body, 1024 * 1024)
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const e = parseUpstreamError(res.statusCode, text)
      return { ok: false, seconds: secs(), error: e, message: `status ${res.statusCode}: ${e.message}` }
    }
    let usage: Usage | null = null
    try {
      usage = adapter.response(call, Buffer.from(text), String(res.headers['content-type'] ?? 'application/json')).usage
    } catch (err) {
      return { ok: false, seconds: secs(), error: null, message: `the upstream answer could not be read: ${(err as Error).message}` }
    }
    if (!usage) usage = extractUsage(Buffer.from(text))
    if (!usage) return { ok: false, seconds: secs(), error: null, message: 'the upstream answered without usage' }
    return { ok: true, seconds: secs(), usage, model }
  }

  async close(): Promise<void> {
    const until = Date.now() + 10_000
    while ((this.inflight > 0 || this.settling.size > 0) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20))
    }
    await this.idle()
    await this.ledger.close()
    await this.tokenizer.close()
    await this.upstream.close().catch(() => undefined)
  }
}
