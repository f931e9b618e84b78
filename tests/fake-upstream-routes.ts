/**
 * The fake upstream's OpenAI routes, one handler each, and what every route shares: the request
 * with the answer its scenario asks for (Ask), the failure answer, JSON replies. fake-upstream.ts
 * picks the route; Anthropic and Gemini answer in fake-upstream-claude-gemini.ts, the Responses
 * API in fake-upstream-responses.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Scenario } from './fake-upstream.ts'

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

/** State a fake upstream keeps across requests. */
export interface Kept {
  /** fixed chat answers for the benchmark's hot path, built once */
  chat: Map<string, Buffer>
  /** Responses answers, by id (bounded), for GET /v1/responses/{id} */
  responses: Map<string, unknown>
  /** counts a stream whose client went away before the end */
  aborted(): void
}

/** One request, and the answer its scenario asks for. */
export interface Ask {
  req: IncomingMessage
  res: ServerResponse
  path: string
  body: any
  s: Scenario
  /** the reply text, and its pieces when streamed */
  text: string
  parts: string[]
  promptTokens: number
  completionTokens: number
  usage: Usage
  withUsage: boolean
  kept: Kept
}

const DEFAULT_TEXT = 'Hello from the fake upstream, how can I help?'
export const EMBEDDING = [0.0023064255, -0.009327292, 0.015797347, -0.0077780345, -0.0046922187, 0.0137, -0.0285, 0.004]

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function pieces(text: string, n: number): string[] {
  const words = text.split(/(?<= )/)
  if (n <= 1 || words.length <= 1) return [text]
  const out: string[] = []
  const per = Math.ceil(words.length / n)
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(''))
  return out
}

export const isAnthropic = (path: string) => path.endsWith('/v1/messages')
export const isGemini = (path: string) =>
  path.includes(':generateContent') || path.includes(':streamGenerateContent') || path.includes(':batchEmbedContents')
export const isChat = (path: string) => path.endsWith('/chat/completions') || path.endsWith('/text/chatcompletion_v2')

export function sendJson(res: ServerResponse, obj: unknown) {
  const out = Buffer.from(JSON.stringify(obj))
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
  res.end(out)
}

/** The reply text, its pieces and the usage the scenario asks for, capped by the request's max tokens. */
export function askOf(req: IncomingMessage, res: ServerResponse, path: string, body: any, s: Scenario, kept: Kept): Ask {
  const text = s.text ?? DEFAULT_TEXT
  const parts = pieces(text, s.chunks ?? 3)
  const maxTokens = Number(body?.max_tokens ?? body?.max_completion_tokens ?? 0)
  const promptTokens = s.promptTokens ?? 12
  let completionTokens = s.completionTokens ?? parts.length
  if (maxTokens > 0) completionTokens = Math.min(completionTokens, maxTokens)
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
  const withUsage = s.usage !== false
  return { req, res, path, body, s, text, parts, promptTokens, completionTokens, usage, withUsage, kept }
}

/** The scenario's error status, with its body or the provider's own error shape. */
export function failure(res: ServerResponse, path: string, status: number, error: unknown) {
  let err = error
  if (err === undefined) {
    err = isAnthropic(path)
      ? { type: 'error', error: { type: 'api_error', message: `fake failure ${status}` } }
      : isGemini(path)
        ? { error: { code: status, message: `fake failure ${status}`, status: 'INTERNAL' } }
        : { error: { message: `fake failure ${status}`, type: 'server_error', param: null, code: null } }
  }
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(typeof err === 'string' ? err : JSON.stringify(err))
}

/** POST /chat/completions with stream: SSE chunks, a tool call or a cut as the scenario asks. */
async function chatStream({ res, body, s, parts, usage, withUsage, kept }: Ask) {
  const model = String(body?.model ?? 'gpt-3.5-turbo')
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const id = 'chatcmpl-fake'
  const created = Math.floor(Date.now() / 1000)
  const include = body.stream_options?.include_usage === true && withUsage
  const usageField = include ? ',"usage":null' : ''
  const head = `{"id":"${id}","object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":[`
  let closed = false
  res.on('close', () => {
    if (!res.writableFinished) {
      closed = true
      kept.aborted()
    }
  })
  res.write(`data: ${head}{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]${usageField}}\n\n`)
  if (s.toolCall) {
    res.write(
      `data: ${head}{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]${usageField}}\n\n`,
    )
    res.write(
      `data: ${head}{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"finish_reason":null}]${usageField}}\n\n`,
    )
  } else {
    for (const [i, p] of parts.entries()) {
      if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
      if (closed) return
      if (s.breakAfterChunks !== undefined && i >= s.breakAfterChunks) {
        res.socket?.destroy()
        return
      }
      res.write(`data: ${head}{"index":0,"delta":{"content":${JSON.stringify(p)}},"finish_reason":null}]${usageField}}\n\n`)
    }
  }
  if (closed) return
  // as many chunks as asked, then cut before the end
  if (s.breakAfterChunks !== undefined && s.breakAfterChunks >= parts.length) {
    res.socket?.destroy()
    return
  }
  res.write(`data: ${head}{"index":0,"delta":{},"finish_reason":"${s.toolCall ? 'tool_calls' : 'stop'}"}]${usageField}}\n\n`)
  if (include)
    res.write(
      `data: {"id":"${id}","object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":[],"usage":${JSON.stringify(usage)}}\n\n`,
    )
  res.end('data: [DONE]\n\n')
}

