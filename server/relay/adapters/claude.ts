import { splitBase } from '../upstream.ts'
import type { Usage } from '../pricing.ts'
import { DONE, chatChunkEvent, eventsOf, sseData } from '../sse.ts'
import type { Adapter, RelayCall, StreamTranslator } from './types.ts'
import { contentText, finishReason, usageOf } from './types.ts'
import { CHANNEL_TYPE, channelOwner } from '../../../domain/channel-types.ts'
import { anthropicErrorEvent } from './native.ts'

export const CLAUDE_DEFAULT_MAX_TOKENS = 4096
const ANTHROPIC_VERSION = '2023-06-01'

type Block = Record<string, unknown>

function imageBlock(url: string): Block {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url)
  if (m) return { type: 'image', source: { type: 'base64', media_type: m[1], data: m[2] } }
  return { type: 'image', source: { type: 'url', url } }
}

function userBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  const out: Block[] = []
  if (Array.isArray(content)) {
    for (const p of content as Array<Record<string, any>>) {
      if (p?.type === 'text') out.push({ type: 'text', text: String(p.text ?? '') })
      else if (p?.type === 'image_url') {
        const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url
        if (url) out.push(imageBlock(String(url)))
      }
    }
  }
  return out
}

function parseArgs(s: unknown): unknown {
  if (typeof s !== 'string' || !s.trim()) return {}
  try {
    return JSON.parse(s)
  } catch {
    return {}
  }
}

/** OpenAI chat request -> Anthropic messages request. */
export function toClaudeRequest(body: Record<string, any>, model: string): Record<string, unknown> {
  const system: string[] = []
  const messages: Array<{ role: 'user' | 'assistant'; content: Block[] }> = []
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return
    const last = messages[messages.length - 1]
    if (last && last.role === role) last.content.push(...blocks)
    else messages.push({ role, content: blocks })
  }
  for (const m of (Array.isArray(body.messages) ? body.messages : []) as Array<Record<string, any>>) {
    if (m.role === 'system' || m.role === 'developer') {
      const t = contentText(m.content)
      if (t) system.push(t)
    } else if (m.role === 'assistant') {
      const blocks: Block[] = []
      const t = contentText(m.content)
      if (t) blocks.push({ type: 'text', text: t })
      for (const tc of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Array<Record<string, any>>) {
        blocks.push({
          type: 'tool_use',
          id: String(tc.id ?? ''),
          name: String(tc.function?.name ?? ''),
          input: parseArgs(tc.function?.arguments),
        })
      }
      push('assistant', blocks)
    } else if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: String(m.tool_call_id ?? ''), content: contentText(m.content) }])
    } else {
      push('user', userBlocks(m.content))
    }
  }
  const out: Record<string, unknown> = {
    model,
    messages,
    max_tokens: Number(body.max_tokens ?? body.max_completion_tokens) || CLAUDE_DEFAULT_MAX_TOKENS,
  }
  if (system.length) out.system = system.join('\n')
  if (body.stream) out.stream = true
  if (typeof body.temperature === 'number') out.temperature = Math.min(1, body.temperature)
  if (typeof body.top_p === 'number') out.top_p = body.top_p
  if (typeof body.top_k === 'number') out.top_k = body.top_k
  if (body.stop) out.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop]
  if (body.user) out.metadata = { user_id: String(body.user) }
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Array<Record<string, any>>
  const fns = tools.filter((t) => t?.type === 'function' && t.function?.name)
  if (fns.length) {
    out.tools = fns.map((t) => ({
      name: t.function.name,
      description: t.function.description ?? '',
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
    }))
    const tc = body.tool_choice
    if (tc === 'required') out.tool_choice = { type: 'any' }
    else if (tc === 'none') out.tool_choice = { type: 'none' }
    else if (tc && typeof tc === 'object' && tc.function?.name) out.tool_choice = { type: 'tool', name: tc.function.name }
    else if (tc === 'auto') out.tool_choice = { type: 'auto' }
  }
  return out
}

