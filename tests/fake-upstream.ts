/**
 * A fake model provider on loopback that speaks OpenAI's, Anthropic's and Gemini's real wire
 * formats (JSON and SSE), for the relay tests and the benchmark. Behaviour is chosen per API key
 * (each channel has its own key): latency, an error status and body, streaming pace, usage or
 * none, tool calls, a dropped connection.
 *
 * Run alone (benchmark): node tests/fake-upstream.ts [port]  -> prints "listening <port>".
 *
 * This module holds the server, the scenarios and the route table; the answers are in
 * fake-upstream-routes.ts (OpenAI), fake-upstream-claude-gemini.ts and fake-upstream-responses.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { responsesAnswer, storedResponse } from './fake-upstream-responses.ts'
import { claudeAnswer, geminiAnswer } from './fake-upstream-claude-gemini.ts'
import {
  askOf,
  billingSubscription,
  billingUsage,
  chat,
  completions,
  embeddings,
  failure,
  images,
  isAnthropic,
  isChat,
  isGemini,
  models,
  moderations,
  notFound,
  sleep,
  speech,
  transcription,
  type Ask,
  type Kept,
} from './fake-upstream-routes.ts'

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

function keyOf(req: IncomingMessage, url: URL): string {
  const auth = req.headers.authorization
  if (auth && auth.startsWith('Bearer ')) return auth.slice(7)
  return String(req.headers['x-api-key'] ?? req.headers['api-key'] ?? req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '')
}

interface Route {
  /** does this route answer the request? */
  test(path: string, method: string | undefined): boolean
  answer(a: Ask): void | Promise<void>
}

const storedId = /\/v1\/responses\/([^/]+)$/

/** In the order they are tried: the first match answers (so /chat/completions before /completions). */
const routes: Route[] = [
  {
    test: (path) => path.endsWith('/v1/responses'),
    answer: ({ res, body, s, parts, usage, withUsage, kept }) =>
      responsesAnswer(res, { body, s, parts, usage, withUsage, kept: kept.responses }),
  },
  {
    test: (path, method) => storedId.test(path) && method === 'GET',
    answer: ({ res, path, kept }) => storedResponse(res, storedId.exec(path)![1], kept.responses),
  },
  { test: isAnthropic, answer: claudeAnswer },
  { test: isGemini, answer: geminiAnswer },
  { test: isChat, answer: chat },
  { test: (path) => path.endsWith('/completions'), answer: completions },
  { test: (path) => path.endsWith('/embeddings'), answer: embeddings },
  { test: (path) => path.endsWith('/images/generations'), answer: images },
  { test: (path) => path.endsWith('/moderations'), answer: moderations },
  { test: (path) => path.endsWith('/audio/speech'), answer: speech },
  { test: (path) => path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations'), answer: transcription },
  { test: (path, method) => path.endsWith('/models') && method === 'GET', answer: models },
  { test: (path) => path.endsWith('/dashboard/billing/subscription'), answer: billingSubscription },
  { test: (path) => path.endsWith('/dashboard/billing/usage'), answer: billingUsage },
]

/**
 * The request handler of one fake: counts and records the request, then follows its key's scenario
 * (destroy, latency, failure) or answers with the first route that matches, else a 404.
 */
function handler(fake: FakeUpstream, scenarios: Map<string, Scenario>, record: boolean, kept: Kept) {
  return async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
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
    if (s.status && s.status >= 400) return failure(res, path, s.status, s.error)
    const ask = askOf(req, res, path, body, s, kept)
    const route = routes.find((r) => r.test(path, req.method))
    return route ? route.answer(ask) : notFound(ask)
  }
}

export async function startFakeUpstream(opts: { port?: number; record?: boolean } = {}): Promise<FakeUpstream> {
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
  const kept: Kept = { chat: new Map(), responses: new Map(), aborted: () => void fake.aborted++ }
  const handle = handler(fake, scenarios, opts.record ?? true, kept)

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