/** POST /chat/completions: one JSON answer, built once per kind and kept. */
function chatPlain({ res, body, s, text, promptTokens, completionTokens, usage, withUsage, kept }: Ask) {
  const model = String(body?.model ?? 'gpt-3.5-turbo')
  const cacheKey = `${model}|${text}|${withUsage}|${s.toolCall}|${completionTokens}|${promptTokens}`
  let out = kept.chat.get(cacheKey)
  if (!out) {
    const message = s.toolCall
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        }
      : { role: 'assistant', content: text, refusal: null }
    const answer: Record<string, unknown> = {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1700000000,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: s.toolCall ? 'tool_calls' : 'stop' }],
      system_fingerprint: 'fp_fake',
    }
    if (withUsage) answer.usage = usage
    out = Buffer.from(JSON.stringify(answer))
    if (kept.chat.size < 1000) kept.chat.set(cacheKey, out)
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
  res.end(out)
}

export function completions({ res, body, text, parts, usage, withUsage }: Ask) {
  const model = String(body?.model ?? 'gpt-3.5-turbo-instruct')
  if (body?.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (const p of parts)
      res.write(
        `data: ${JSON.stringify({ id: 'cmpl-fake', object: 'text_completion', created: 1700000000, model, choices: [{ text: p, index: 0, finish_reason: null }] })}\n\n`,
      )
    if (body.stream_options?.include_usage && withUsage)
      res.write(
        `data: ${JSON.stringify({ id: 'cmpl-fake', object: 'text_completion', created: 1700000000, model, choices: [], usage })}\n\n`,
      )
    res.end('data: [DONE]\n\n')
    return
  }
  return sendJson(res, {
    id: 'cmpl-fake',
    object: 'text_completion',
    created: 1700000000,
    model,
    choices: [{ text, index: 0, finish_reason: 'stop' }],
    ...(withUsage ? { usage } : {}),
  })
}

export function embeddings({ res, body, promptTokens, withUsage }: Ask) {
  const input = body?.input
  const n = Array.isArray(input) && typeof input[0] !== 'number' ? input.length : 1
  const data = Array.from({ length: n }, (_, index) => ({ object: 'embedding', index, embedding: EMBEDDING }))
  return sendJson(res, {
    object: 'list',
    data,
    model: body?.model,
    ...(withUsage ? { usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } } : {}),
  })
}

export function images({ res, body }: Ask) {
  const n = Number(body?.n) || 1
  return sendJson(res, {
    created: 1700000000,
    data: Array.from({ length: n }, (_, i) => ({ url: `https://images.example/${i}.png`, revised_prompt: body?.prompt })),
  })
}

export function moderations({ res, body }: Ask) {
  return sendJson(res, {
    id: 'modr-fake',
    model: body?.model,
    results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.0001 } }],
  })
}

export function speech({ res, body }: Ask) {
  const audio = Buffer.from('ID3fake-mp3-bytes:' + String(body?.input ?? ''))
  res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length })
  res.end(audio)
}

export function models({ res }: Ask) {
  return sendJson(res, {
    object: 'list',
    data: ['gpt-4o', 'gpt-3.5-turbo'].map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })),
  })
}

export function billingSubscription({ res, s }: Ask) {
  const b = s.balance ?? { hardLimitUsd: 100, usageCents: 2500 }
  return sendJson(res, {
    object: 'billing_subscription',
    has_payment_method: true,
    hard_limit_usd: b.hardLimitUsd,
    soft_limit_usd: b.hardLimitUsd,
    system_hard_limit_usd: b.hardLimitUsd,
    access_until: 0,
  })
}

export function billingUsage({ res, s }: Ask) {
  const b = s.balance ?? { hardLimitUsd: 100, usageCents: 2500 }
  return sendJson(res, { object: 'list', total_usage: b.usageCents })
}

export function chat(a: Ask) {
  return a.body?.stream ? chatStream(a) : chatPlain(a)
}

export function transcription({ res, text }: Ask) {
  return sendJson(res, { text })
}

export function notFound({ req, res, path }: Ask) {
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { message: `fake upstream has no ${req.method} ${path}`, type: 'invalid_request_error' } }))
}