function claudeUsage(u: Record<string, any> | undefined): Usage | null {
  if (!u) return null
  const prompt = (Number(u.input_tokens) || 0) + (Number(u.cache_creation_input_tokens) || 0) + (Number(u.cache_read_input_tokens) || 0)
  const completion = Number(u.output_tokens) || 0
  return prompt || completion ? usageOf(prompt, completion) : null
}

/** Anthropic message -> OpenAI chat.completion. */
export function fromClaudeResponse(msg: Record<string, any>): { body: Record<string, unknown>; usage: Usage | null } {
  let text = ''
  const toolCalls: unknown[] = []
  for (const b of (Array.isArray(msg.content) ? msg.content : []) as Array<Record<string, any>>) {
    if (b.type === 'text') text += b.text ?? ''
    else if (b.type === 'tool_use') {
      toolCalls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } })
    }
  }
  const usage = claudeUsage(msg.usage)
  const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length && !text ? null : text }
  if (toolCalls.length) message.tool_calls = toolCalls
  return {
    body: {
      id: msg.id ?? 'chatcmpl-claude',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: msg.model,
      choices: [{ index: 0, message, finish_reason: finishReason(msg.stop_reason) }],
      usage: usage ?? usageOf(0, 0),
    },
    usage,
  }
}

/** Anthropic SSE (message_start, content_block_*, message_delta, message_stop) -> OpenAI chunks. */
class ClaudeStream implements StreamTranslator {
  usage: Usage | null = null
  private prompt = 0
  private completion = 0
  private id = 'chatcmpl-claude'
  private model = ''
  private created = Math.floor(Date.now() / 1000)
  private texts: string[] = []
  private toolIndex = -1
  private blockTool = new Map<number, number>()
  private call: RelayCall

  constructor(call: RelayCall) {
    this.call = call
    this.model = call.model
  }

  private chunk(delta: Record<string, unknown>, finish: string | null = null): string {
    return chatChunkEvent({ id: this.id, created: this.created, model: this.model }, delta, finish)
  }

  segment(seg: Buffer): string | null {
    let out = ''
    for (const ev of eventsOf(seg)) {
      const j = ev.json as Record<string, any> | undefined
      if (!j) continue
      switch (j.type) {
        case 'message_start': {
          const m = j.message ?? {}
          if (m.id) this.id = m.id
          if (m.model) this.model = m.model
          const u = claudeUsage(m.usage)
          if (u) {
            this.prompt = u.prompt_tokens
            this.completion = u.completion_tokens
          }
          out += this.chunk({ role: 'assistant', content: '' })
          break
        }
        case 'content_block_start': {
          const b = j.content_block ?? {}
          if (b.type === 'tool_use') {
            this.toolIndex++
            this.blockTool.set(Number(j.index), this.toolIndex)
            this.texts.push(String(b.name ?? ''))
            out += this.chunk({
              tool_calls: [{ index: this.toolIndex, id: b.id, type: 'function', function: { name: b.name, arguments: '' } }],
            })
          } else if (b.type === 'text' && b.text) {
            this.texts.push(b.text)
            out += this.chunk({ content: b.text })
          }
          break
        }
        case 'content_block_delta': {
          const d = j.delta ?? {}
          if (d.type === 'text_delta') {
            this.texts.push(String(d.text ?? ''))
            out += this.chunk({ content: d.text ?? '' })
          } else if (d.type === 'input_json_delta') {
            const idx = this.blockTool.get(Number(j.index)) ?? Math.max(0, this.toolIndex)
            this.texts.push(String(d.partial_json ?? ''))
            out += this.chunk({ tool_calls: [{ index: idx, function: { arguments: d.partial_json ?? '' } }] })
          } else if (d.type === 'thinking_delta') {
            this.texts.push(String(d.thinking ?? ''))
            out += this.chunk({ reasoning_content: d.thinking ?? '' })
          }
          break
        }
        case 'message_delta': {
          const u = j.usage ?? {}
          if (u.output_tokens !== undefined) this.completion = Number(u.output_tokens) || 0
          if (u.input_tokens) this.prompt = Number(u.input_tokens) || this.prompt
          out += this.chunk({}, finishReason(j.delta?.stop_reason) ?? 'stop')
          break
        }
        case 'error':
          out += sseData({ error: { message: j.error?.message ?? 'upstream error', type: j.error?.type ?? 'upstream_error', code: null } })
          break
      }
      if (this.prompt || this.completion) this.usage = usageOf(this.prompt, this.completion)
    }
    return out || null
  }

