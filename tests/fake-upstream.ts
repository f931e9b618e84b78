/**
 * A fake model provider on loopback that speaks OpenAI's, Anthropic's and Gemini's real wire
 * formats (JSON and SSE), for the relay tests and the benchmark. Behaviour is chosen per API key
 * (each channel has its own key): latency, an error status and body, streaming pace, usage or
 * none, tool calls, a dropped connection.
 *
 * Run alone (benchmark): node tests/fake-upstream.ts [port]  -> prints "listening <port>".
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { responsesAnswer } from './fake-upstream-responses.ts'

export interface Scenario {
  /** answer with this status and `error` as the body */
  status?: number
  error?: unknown
  /** delay before the headers */
  latencyMs?: number
  /** include usage (non-stream always; stream when asked through stream_options) */
  usage?: boolean
  /** stream content chunks */
  chunks?: number
  chunkDelayMs?: number
  /** reply text (split into `chunks` pieces when streaming) */
  text?: string
  promptTokens?: number
  completionTokens?: number
  /** answer with a tool call instead of text */
  toolCall?: boolean
  /** destroy the socket without answering */
  destroy?: boolean
  /** stream this many content chunks (all of them when there are fewer), then destroy the socket */
  breakAfterChunks?: number
  /** billing endpoints */
  balance?: { hardLimitUsd: number; usageCents: number }
}

export interface Recorded {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  key: string
  body: any
  raw: string
}

export interface FakeUpstream {
  url: string
  port: number
  /** last requests (bounded) */
  requests: Recorded[]
  /** requests per key */
  hits: Map<string, number>
  /** streams whose client went away before the end */
  aborted: number
  scenario(key: string, s: Scenario): void
  /** the default for keys without a scenario */
  defaults: Scenario
  reset(): void
  close(): Promise<void>
}

const DEFAULT_TEXT = 'Hello from the fake upstream, how can I help?'
const EMBEDDING = [0.0023064255, -0.009327292, 0.015797347, -0.0077780345, -0.0046922187, 0.0137, -0.0285, 0.004]

function keyOf(req: IncomingMessage, url: URL): string {
  const auth = req.headers.authorization
  if (auth && auth.startsWith('Bearer ')) return auth.slice(7)
  return String(req.headers['x-api-key'] ?? req.headers['api-key'] ?? req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '')
}

