import type { Usage } from '../pricing.ts'
import type { RelayCall } from '../adapters/index.ts'
import { RelayError, errorResponse } from '../errors.ts'
import { finishReason } from '../adapters/types.ts'
import { chatText, newId, type Chat, type Door } from './types.ts'
import { ResponsesStream } from './responses-stream.ts'

type Item = Record<string, any>

/** Responses content (a string or input_text / input_image / output_text parts) -> chat content. */
function chatContent(content: unknown): string | Chat[] {
  if (typeof content === 'string') return content
  const parts: Chat[] = []
  for (const p of (Array.isArray(content) ? content : []) as Item[]) {
    if (p?.type === 'input_text' || p?.type === 'output_text' || p?.type === 'text')
      parts.push({ type: 'text', text: String(p.text ?? '') })
    else if (p?.type === 'input_image') {
      const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url
      if (url) parts.push({ type: 'image_url', image_url: { url, ...(p.detail && p.detail !== 'auto' ? { detail: p.detail } : {}) } })
    }
  }
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts
}

/** The input items -> chat messages (consecutive function calls become one assistant message). */
function inputMessages(input: unknown): Chat[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  const messages: Chat[] = []
  for (const it of (Array.isArray(input) ? input : []) as Item[]) {
    if (it?.type === 'function_call') {
      const call = {
        id: String(it.call_id ?? it.id ?? ''),
        type: 'function',
        function: { name: String(it.name ?? ''), arguments: String(it.arguments ?? '') },
      }
      const last = messages[messages.length - 1]
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call)
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] })
    } else if (it?.type === 'function_call_output') {
      const output = typeof it.output === 'string' ? it.output : chatText(it.output) || JSON.stringify(it.output ?? '')
      messages.push({ role: 'tool', tool_call_id: String(it.call_id ?? ''), content: output })
    } else if (it && (it.type === 'message' || it.type === undefined) && typeof it.role === 'string') {
      const role = it.role === 'developer' ? 'system' : it.role
      messages.push({ role, content: chatContent(it.content) })
    }
  }
  return messages
}

function toolChoice(tc: unknown): unknown {
  if (typeof tc === 'string') return tc
  const t = tc as Item | undefined
  if (t?.type === 'function' && t.name) return { type: 'function', function: { name: String(t.name) } }
  return undefined
}

/** A Responses API request -> chat completions request. */
export function responsesToChat(j: Chat, model: string): Chat {
  // the conversation before a stored response lives only at the provider that stored it
  if (j.previous_response_id)
    throw new RelayError(
      400,
      'previous_response_id needs a channel that keeps responses (OpenAI); send the conversation in input instead',
      'previous_response_not_supported',
      'invalid_request_error',
    )
  const messages: Chat[] = []
  if (typeof j.instructions === 'string' && j.instructions) messages.push({ role: 'system', content: j.instructions })
  messages.push(...inputMessages(j.input))
  const out: Chat = { model, messages }
  if (j.max_output_tokens) out.max_tokens = j.max_output_tokens
  if (typeof j.temperature === 'number') out.temperature = j.temperature
  if (typeof j.top_p === 'number') out.top_p = j.top_p
  if (j.stream === true) out.stream = true
  if (typeof j.user === 'string') out.user = j.user
  const tools = ((Array.isArray(j.tools) ? j.tools : []) as Item[]).filter((t) => t?.type === 'function' && t.name)
  if (tools.length) {
    out.tools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description ?? '', parameters: t.parameters ?? { type: 'object', properties: {} } },
    }))
    const tc = toolChoice(j.tool_choice)
    if (tc !== undefined) out.tool_choice = tc
    if (typeof j.parallel_tool_calls === 'boolean') out.parallel_tool_calls = j.parallel_tool_calls
  }
  const format = j.text?.format
  if (format?.type === 'json_object') out.response_format = { type: 'json_object' }
  else if (format?.type === 'json_schema')
    out.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: format.strict } }
  return out
}