  end(usage: Usage): string | null {
    const tail = this.call.wantUsage
      ? sseData({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage })
      : ''
    return tail + DONE
  }

  produced() {
    return { texts: this.texts, extraTokens: 0 }
  }
}

/**
 * Anthropic's own /v1/messages passed through: the bytes go as they are; only events that
 * mention usage are read (message_start carries the input, message_delta the output).
 */
class MessagesPassthrough implements StreamTranslator {
  usage: Usage | null = null
  private prompt = 0
  private completion = 0
  private texts: string[] = []

  segment(seg: Buffer): Buffer {
    const hasUsage = seg.indexOf('"usage"') >= 0
    const hasText = seg.indexOf('_delta"') >= 0
    if (!hasUsage && !hasText) return seg
    for (const ev of eventsOf(seg)) {
      const j = ev.json as Record<string, any> | undefined
      if (!j) continue
      if (j.type === 'message_start') {
        const u = claudeUsage(j.message?.usage)
        if (u) {
          this.prompt = u.prompt_tokens
          this.completion = u.completion_tokens
        }
      } else if (j.type === 'message_delta' && j.usage) {
        if (j.usage.output_tokens !== undefined) this.completion = Number(j.usage.output_tokens) || 0
        if (j.usage.input_tokens) this.prompt = Number(j.usage.input_tokens) || this.prompt
      } else if (j.type === 'content_block_delta') {
        const d = j.delta ?? {}
        this.texts.push(String(d.text ?? d.partial_json ?? d.thinking ?? ''))
      }
      if (this.prompt || this.completion) this.usage = usageOf(this.prompt, this.completion)
    }
    return seg
  }

  end(): string | null {
    return null
  }

  fail(message: string): string {
    return anthropicErrorEvent(message)
  }

  produced() {
    return { texts: this.texts, extraTokens: 0 }
  }
}

/** Anthropic Claude (type 14): the messages API, translated both ways; /v1/messages passed through. */
export const claudeAdapter: Adapter = {
  owner: channelOwner(CHANNEL_TYPE.anthropic),
  streamUsage: false,
  supports: (mode) => mode === 'chat' || mode === 'messages',
  build(call, ch, model, body) {
    const { origin, prefix } = splitBase(ch.baseUrl || 'https://api.anthropic.com')
    const headers: Record<string, string> = {
      'x-api-key': ch.key,
      'anthropic-version': call.headers?.['anthropic-version'] || ANTHROPIC_VERSION,
      'content-type': 'application/json',
    }
    const beta = call.headers?.['anthropic-beta'] || ch.other
    if (beta) headers['anthropic-beta'] = beta
    const payload = call.mode === 'messages' ? body() : JSON.stringify(toClaudeRequest(call.json ?? {}, model))
    return { origin, path: `${prefix}/v1/messages`, method: 'POST', headers, body: payload }
  },
  response(call, body) {
    const msg = JSON.parse(body.toString('utf8')) as Record<string, any>
    if (call.mode === 'messages') return { body, usage: claudeUsage(msg.usage), contentType: 'application/json' }
    const { body: out, usage } = fromClaudeResponse(msg)
    return { body: JSON.stringify(out), usage, contentType: 'application/json' }
  },
  stream: (call) => (call.mode === 'messages' ? new MessagesPassthrough() : new ClaudeStream(call)),
}
