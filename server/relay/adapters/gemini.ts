import { splitBase } from '../upstream.ts'
import type { Usage } from '../pricing.ts'
import { DONE, chatChunkEvent, eventsOf, sseData } from '../sse.ts'
import type { Adapter, RelayCall, StreamTranslator } from './types.ts'
import { contentText, finishReason, usageOf } from './types.ts'
import { CHANNEL_TYPE, channelOwner } from '../../../domain/channel-types.ts'
import { GeminiPassthrough, geminiUsage } from './native.ts'

type Part = Record<string, unknown>

function parts(content: unknown): Part[] {
  if (typeof content === 'string') return content ? [{ text: content }] : []
  const out: Part[] = []
  if (Array.isArray(content)) {
    for (const p of content as Array<Record<string, any>>) {
      if (p?.type === 'text') out.push({ text: String(p.text ?? '') })
      else if (p?.type === 'image_url') {
        const url = String((typeof p.image_url === 'string' ? p.image_url : p.image_url?.url) ?? '')
        const m = /^data:([^;,]+);base64,(.*)$/s.exec(url)
        if (m) out.push({ inlineData: { mimeType: m[1], data: m[2] } })
        else if (url) out.push({ fileData: { mimeType: 'image/jpeg', fileUri: url } })
      }
    }
  }
  return out
}

function parseArgs(s: unknown): unknown {
  try {
    return typeof s === 'string' && s.trim() ? JSON.parse(s) : {}
  } catch {
    return {}
  }
}

/** OpenAI chat request -> Gemini generateContent request. */
export function toGeminiRequest(body: Record<string, any>): Record<string, unknown> {
  const system: string[] = []
  const contents: Array<{ role: 'user' | 'model'; parts: Part[] }> = []
  const toolNames = new Map<string, string>()
  const push = (role: 'user' | 'model', p: Part[]) => {
    if (!p.length) return
    const last = contents[contents.length - 1]
    if (last && last.role === role) last.parts.push(...p)
    else contents.push({ role, parts: p })
  }
  for (const m of (Array.isArray(body.messages) ? body.messages : []) as Array<Record<string, any>>) {
    if (m.role === 'system' || m.role === 'developer') {
      const t = contentText(m.content)
      if (t) system.push(t)
    } else if (m.role === 'assistant') {
      const p = parts(m.content)
      for (const tc of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Array<Record<string, any>>) {
        toolNames.set(String(tc.id ?? ''), String(tc.function?.name ?? ''))
        p.push({ functionCall: { name: tc.function?.name, args: parseArgs(tc.function?.arguments) } })
      }
      push('model', p)
    } else if (m.role === 'tool') {
      const name = toolNames.get(String(m.tool_call_id ?? '')) ?? String(m.name ?? '')
      const text = contentText(m.content)
      let response: unknown = { content: text }
      try {
        const j = JSON.parse(text) as unknown
        if (j && typeof j === 'object' && !Array.isArray(j)) response = j
      } catch {
        /* plain text result */
      }
      push('user', [{ functionResponse: { name, response } }])
    } else push('user', parts(m.content))
  }
  const out: Record<string, unknown> = { contents }
  if (system.length) out.systemInstruction = { parts: [{ text: system.join('\n') }] }
  const gen: Record<string, unknown> = {}
  if (typeof body.temperature === 'number') gen.temperature = body.temperature
  if (typeof body.top_p === 'number') gen.topP = body.top_p
  const max = Number(body.max_tokens ?? body.max_completion_tokens)
  if (max > 0) gen.maxOutputTokens = max
  if (body.stop) gen.stopSequences = Array.isArray(body.stop) ? body.stop : [body.stop]
  if (body.response_format?.type === 'json_object') gen.responseMimeType = 'application/json'
  if (Object.keys(gen).length) out.generationConfig = gen
  const fns = ((Array.isArray(body.tools) ? body.tools : []) as Array<Record<string, any>>).filter(
    (t) => t?.type === 'function' && t.function?.name,
  )
  if (fns.length) {
    out.tools = [
      {
        functionDeclarations: fns.map((t) => ({
          name: t.function.name,
          description: t.function.description ?? '',
          parameters: t.function.parameters,
        })),
      },
    ]
  }
  return out
}

function candidateOf(j: Record<string, any>): { text: string; calls: Array<{ name: string; args: unknown }>; finish: string | null } {
  const c = Array.isArray(j.candidates) ? j.candidates[0] : undefined
  let text = ''
  const calls: Array<{ name: string; args: unknown }> = []
  for (const p of (Array.isArray(c?.content?.parts) ? c.content.parts : []) as Array<Record<string, any>>) {
    if (typeof p.text === 'string' && !p.thought) text += p.text
    if (p.functionCall) calls.push({ name: String(p.functionCall.name ?? ''), args: p.functionCall.args ?? {} })
  }
  return { text, calls, finish: c?.finishReason ?? null }
}

