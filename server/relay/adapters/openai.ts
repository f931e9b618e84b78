import type { ChannelState } from '../state.ts'
import type { Usage } from '../pricing.ts'
import type { UpstreamCall } from '../upstream.ts'
import { splitBase } from '../upstream.ts'
import { DONE, eventData, forEachEvent, sseData } from '../sse.ts'
import type { Adapter, Mode, RelayCall, StreamTranslator } from './types.ts'
import { AZURE_API_VERSION, CHANNEL_TYPE, channelOwner } from '../../../domain/channel-types.ts'
import { ResponsesPassthrough, rememberResponse, responseIdOf } from './native.ts'
import { ReasonError, reason } from '../../lib/status-reason.ts'

/**
 * OpenAI-compatible channel types: where each one lives by default and the path prefix that
 * replaces /v1. A channel's base_url overrides the host (and may carry its own path).
 */
export const OPENAI_COMPATIBLE: Record<
  number,
  { base: string; prefix: string; streamUsage: boolean; chatPath?: string; responses?: boolean }
> = {
  1: { base: 'https://api.openai.com', prefix: '/v1', streamUsage: true, responses: true },
  8: { base: '', prefix: '/v1', streamUsage: true },
  4: { base: 'http://localhost:11434', prefix: '/v1', streamUsage: true },
  15: { base: 'https://qianfan.baidubce.com', prefix: '/v2', streamUsage: true },
  16: { base: 'https://open.bigmodel.cn', prefix: '/api/paas/v4', streamUsage: false },
  26: { base: 'https://open.bigmodel.cn', prefix: '/api/paas/v4', streamUsage: false },
  17: { base: 'https://dashscope.aliyuncs.com', prefix: '/compatible-mode/v1', streamUsage: true },
  18: { base: 'https://spark-api-open.xf-yun.com', prefix: '/v1', streamUsage: false },
  19: { base: 'https://ai.360.cn', prefix: '/v1', streamUsage: false },
  22: { base: '', prefix: '/api/v1', streamUsage: false },
  23: { base: 'https://api.hunyuan.cloud.tencent.com', prefix: '/v1', streamUsage: false },
  25: { base: 'https://api.moonshot.cn', prefix: '/v1', streamUsage: false },
  31: { base: 'https://api.lingyiwanwu.com', prefix: '/v1', streamUsage: false },
  34: { base: 'https://api.cohere.ai', prefix: '/compatibility/v1', streamUsage: false },
  35: { base: 'https://api.minimax.chat', prefix: '/v1', streamUsage: false, chatPath: '/text/chatcompletion_v2' },
}

/** Finds `"usage": {...}` (the last one) without parsing the whole body. */
export function extractUsage(buf: Buffer): Usage | null {
  let at = buf.length
  for (;;) {
    const i = buf.lastIndexOf('"usage"', at)
    if (i < 0) return null
    let j = i + 7
    while (buf[j] === 32 || buf[j] === 10 || buf[j] === 13 || buf[j] === 9) j++
    if (buf[j] === 58) {
      j++
      while (buf[j] === 32 || buf[j] === 10 || buf[j] === 13 || buf[j] === 9) j++
      if (buf[j] !== 123) return null
      let depth = 0
      let k = j
      for (; k < buf.length; k++) {
        const b = buf[k]
        if (b === 123) depth++
        else if (b === 125 && --depth === 0) break
      }
      if (depth !== 0) return null
      try {
        const u = JSON.parse(buf.toString('utf8', j, k + 1)) as Record<string, unknown>
        return normaliseUsage(u)
      } catch {
        return null
      }
    }
    at = i - 1
    if (at < 0) return null
  }
}

export function normaliseUsage(u: Record<string, unknown> | null | undefined): Usage | null {
  if (!u || typeof u !== 'object') return null
  const prompt = Number(u.prompt_tokens ?? u.input_tokens ?? 0) || 0
  const completion = Number(u.completion_tokens ?? u.output_tokens ?? 0) || 0
  const total = Number(u.total_tokens ?? 0) || prompt + completion
  if (prompt === 0 && completion === 0 && total === 0) return null
  return { prompt_tokens: prompt, completion_tokens: completion || Math.max(0, total - prompt), total_tokens: total }
}

const RETAIN_LIMIT = 8 * 1024 * 1024

/** Pulls the generated text (and tool calls) out of OpenAI chunks, for counting. */
export function collectProduced(json: any, texts: string[]): number {
  let extra = 0
  const choices = json?.choices
  if (!Array.isArray(choices)) return 0
  for (const c of choices) {
    const d = c?.delta ?? c?.message
    if (typeof c?.text === 'string') texts.push(c.text)
    if (!d) continue
    if (typeof d.content === 'string') texts.push(d.content)
    if (typeof d.reasoning_content === 'string') texts.push(d.reasoning_content)
    if (Array.isArray(d.tool_calls)) {
      for (const t of d.tool_calls) {
        if (t?.id) extra += 7
        if (typeof t?.function?.name === 'string') texts.push(t.function.name)
        if (typeof t?.function?.arguments === 'string') texts.push(t.function.arguments)
      }
    }
  }
  return extra
}

/**
 * Passes the upstream's SSE bytes through. Looks only at events that mention "usage" (to read
 * it, and to drop the usage-only chunk when we asked for it and the client did not) and at
 * [DONE] (held back when the client asked for usage the upstream may not send).
 */
