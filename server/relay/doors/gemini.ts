import type { Usage } from '../pricing.ts'
import type { RelayCall } from '../adapters/index.ts'
import { RelayError } from '../errors.ts'
import { geminiErrorEvent } from '../adapters/native.ts'
import { finishReason } from '../adapters/types.ts'
import { argsObject, chatText, type Chat, type Door, type DoorStream } from './types.ts'

type Part = Record<string, any>

/** Gemini parts of one turn -> chat content, the function calls and the function responses among them. */
function splitParts(parts: Part[]): { content: Chat[]; calls: Part[]; responses: Part[] } {
  const content: Chat[] = []
  const calls: Part[] = []
  const responses: Part[] = []
  for (const p of parts) {
    if (typeof p?.text === 'string' && !p.thought) content.push({ type: 'text', text: p.text })
    else if (p?.inlineData)
      content.push({ type: 'image_url', image_url: { url: `data:${p.inlineData.mimeType};base64,${p.inlineData.data}` } })
    else if (p?.fileData?.fileUri) content.push({ type: 'image_url', image_url: { url: String(p.fileData.fileUri) } })
    else if (p?.functionCall) calls.push(p.functionCall)
    else if (p?.functionResponse) responses.push(p.functionResponse)
  }
  return { content, calls, responses }
}

function flat(content: Chat[]): string | Chat[] {
  return content.every((c) => c.type === 'text') ? content.map((c) => c.text).join('') : content
}

/** Gemini's function calls carry no ids: the n-th call of a name is answered by the n-th response of that name. */
function contentsToMessages(contents: Part[]): Chat[] {
  const messages: Chat[] = []
  const pending = new Map<string, string[]>()
  let n = 0
  for (const turn of contents) {
    const { content, calls, responses } = splitParts(Array.isArray(turn?.parts) ? turn.parts : [])
    if (turn?.role === 'model') {
      const m: Chat = { role: 'assistant', content: content.length ? flat(content) : calls.length ? null : '' }
      if (calls.length) {
        m.tool_calls = calls.map((c) => {
          const id = c.id ? String(c.id) : `call_${n++}`
          pending.set(c.name, [...(pending.get(c.name) ?? []), id])
          return { id, type: 'function', function: { name: String(c.name ?? ''), arguments: JSON.stringify(c.args ?? {}) } }
        })
      }
      messages.push(m)
      continue
    }
    for (const r of responses) {
      const id = r.id ? String(r.id) : (pending.get(r.name)?.shift() ?? `call_${n++}`)
      messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(r.response ?? {}) })
    }
    if (content.length) messages.push({ role: 'user', content: flat(content) })
  }
  return messages
}

function toolConfig(cfg: Part | undefined): unknown {
  const fc = cfg?.functionCallingConfig
  if (!fc?.mode) return undefined
  if (fc.mode === 'NONE') return 'none'
  if (fc.mode === 'ANY') {
    const names = Array.isArray(fc.allowedFunctionNames) ? fc.allowedFunctionNames : []
    return names.length === 1 ? { type: 'function', function: { name: names[0] } } : 'required'
  }
  return 'auto'
}

/** A Gemini generateContent request -> chat completions request. */
export function geminiToChat(j: Chat, model: string, stream: boolean): Chat {
  const messages: Chat[] = []
  const system = chatText(j.systemInstruction?.parts ?? (typeof j.systemInstruction === 'string' ? j.systemInstruction : ''))
  if (system) messages.push({ role: 'system', content: system })
  messages.push(...contentsToMessages(Array.isArray(j.contents) ? j.contents : []))
  const out: Chat = { model, messages }
  const g = j.generationConfig ?? {}
  if (g.maxOutputTokens) out.max_tokens = g.maxOutputTokens
  if (typeof g.temperature === 'number') out.temperature = g.temperature
  if (typeof g.topP === 'number') out.top_p = g.topP
  if (Array.isArray(g.stopSequences) && g.stopSequences.length) out.stop = g.stopSequences
  if (g.responseMimeType === 'application/json') out.response_format = { type: 'json_object' }
  if (stream) out.stream = true
  const decls = ((Array.isArray(j.tools) ? j.tools : []) as Part[]).flatMap((t) =>
    Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [],
  )
  if (decls.length) {
    out.tools = decls.map((d: Part) => ({
      type: 'function',
      function: {
        name: d.name,
        description: d.description ?? '',
        parameters: d.parameters ?? d.parametersJsonSchema ?? { type: 'object', properties: {} },
      },
    }))
    const tc = toolConfig(j.toolConfig)
    if (tc !== undefined) out.tool_choice = tc
  }
  return out
}

