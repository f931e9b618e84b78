import type { Usage } from '../pricing.ts'
import type { RelayCall } from '../adapters/index.ts'
import { anthropicErrorResponse } from '../errors.ts'
import { anthropicErrorEvent } from '../adapters/native.ts'
import { finishReason } from '../adapters/types.ts'
import { argsObject, chatText, newId, type Chat, type Door, type DoorStream } from './types.ts'

type Block = Record<string, any>

/** Anthropic content blocks of a user turn -> chat content parts, and the tool results among them. */
function userParts(content: unknown): { parts: Chat[]; results: Chat[] } {
  const parts: Chat[] = []
  const results: Chat[] = []
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], results }
  for (const b of (Array.isArray(content) ? content : []) as Block[]) {
    if (b?.type === 'text') parts.push({ type: 'text', text: String(b.text ?? '') })
    else if (b?.type === 'image') {
      const s = b.source ?? {}
      const url = s.type === 'base64' ? `data:${s.media_type};base64,${s.data}` : String(s.url ?? '')
      if (url) parts.push({ type: 'image_url', image_url: { url } })
    } else if (b?.type === 'tool_result') {
      const text = typeof b.content === 'string' ? b.content : chatText(b.content)
      results.push({ role: 'tool', tool_call_id: String(b.tool_use_id ?? ''), content: text })
    }
  }
  return { parts, results }
}

function assistantMessage(content: unknown): Chat {
  if (typeof content === 'string') return { role: 'assistant', content }
  let text = ''
  const calls: Chat[] = []
  for (const b of (Array.isArray(content) ? content : []) as Block[]) {
    if (b?.type === 'text') text += String(b.text ?? '')
    else if (b?.type === 'tool_use')
      calls.push({
        id: String(b.id ?? ''),
        type: 'function',
        function: { name: String(b.name ?? ''), arguments: JSON.stringify(b.input ?? {}) },
      })
  }
  const m: Chat = { role: 'assistant', content: text || (calls.length ? null : '') }
  if (calls.length) m.tool_calls = calls
  return m
}

function toolChoice(tc: Block | undefined): unknown {
  switch (tc?.type) {
    case 'any':
      return 'required'
    case 'none':
      return 'none'
    case 'tool':
      return { type: 'function', function: { name: String(tc.name ?? '') } }
    case 'auto':
      return 'auto'
    default:
      return undefined
  }
}

/** Anthropic messages request -> chat completions request. */
export function messagesToChat(j: Chat, model: string): Chat {
  const messages: Chat[] = []
  const system = typeof j.system === 'string' ? j.system : chatText(j.system)
  if (system) messages.push({ role: 'system', content: system })
  for (const m of (Array.isArray(j.messages) ? j.messages : []) as Block[]) {
    if (m?.role === 'assistant') {
      messages.push(assistantMessage(m.content))
      continue
    }
    const { parts, results } = userParts(m?.content)
    messages.push(...results)
    if (parts.length) messages.push({ role: 'user', content: parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts })
  }
  const out: Chat = { model, messages }
  if (j.max_tokens) out.max_tokens = j.max_tokens
  if (typeof j.temperature === 'number') out.temperature = j.temperature
  if (typeof j.top_p === 'number') out.top_p = j.top_p
  if (Array.isArray(j.stop_sequences) && j.stop_sequences.length) out.stop = j.stop_sequences
  if (j.stream === true) out.stream = true
  const tools = ((Array.isArray(j.tools) ? j.tools : []) as Block[]).filter((t) => t?.name && (!t.type || t.type === 'custom'))
  if (tools.length) {
    out.tools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description ?? '', parameters: t.input_schema ?? { type: 'object', properties: {} } },
    }))
    const tc = toolChoice(j.tool_choice)
    if (tc !== undefined) out.tool_choice = tc
  }
  if (j.metadata?.user_id) out.user = String(j.metadata.user_id)
  return out
}

/** A chat finish reason -> Anthropic's stop_reason. */
function stopReason(finish: string | null | undefined): string {
  switch (finishReason(finish)) {
    case 'length':
      return 'max_tokens'
    case 'tool_calls':
      return 'tool_use'
    case 'content_filter':
      return 'refusal'
    default:
      return 'end_turn'
  }
}