export function fromGeminiResponse(j: Record<string, any>, model: string): { body: Record<string, unknown>; usage: Usage | null } {
  const { text, calls, finish } = candidateOf(j)
  const usage = geminiUsage(j.usageMetadata)
  const message: Record<string, unknown> = { role: 'assistant', content: calls.length && !text ? null : text }
  if (calls.length) {
    message.tool_calls = calls.map((c, i) => ({
      id: `call_${i}`,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }))
  }
  return {
    body: {
      id: `chatcmpl-${j.responseId ?? 'gemini'}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: calls.length ? 'tool_calls' : (finishReason(finish) ?? 'stop') }],
      usage: usage ?? usageOf(0, 0),
    },
    usage,
  }
}

class GeminiStream implements StreamTranslator {
  usage: Usage | null = null
  private texts: string[] = []
  private first = true
  private tools = 0
  private id = `chatcmpl-gemini-${Date.now()}`
  private created = Math.floor(Date.now() / 1000)
  private call: RelayCall

  constructor(call: RelayCall) {
    this.call = call
  }

  private chunk(delta: Record<string, unknown>, finish: string | null = null): string {
    return chatChunkEvent({ id: this.id, created: this.created, model: this.call.model }, delta, finish)
  }

  segment(seg: Buffer): string | null {
    let out = ''
    for (const ev of eventsOf(seg)) {
      const j = ev.json as Record<string, any> | undefined
      if (!j) continue
      if (j.error) {
        out += sseData({
          error: { message: j.error.message ?? 'upstream error', type: j.error.status ?? 'upstream_error', code: j.error.code ?? null },
        })
        continue
      }
      const u = geminiUsage(j.usageMetadata)
      if (u) this.usage = u
      const { text, calls, finish } = candidateOf(j)
      const delta: Record<string, unknown> = {}
      if (this.first) {
        delta.role = 'assistant'
        this.first = false
      }
      if (text) {
        delta.content = text
        this.texts.push(text)
      }
      if (calls.length) {
        delta.tool_calls = calls.map((c) => {
          const args = JSON.stringify(c.args)
          this.texts.push(c.name, args)
          return { index: this.tools++, id: `call_${this.tools - 1}`, type: 'function', function: { name: c.name, arguments: args } }
        })
      }
      const fin = finish ? (this.tools > 0 ? 'tool_calls' : finishReason(finish)) : null
      if (Object.keys(delta).length || fin) out += this.chunk(delta, fin)
    }
    return out || null
  }

  end(usage: Usage): string | null {
    const tail = this.call.wantUsage
      ? sseData({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.call.model, choices: [], usage })
      : ''
    return tail + DONE
  }

  produced() {
    return { texts: this.texts, extraTokens: 0 }
  }
}

/** Google Gemini (type 24): generateContent / streamGenerateContent, and batchEmbedContents. */
export const geminiAdapter: Adapter = {
  owner: channelOwner(CHANNEL_TYPE.gemini),
  streamUsage: false,
  supports: (mode) => mode === 'chat' || mode === 'embeddings' || mode === 'gemini',
  build(call, ch, model) {
    const { origin, prefix } = splitBase(ch.baseUrl || 'https://generativelanguage.googleapis.com')
    const version = /^v\d/.test(ch.other) ? ch.other : 'v1beta'
    const headers = { 'x-goog-api-key': ch.key, 'content-type': 'application/json' }
    const m = encodeURIComponent(model)
    if (call.mode === 'embeddings') {
      const input = call.json?.input
      const texts: string[] = Array.isArray(input) ? input.map((x: unknown) => String(x)) : [String(input ?? '')]
      const body: Record<string, unknown> = {
        requests: texts.map((t) => ({ model: `models/${model}`, content: { parts: [{ text: t }] } })),
      }
      if (call.json?.dimensions)
        (body.requests as Array<Record<string, unknown>>).forEach((r) => (r.outputDimensionality = call.json!.dimensions))
      return { origin, path: `${prefix}/${version}/models/${m}:batchEmbedContents`, method: 'POST', headers, body: JSON.stringify(body) }
    }
    const path = call.stream
      ? `${prefix}/${version}/models/${m}:streamGenerateContent?alt=sse`
      : `${prefix}/${version}/models/${m}:generateContent`
    // Gemini's own API passes through: the model is in the path, the body goes as it came
    const payload = call.mode === 'gemini' ? call.raw : JSON.stringify(toGeminiRequest(call.json ?? {}))
    return { origin, path, method: 'POST', headers, body: payload }
  },
  response(call, body) {
    const j = JSON.parse(body.toString('utf8')) as Record<string, any>
    if (call.mode === 'gemini') return { body, usage: geminiUsage(j.usageMetadata), contentType: 'application/json' }
    if (call.mode === 'embeddings') {
      const data = ((Array.isArray(j.embeddings) ? j.embeddings : []) as Array<Record<string, any>>).map((e, i) => ({
        object: 'embedding',
        index: i,
        embedding: e.values ?? [],
      }))
      // Gemini reports no usage for embeddings: the relay counts the input
      return {
        body: JSON.stringify({ object: 'list', data, model: call.model, usage: { prompt_tokens: 0, total_tokens: 0 } }),
        usage: null,
        contentType: 'application/json',
      }
    }
    const { body: out, usage } = fromGeminiResponse(j, call.model)
    return { body: JSON.stringify(out), usage, contentType: 'application/json' }
  },
  stream: (call) => (call.mode === 'gemini' ? new GeminiPassthrough() : new GeminiStream(call)),
}