export function responsesUsage(u: Usage | null): Record<string, unknown> {
  const input = u?.prompt_tokens ?? 0
  const output = u?.completion_tokens ?? 0
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  }
}

/**
 * The response object's fields that only echo the request, in their places around `output` and
 * `usage`: the same for every event of a stream, which serialises them once (responseText).
 */
function echoFields(call: RelayCall) {
  const j = call.json ?? {}
  return {
    beforeOutput: { instructions: j.instructions ?? null, max_output_tokens: j.max_output_tokens ?? null, model: call.model },
    afterOutput: {
      parallel_tool_calls: j.parallel_tool_calls ?? true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: false,
      temperature: j.temperature ?? 1,
      text: j.text ?? { format: { type: 'text' } },
      tool_choice: j.tool_choice ?? 'auto',
      tools: Array.isArray(j.tools) ? j.tools : [],
      top_p: j.top_p ?? 1,
      truncation: 'disabled',
    },
    afterUsage: { user: j.user ?? null, metadata: j.metadata ?? {} },
  }
}

/** The response object around `output`: the fields a Responses client reads, echoing the request. */
export function responseObject(id: string, call: RelayCall, status: string, output: unknown[], usage: Usage | null): Chat {
  const echo = echoFields(call)
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    ...echo.beforeOutput,
    output,
    ...echo.afterOutput,
    usage: usage ? responsesUsage(usage) : null,
    ...echo.afterUsage,
  }
}

/** A response object's JSON text for one stream: the request's echo serialised once, the rest per event. */
export class ResponseText {
  private readonly parts: [string, string, string]

  constructor(call: RelayCall) {
    const echo = echoFields(call)
    const members = (o: object) => JSON.stringify(o).slice(1, -1)
    this.parts = [members(echo.beforeOutput), members(echo.afterOutput), members(echo.afterUsage)]
  }

  /**
   * What responseObject(id, call, status, output, usage) serialises to, with `error` set when
   * given; the output items come as JSON texts.
   */
  of(id: string, status: string, output: readonly string[], usage: Usage | null, error?: { code: string; message: string }): string {
    const [before, after, last] = this.parts
    const incomplete = status === 'incomplete' ? '{"reason":"max_output_tokens"}' : 'null'
    const u = usage ? JSON.stringify(responsesUsage(usage)) : 'null'
    const e = error ? JSON.stringify(error) : 'null'
    return (
      `{"id":"${id}","object":"response","created_at":${Math.floor(Date.now() / 1000)},"status":"${status}","error":${e},` +
      `"incomplete_details":${incomplete},${before},"output":[${output.join(',')}],${after},"usage":${u},${last}}`
    )
  }
}

export function messageItem(id: string, text: string, status: string): Chat {
  return { id, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
}

export function functionItem(id: string, callId: string, name: string, args: string, status: string): Chat {
  return { id, type: 'function_call', status, call_id: callId, name, arguments: args }
}

/** chat.completion -> a Responses response object. */
export function chatToResponse(chat: Chat, call: RelayCall, usage: Usage | null): Record<string, unknown> {
  const choice = (Array.isArray(chat.choices) ? chat.choices[0] : null) ?? {}
  const msg = choice.message ?? {}
  const output: Chat[] = []
  const text = chatText(msg.content)
  if (text) output.push(messageItem(newId('msg_'), text, 'completed'))
  for (const tc of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []) as Item[]) {
    output.push(
      functionItem(
        newId('fc_'),
        tc.id || newId('call_'),
        String(tc.function?.name ?? ''),
        String(tc.function?.arguments ?? ''),
        'completed',
      ),
    )
  }
  const status = finishReason(choice.finish_reason) === 'length' ? 'incomplete' : 'completed'
  return responseObject(newId('resp_'), call, status, output, usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
}

/** OpenAI's Responses API (POST /v1/responses). */
export const responsesDoor: Door = {
  toChat: (call) => responsesToChat(call.json ?? {}, call.model),
  fromChat: chatToResponse,
  stream: (call) => new ResponsesStream(call),
  error: errorResponse,
}