export class PassthroughStream implements StreamTranslator {
  usage: Usage | null = null
  private retained: Buffer[] = []
  private retainedBytes = 0
  private texts: string[] = []
  private extra = 0
  private heldDone = false
  private call: RelayCall
  private hideUsage: boolean

  constructor(call: RelayCall, hideUsage: boolean) {
    this.call = call
    this.hideUsage = hideUsage
  }

  private retain(seg: Buffer): void {
    if (this.retainedBytes + seg.length <= RETAIN_LIMIT) {
      this.retained.push(seg)
      this.retainedBytes += seg.length
      return
    }
    // past the limit: extract the text now rather than keep the bytes
    for (const b of this.retained) this.scan(b)
    this.retained = []
    this.scan(seg)
  }

  private scan(seg: Buffer): void {
    forEachEvent(seg, (s, e) => {
      const { data } = eventData(seg.toString('utf8', s, e))
      if (!data || data[0] !== '{') return
      try {
        this.extra += collectProduced(JSON.parse(data), this.texts)
      } catch {
        /* not JSON */
      }
    })
  }

  segment(seg: Buffer): Buffer | string | null {
    this.retain(seg)
    const hasUsage = seg.indexOf('"usage"') >= 0
    const hasDone = this.call.wantUsage && seg.indexOf('[DONE]') >= 0
    if (!hasUsage && !hasDone) return seg
    let out = ''
    let changed = false
    forEachEvent(seg, (s, e) => {
      const text = seg.toString('utf8', s, e)
      const { data } = eventData(text)
      if (data === '[DONE]' && this.call.wantUsage && !this.usage) {
        this.heldDone = true
        changed = true
        return
      }
      if (data.includes('"usage"') && data[0] === '{') {
        try {
          const j = JSON.parse(data) as { usage?: Record<string, unknown>; choices?: unknown[] }
          const u = normaliseUsage(j.usage)
          if (u) {
            this.usage = u
            if (this.hideUsage && Array.isArray(j.choices) && j.choices.length === 0) {
              changed = true
              return
            }
          }
        } catch {
          /* pass it on as it is */
        }
      }
      out += text
    })
    if (!changed) return seg
    return out || null
  }

  end(usage: Usage): string | null {
    if (!this.heldDone) return null
    const chunk = {
      id: `chatcmpl-usage`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: this.call.model,
      choices: [],
      usage,
    }
    return (this.call.wantUsage && !this.usage ? sseData(chunk) : '') + DONE
  }

  produced(): { texts: string[]; extraTokens: number } {
    for (const b of this.retained) this.scan(b)
    this.retained = []
    return { texts: this.texts, extraTokens: this.extra }
  }
}

const MODES_ALL: ReadonlySet<Mode> = new Set([
  'chat',
  'completions',
  'embeddings',
  'images',
  'moderations',
  'speech',
  'transcriptions',
  'translations',
])

function authHeaders(call: RelayCall, key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': call.contentType || 'application/json' }
}

/** OpenAI and every OpenAI-compatible type: same wire format, only the address differs. */
export function openaiAdapter(type: number): Adapter {
  const spec = OPENAI_COMPATIBLE[type]!
  return {
    owner: channelOwner(type),
    streamUsage: spec.streamUsage,
    supports: (mode) => MODES_ALL.has(mode) || (mode === 'responses' && spec.responses === true),
    build(call: RelayCall, ch: ChannelState, _model: string, body: () => Buffer): UpstreamCall {
      const base = ch.baseUrl || spec.base
      if (!base) throw new ReasonError(reason('channel.test.noBaseUrl'))
      const { origin, prefix } = splitBase(base)
      const rest = call.mode === 'chat' && spec.chatPath ? spec.chatPath : call.path
      const headers = authHeaders(call, ch.key)
      if (type === 1 && ch.organization) headers['openai-organization'] = ch.organization
      return { origin, path: prefix + spec.prefix + rest, method: 'POST', headers, body: body() }
    },
    response(call, body, contentType) {
      if (call.mode === 'responses') rememberResponse(responseIdOf(body), call.channelId)
      return { body, usage: contentType.includes('json') ? extractUsage(body) : null, contentType }
    },
    stream: (call, hideUsage) =>
      call.mode === 'responses' ? new ResponsesPassthrough(call.channelId) : new PassthroughStream(call, hideUsage),
    // a front door reads the chat chunks itself (doors/index.ts), parsing each event once
    chatChunks: true,
  }
}

/** Azure OpenAI (type 3): deployment named after the model (dots removed), api-version from `other`. */
export const azureAdapter: Adapter = {
  owner: channelOwner(CHANNEL_TYPE.azure),
  streamUsage: true,
  supports: (mode) => MODES_ALL.has(mode),
  build(call, ch, model, body) {
    if (!ch.baseUrl) throw new ReasonError(reason('channel.test.noAzureBaseUrl'))
    const { origin, prefix } = splitBase(ch.baseUrl)
    // the version the channel form fills into an empty `other`, so a channel saved without one still works
    const version = ch.other || AZURE_API_VERSION
    const deployment = encodeURIComponent(model.replace(/\./g, ''))
    return {
      origin,
      path: `${prefix}/openai/deployments/${deployment}${call.path}?api-version=${encodeURIComponent(version)}`,
      method: 'POST',
      headers: { 'api-key': ch.key, 'content-type': call.contentType || 'application/json' },
      body: body(),
    }
  },
  response(_call, body, contentType) {
    return { body, usage: contentType.includes('json') ? extractUsage(body) : null, contentType }
  },
  stream: (call, hideUsage) => new PassthroughStream(call, hideUsage),
  chatChunks: true,
}