function anthropicUsage(u: Usage | null): { input_tokens: number; output_tokens: number } {
  return { input_tokens: u?.prompt_tokens ?? 0, output_tokens: u?.completion_tokens ?? 0 }
}

/** chat.completion -> Anthropic message. */
export function chatToMessage(chat: Chat, call: RelayCall, usage: Usage | null): Record<string, unknown> {
  const choice = (Array.isArray(chat.choices) ? chat.choices[0] : null) ?? {}
  const msg = choice.message ?? {}
  const content: Block[] = []
  const text = chatText(msg.content)
  if (text) content.push({ type: 'text', text })
  for (const tc of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []) as Block[]) {
    content.push({
      type: 'tool_use',
      id: tc.id || newId('toolu_'),
      name: tc.function?.name ?? '',
      input: argsObject(tc.function?.arguments),
    })
  }
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: call.model,
    content,
    stop_reason: stopReason(choice.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(usage),
  }
}

function event(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

/** An event whose data is {"type": name, ...}: `fields` is the rest as JSON members. */
function raw(name: string, fields: string): string {
  return `event: ${name}\ndata: {"type":"${name}",${fields}}\n\n`
}

const MESSAGE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n'

/** Chat chunks -> Anthropic's event sequence (message_start, content blocks, message_delta, message_stop). */
class MessagesStream implements DoorStream {
  private started = false
  /** the open content block: its index and kind, -1 when none */
  private block = -1
  private kind: 'text' | 'tool' | '' = ''
  private next = 0
  /** chat tool call index -> content block index */
  private tools = new Map<number, number>()
  private finish: string | null = null
  private model: string

  constructor(call: RelayCall) {
    this.model = call.model
  }

  private start(): string {
    if (this.started) return ''
    this.started = true
    return raw(
      'message_start',
      `"message":{"id":"${newId('msg_')}","type":"message","role":"assistant","model":${JSON.stringify(this.model)},` +
        '"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}',
    )
  }

  private close(): string {
    if (this.block < 0) return ''
    const out = raw('content_block_stop', `"index":${this.block}`)
    this.block = -1
    this.kind = ''
    return out
  }

  /** opens a content block: contentBlock is its JSON */
  private open(kind: 'text' | 'tool', contentBlock: string): string {
    const out = this.close()
    this.block = this.next++
    this.kind = kind
    return out + raw('content_block_start', `"index":${this.block},"content_block":${contentBlock}`)
  }

  chunk(c: Chat): string {
    let out = this.start()
    const choice = Array.isArray(c.choices) ? c.choices[0] : undefined
    if (!choice) return out
    const d = choice.delta ?? {}
    if (typeof d.content === 'string' && d.content) {
      if (this.kind !== 'text') out += this.open('text', '{"type":"text","text":""}')
      out += raw('content_block_delta', `"index":${this.block},"delta":{"type":"text_delta","text":${JSON.stringify(d.content)}}`)
    }
    for (const tc of (Array.isArray(d.tool_calls) ? d.tool_calls : []) as Block[]) {
      const i = Number(tc.index ?? 0)
      if (!this.tools.has(i)) {
        const block = { type: 'tool_use', id: tc.id || newId('toolu_'), name: tc.function?.name ?? '', input: {} }
        out += this.open('tool', JSON.stringify(block))
        this.tools.set(i, this.block)
      }
      const args = tc.function?.arguments
      if (typeof args === 'string' && args) {
        const index = this.tools.get(i)!
        out += event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } })
      }
    }
    if (choice.finish_reason) this.finish = choice.finish_reason
    return out
  }

  end(usage: Usage): string {
    const out = this.start() + this.close()
    const delta = { stop_reason: stopReason(this.finish), stop_sequence: null }
    return out + event('message_delta', { type: 'message_delta', delta, usage: anthropicUsage(usage) }) + MESSAGE_STOP
  }

  fail(message: string): string {
    return anthropicErrorEvent(message)
  }
}

/** Anthropic's Messages API (POST /v1/messages). */
export const messagesDoor: Door = {
  toChat: (call) => messagesToChat(call.json ?? {}, call.model),
  fromChat: chatToMessage,
  stream: (call) => new MessagesStream(call),
  error: anthropicErrorResponse,
}
