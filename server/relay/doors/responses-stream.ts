import type { Usage } from '../pricing.ts'
import type { RelayCall } from '../adapters/index.ts'
import { finishReason } from '../adapters/types.ts'
import { newId, type Chat, type DoorStream } from './types.ts'
import { functionItem, ResponseText } from './responses.ts'

interface FunctionCall {
  output: number
  id: string
  callId: string
  name: string
  args: string
}

/**
 * Chat chunks -> the Responses event sequence: response.created and .in_progress, then per output
 * item output_item.added, its deltas and its .done events, and response.completed (or
 * .incomplete) carrying every item and the usage. Every event has its sequence_number.
 */
export class ResponsesStream implements DoorStream {
  private seq = 0
  private started = false
  private readonly id = newId('resp_')
  private readonly response: ResponseText
  /** finished output items as JSON texts, by output index */
  private items: string[] = []
  /** the message item being written: its output index, id and text so far */
  private message: { output: number; id: string; text: string } | null = null
  private calls = new Map<number, FunctionCall>()
  private finish: string | null = null

  constructor(call: RelayCall) {
    this.response = new ResponseText(call)
  }

  /** One event whose data is {type, sequence_number, ...}: `fields` is the rest as JSON members. */
  private raw(type: string, fields: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.seq++},${fields}}\n\n`
  }

  private event(type: string, fields: Record<string, unknown>): string {
    return this.raw(type, JSON.stringify(fields).slice(1, -1))
  }

  private start(): string {
    if (this.started) return ''
    this.started = true
    // the same response in both events: serialised once
    const response = `"response":${this.response.of(this.id, 'in_progress', [], null)}`
    return this.raw('response.created', response) + this.raw('response.in_progress', response)
  }

  private openMessage(): string {
    const m = { output: this.items.length + this.calls.size, id: newId('msg_'), text: '' }
    this.message = m
    // messageItem in progress, without content yet, and its empty output_text part
    const item = `{"id":"${m.id}","type":"message","status":"in_progress","role":"assistant","content":[]}`
    return (
      this.raw('response.output_item.added', `"output_index":${m.output},"item":${item}`) +
      this.raw(
        'response.content_part.added',
        `"item_id":"${m.id}","output_index":${m.output},"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`,
      )
    )
  }

  private closeMessage(): string {
    const m = this.message
    if (!m) return ''
    this.message = null
    // the text serialised once for the four places that carry it (the shapes of messageItem)
    const text = JSON.stringify(m.text)
    const at = `"item_id":"${m.id}","output_index":${m.output},"content_index":0`
    const part = `{"type":"output_text","text":${text},"annotations":[]}`
    const item = `{"id":"${m.id}","type":"message","status":"completed","role":"assistant","content":[${part}]}`
    this.items[m.output] = item
    return (
      this.raw('response.output_text.done', `${at},"text":${text},"logprobs":[]`) +
      this.raw('response.content_part.done', `${at},"part":${part}`) +
      this.raw('response.output_item.done', `"output_index":${m.output},"item":${item}`)
    )
  }

  private toolDelta(tc: Chat): string {
    const i = Number(tc.index ?? 0)
    let out = ''
    let f = this.calls.get(i)
    if (!f) {
      out += this.closeMessage()
      f = {
        output: this.items.length + this.calls.size,
        id: newId('fc_'),
        callId: tc.id || newId('call_'),
        name: tc.function?.name ?? '',
        args: '',
      }
      this.calls.set(i, f)
      out += this.event('response.output_item.added', {
        output_index: f.output,
        item: functionItem(f.id, f.callId, f.name, '', 'in_progress'),
      })
    }
    const delta = tc.function?.arguments
    if (typeof delta === 'string' && delta) {
      f.args += delta
      out += this.event('response.function_call_arguments.delta', { item_id: f.id, output_index: f.output, delta })
    }
    return out
  }

  chunk(c: Chat): string {
    let out = this.start()
    const choice = Array.isArray(c.choices) ? c.choices[0] : undefined
    if (!choice) return out
    const d = choice.delta ?? {}
    if (typeof d.content === 'string' && d.content) {
      if (!this.message) out += this.openMessage()
      const m = this.message!
      m.text += d.content
      out += this.raw(
        'response.output_text.delta',
        `"item_id":"${m.id}","output_index":${m.output},"content_index":0,"delta":${JSON.stringify(d.content)},"logprobs":[]`,
      )
    }
    if (Array.isArray(d.tool_calls)) for (const tc of d.tool_calls as Chat[]) out += this.toolDelta(tc)
    if (choice.finish_reason) this.finish = choice.finish_reason
    return out
  }

  end(usage: Usage): string {
    let out = this.start() + this.closeMessage()
    for (const f of this.calls.values()) {
      const item = JSON.stringify(functionItem(f.id, f.callId, f.name, f.args, 'completed'))
      this.items[f.output] = item
      out += this.event('response.function_call_arguments.done', { item_id: f.id, output_index: f.output, arguments: f.args })
      out += this.raw('response.output_item.done', `"output_index":${f.output},"item":${item}`)
    }
    this.calls.clear()
    const incomplete = finishReason(this.finish) === 'length'
    const response = this.response.of(this.id, incomplete ? 'incomplete' : 'completed', this.items, usage)
    return out + this.raw(incomplete ? 'response.incomplete' : 'response.completed', `"response":${response}`)
  }

  fail(message: string, type: string): string {
    // the items finished so far (a function call still open has none yet)
    const response = this.response.of(this.id, 'failed', this.items.filter(Boolean), null, { code: type, message })
    return this.start() + this.raw('response.failed', `"response":${response}`)
  }
}