function pieces(text: string, n: number): string[] {
  const words = text.split(/(?<= )/)
  if (n <= 1 || words.length <= 1) return [text]
  const out: string[] = []
  const per = Math.ceil(words.length / n)
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(''))
  return out
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function startFakeUpstream(opts: { port?: number; record?: boolean } = {}): Promise<FakeUpstream> {
  const record = opts.record ?? true
  const scenarios = new Map<string, Scenario>()
  const fake = {
    url: '',
    port: 0,
    requests: [] as Recorded[],
    hits: new Map<string, number>(),
    aborted: 0,
    defaults: {} as Scenario,
    scenario(key: string, s: Scenario) {
      scenarios.set(key, s)
    },
    reset() {
      scenarios.clear()
      fake.requests.length = 0
      fake.hits.clear()
      fake.aborted = 0
      fake.defaults = {}
    },
    close: async () => {},
  }

  // fixed answers for the benchmark's hot path, built once
  const chatCache = new Map<string, Buffer>()
  // Responses answers, by id (bounded), for GET /v1/responses/{id}
  const responses = new Map<string, unknown>()

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
      void handle(req, res, raw).catch((err) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: String(err), type: 'server_error' } }))
      })
    })
  })
  server.keepAliveTimeout = 60_000

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const key = keyOf(req, url)
    const s: Scenario = { ...fake.defaults, ...scenarios.get(key) }
    fake.hits.set(key, (fake.hits.get(key) ?? 0) + 1)
    const ct = String(req.headers['content-type'] ?? '')
    let body: any = null
    const rawText = record || ct.includes('json') ? raw.toString('utf8') : ''
    if (ct.includes('json') && raw.length) body = JSON.parse(rawText)
    if (record) {
      fake.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, key, body, raw: rawText })
      if (fake.requests.length > 2000) fake.requests.splice(0, 1000)
    }
    if (s.destroy) {
      req.socket.destroy()
      return
    }
    if (s.latencyMs) await sleep(s.latencyMs)
    const path = url.pathname
    const anthropic = path.endsWith('/v1/messages')
    const gemini = path.includes(':generateContent') || path.includes(':streamGenerateContent') || path.includes(':batchEmbedContents')
    if (s.status && s.status >= 400) {
      let err = s.error
      if (err === undefined) {
        err = anthropic
          ? { type: 'error', error: { type: 'api_error', message: `fake failure ${s.status}` } }
          : gemini
            ? { error: { code: s.status, message: `fake failure ${s.status}`, status: 'INTERNAL' } }
            : { error: { message: `fake failure ${s.status}`, type: 'server_error', param: null, code: null } }
      }
      res.writeHead(s.status, { 'content-type': 'application/json' })
      res.end(typeof err === 'string' ? err : JSON.stringify(err))
      return
    }
    const text = s.text ?? DEFAULT_TEXT
    const parts = pieces(text, s.chunks ?? 3)
    const maxTokens = Number(body?.max_tokens ?? body?.max_completion_tokens ?? 0)
    const promptTokens = s.promptTokens ?? 12
    let completionTokens = s.completionTokens ?? parts.length
    if (maxTokens > 0) completionTokens = Math.min(completionTokens, maxTokens)
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
    const withUsage = s.usage !== false

    if (path.endsWith('/v1/responses')) return responsesAnswer(res, { body, s, parts, usage, withUsage, kept: responses })
    const stored = /\/v1\/responses\/([^/]+)$/.exec(path)
    if (stored && req.method === 'GET') {
      const kept = responses.get(stored[1])
      if (kept) return sendJson(res, kept)
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ error: { message: `No response found with id '${stored[1]}'.`, type: 'invalid_request_error', code: null } }),
      )
      return
    }
    if (anthropic) return claude(res, body, s, parts, usage, withUsage)
    if (gemini) return geminiAnswer(res, path, body, s, parts, usage, withUsage)

    if (path.endsWith('/chat/completions') || path.endsWith('/text/chatcompletion_v2')) {
      const model = String(body?.model ?? 'gpt-3.5-turbo')
      if (body?.stream) {
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
            fake.aborted++
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
        return
      }
      const cacheKey = `${model}|${text}|${withUsage}|${s.toolCall}|${completionTokens}|${promptTokens}`
      let out = chatCache.get(cacheKey)
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
        if (chatCache.size < 1000) chatCache.set(cacheKey, out)
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
      res.end(out)
      return
    }
    if (path.endsWith('/completions')) {
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
    if (path.endsWith('/embeddings')) {
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
    if (path.endsWith('/images/generations')) {
      const n = Number(body?.n) || 1
      return sendJson(res, {
        created: 1700000000,
        data: Array.from({ length: n }, (_, i) => ({ url: `https://images.example/${i}.png`, revised_prompt: body?.prompt })),
      })
    }
    if (path.endsWith('/moderations')) {
      return sendJson(res, {
        id: 'modr-fake',
        model: body?.model,
        results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.0001 } }],
      })
    }
    if (path.endsWith('/audio/speech')) {
      const audio = Buffer.from('ID3fake-mp3-bytes:' + String(body?.input ?? ''))
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length })
      res.end(audio)
      return
    }
    if (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations')) {
      return sendJson(res, { text })
    }
    if (path.endsWith('/models') && req.method === 'GET') {
      return sendJson(res, {
        object: 'list',
        data: ['gpt-4o', 'gpt-3.5-turbo'].map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })),
      })
    }
    if (path.endsWith('/dashboard/billing/subscription')) {
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
    if (path.endsWith('/dashboard/billing/usage')) {
      const b = s.balance ?? { hardLimitUsd: 100, usageCents: 2500 }
      return sendJson(res, { object: 'list', total_usage: b.usageCents })
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: `fake upstream has no ${req.method} ${path}`, type: 'invalid_request_error' } }))
  }

  function sendJson(res: ServerResponse, obj: unknown) {
    const out = Buffer.from(JSON.stringify(obj))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
    res.end(out)
  }

  async function claude(
    res: ServerResponse,
    body: any,
    s: Scenario,
    parts: string[],
    usage: { prompt_tokens: number; completion_tokens: number },
    withUsage: boolean,
  ) {
    const model = String(body?.model ?? 'claude-3-5-sonnet-20241022')
    const wantsTool = s.toolCall && Array.isArray(body?.tools) && body.tools.length > 0
    const inTok = withUsage ? usage.prompt_tokens : 0
    const outTok = withUsage ? usage.completion_tokens : 0
    if (!body?.stream) {
      const content = wantsTool
        ? [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_1', name: body.tools[0].name, input: { city: 'Paris' } },
          ]
        : [{ type: 'text', text: parts.join('') }]
      return sendJson(res, {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: wantsTool ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: inTok, output_tokens: outTok },
      })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const ev = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
    ev('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: inTok, output_tokens: withUsage ? 1 : 0 },
      },
    })
    ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
    ev('ping', { type: 'ping' })
    for (const p of wantsTool ? ['Let me check.'] : parts) {
      if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: p } })
    }
    ev('content_block_stop', { type: 'content_block_stop', index: 0 })
    if (wantsTool) {
      ev('content_block_start', {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: body.tools[0].name, input: {} },
      })
      ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": ' } })
      ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } })
      ev('content_block_stop', { type: 'content_block_stop', index: 1 })
    }
    ev('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: wantsTool ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: outTok },
    })
    ev('message_stop', { type: 'message_stop' })
    res.end()
  }

  async function geminiAnswer(
    res: ServerResponse,
    path: string,
    body: any,
    s: Scenario,
    parts: string[],
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
    withUsage: boolean,
  ) {
    if (path.includes(':batchEmbedContents')) {
      return sendJson(res, { embeddings: (body?.requests ?? []).map(() => ({ values: EMBEDDING })) })
    }
    const meta = withUsage
      ? {
          usageMetadata: {
            promptTokenCount: usage.prompt_tokens,
            candidatesTokenCount: usage.completion_tokens,
            totalTokenCount: usage.total_tokens,
          },
        }
      : {}
    const wantsTool = s.toolCall && Array.isArray(body?.tools)
    if (path.includes(':generateContent')) {
      const content = wantsTool
        ? { role: 'model', parts: [{ functionCall: { name: body.tools[0].functionDeclarations[0].name, args: { city: 'Paris' } } }] }
        : { role: 'model', parts: [{ text: parts.join('') }] }
      return sendJson(res, { candidates: [{ content, finishReason: 'STOP', index: 0 }], ...meta, modelVersion: 'fake' })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (wantsTool) {
      const call = { functionCall: { name: body.tools[0].functionDeclarations[0].name, args: { city: 'Paris' } } }
      res.end(
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP', index: 0 }], ...meta })}\n\n`,
      )
      return
    }
    for (let i = 0; i < parts.length; i++) {
      if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
      const last = i === parts.length - 1
      res.write(
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: parts[i] }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }], ...(last ? meta : {}) })}\n\n`,
      )
    }
    res.end()
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  fake.port = port
  fake.url = `http://127.0.0.1:${port}`
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake as FakeUpstream
}

if (import.meta.main) {
  const fake = await startFakeUpstream({ port: Number(process.argv[2] ?? 0), record: false })
  process.stdout.write(`listening ${fake.port}\n`)
  const stop = () => void fake.close().then(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