function geminiFinish(finish: string | null | undefined): string {
  switch (finishReason(finish)) {
    case 'length':
      return 'MAX_TOKENS'
    case 'content_filter':
      return 'SAFETY'
    default:
      return 'STOP'
  }
}

function usageMetadata(u: Usage | null): Record<string, number> {
  const p = u?.prompt_tokens ?? 0
  const c = u?.completion_tokens ?? 0
  return { promptTokenCount: p, candidatesTokenCount: c, totalTokenCount: p + c }
}

function candidate(parts: Part[], finish: string | null): Record<string, unknown> {
  return { content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }
}

/** chat.completion -> a Gemini GenerateContentResponse. */
export function chatToGemini(chat: Chat, call: RelayCall, usage: Usage | null): Record<string, unknown> {
  const choice = (Array.isArray(chat.choices) ? chat.choices[0] : null) ?? {}
  const msg = choice.message ?? {}
  const parts: Part[] = []
  const text = chatText(msg.content)
  if (text) parts.push({ text })
  for (const tc of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []) as Part[])
    parts.push({ functionCall: { name: tc.function?.name ?? '', args: argsObject(tc.function?.arguments) } })
  return {
    candidates: [candidate(parts, geminiFinish(choice.finish_reason))],
    usageMetadata: usageMetadata(usage),
    modelVersion: call.model,
  }
}

/**
 * Chat chunks -> Gemini's streamed GenerateContentResponse chunks (alt=sse): each text delta as a
 * chunk; function calls, whose arguments arrive in pieces, whole in the last chunk with the
 * finish reason and the usage.
 */
class GeminiStream implements DoorStream {
  private calls = new Map<number, { name: string; args: string }>()
  private finish: string | null = null
  private model: string
  private modelJson: string

  constructor(call: RelayCall) {
    this.model = call.model
    this.modelJson = JSON.stringify(call.model)
  }

  chunk(c: Chat): string {
    const choice = Array.isArray(c.choices) ? c.choices[0] : undefined
    if (!choice) return ''
    const d = choice.delta ?? {}
    for (const tc of (Array.isArray(d.tool_calls) ? d.tool_calls : []) as Part[]) {
      const i = Number(tc.index ?? 0)
      const f = this.calls.get(i) ?? { name: '', args: '' }
      if (tc.function?.name) f.name = tc.function.name
      if (typeof tc.function?.arguments === 'string') f.args += tc.function.arguments
      this.calls.set(i, f)
    }
    if (choice.finish_reason) this.finish = choice.finish_reason
    if (typeof d.content !== 'string' || !d.content) return ''
    // candidate([{ text }], null) with the model version, serialised by hand: the hot path
    return `data: {"candidates":[{"content":{"role":"model","parts":[{"text":${JSON.stringify(d.content)}}]},"index":0}],"modelVersion":${this.modelJson}}\n\n`
  }

  end(usage: Usage): string {
    const parts = [...this.calls.values()].map((f) => ({ functionCall: { name: f.name, args: argsObject(f.args) } }))
    const last = {
      candidates: [candidate(parts, geminiFinish(this.finish))],
      usageMetadata: usageMetadata(usage),
      modelVersion: this.model,
    }
    return `data: ${JSON.stringify(last)}\n\n`
  }

  fail(message: string): string {
    return geminiErrorEvent(message)
  }
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

/** The error in Gemini's shape: {error: {code, message, status}}. */
export function geminiErrorResponse(err: RelayError, requestId?: string): Response {
  const message = requestId ? `${err.message} (request id: ${requestId})` : err.message
  const body = { error: { code: err.status, message, status: STATUS[err.status] ?? 'INTERNAL' } }
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
  })
}

/** Parses /v1beta/models/{model}:{action} into the model and whether it streams. */
export function geminiTarget(pathname: string): { model: string; stream: boolean } {
  const m = /\/models\/([^/]+?):(generateContent|streamGenerateContent)$/.exec(pathname)
  if (!m) throw new RelayError(404, `Invalid URL (POST ${pathname})`, 'invalid_url', 'invalid_request_error')
  return { model: decodeURIComponent(m[1]), stream: m[2] === 'streamGenerateContent' }
}

/** Google's Gemini API (POST /v1beta/models/{model}:generateContent and :streamGenerateContent). */
export const geminiDoor: Door = {
  toChat: (call) => geminiToChat(call.json ?? {}, call.model, call.stream),
  fromChat: chatToGemini,
  stream: (call) => new GeminiStream(call),
  error: geminiErrorResponse,
}
