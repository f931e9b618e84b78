/**
 * What the element tests run against (web-test-runner.config.ts starts it once per run): the REAL
 * gateway server in-process (temp SQLite database), a loopback SMTP server that keeps the mails,
 * stand-ins for the outside services the server asks (bot check, GitHub, WeChat) and a fake
 * OpenAI-compatible upstream behind a CORS front; plus the middleware that puts /api/* of the test
 * page through to the server. The commands tests send are in server-commands.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { serve } from '@hono/node-server'
import { SMTPServer } from 'smtp-server'
import { createServer } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { startFakeUpstream } from '../fake-upstream.ts'
import { readMail } from '../smtp-mail.ts'

// --- stand-ins for the outside services the server asks (bot check, GitHub, WeChat) -----------
const outside = createHttpServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(value))
  }
  if (url.pathname === '/turnstile/siteverify') return json(200, { success: new URLSearchParams(body).get('response') === 'good-token' })
  if (url.pathname === '/github/login/oauth/access_token') {
    return json(200, JSON.parse(body || '{}').code === 'good-code' ? { access_token: 'gh-token' } : { error: 'bad_verification_code' })
  }
  if (url.pathname === '/github-api/user') return json(200, { id: 4242, login: 'octocat', name: 'Octo Cat', email: '' })
  if (url.pathname === '/wechat/api/wechat/user') {
    const code = url.searchParams.get('code')
    return json(
      200,
      code === '246810'
        ? { success: true, data: 'wx-open-id-1' }
        : { success: false, message: 'the WeChat verification code is wrong or has expired' },
    )
  }
  json(404, {})
})
await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve))
export const outsideBase = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`
process.env.TURNSTILE_VERIFY_URL = `${outsideBase}/turnstile/siteverify`
process.env.GITHUB_OAUTH_URL = `${outsideBase}/github`
process.env.GITHUB_API_URL = `${outsideBase}/github-api`

// --- the real server -------------------------------------------------------------------------
export const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-wtr-'))
// a minimal env on purpose: the suite always runs on its own SQLite file, whatever the shell exports
export const config = loadConfig(
  { DATA_DIR: dataDir },
  {
    dataDir,
    sessionSecret: 'wtr-session-secret',
    criticalRateLimit: 1_000_000,
    apiRateLimit: 1_000_000,
    staticDir: join(dataDir, 'no-static'),
    // the element tests write task rows in every state straight into the database; a poller
    // following them to their providers (absent here) would turn them all to FAILURE mid-test
    taskPolling: false,
  },
)
export const gateway = await createServer(config)
export const http = serve({ fetch: gateway.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer
await new Promise<void>((resolve) => (http.listening ? resolve() : http.once('listening', () => resolve())))
const gatewayPort = (http.address() as AddressInfo).port

// --- a loopback SMTP server, so mail flows (verification code, reset link) are real -----------
export const mails: Array<{ to: string[]; text: string }> = []
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, session, cb) {
    void readMail(stream).then(({ text }) => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text })
      cb()
    }, cb)
  },
})
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
const smtpPort = (smtp.server.address() as AddressInfo).port
for (const [key, value] of Object.entries({
  SMTPServer: '127.0.0.1',
  SMTPPort: String(smtpPort),
  SMTPSSLEnabled: 'false',
  SMTPFrom: 'noreply@example.com',
})) {
  await gateway.ctx.options.set(key, value)
}
export const defaultOptions = new Map(gateway.ctx.options.all().map((o) => [o.key, o.value]))

/** /api/* from the test page goes to the real server: all methods, bodies and cookies. */
export async function apiProxy(ctx: any, next: () => Promise<void>) {
  if (!ctx.path.startsWith('/api/')) return next()
  const chunks: Buffer[] = []
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [k, v] of Object.entries(ctx.headers as Record<string, string | string[] | undefined>)) {
    if (v === undefined || ['host', 'connection', 'content-length'].includes(k)) continue
    headers.set(k, Array.isArray(v) ? v.join(', ') : v)
  }
  let res: Response
  try {
    res = await fetch(`http://127.0.0.1:${gatewayPort}${ctx.url}`, {
      method: ctx.method,
      headers,
      body: chunks.length && ctx.method !== 'GET' && ctx.method !== 'HEAD' ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    })
  } catch (err) {
    // the page gets an envelope naming the failure, and the run's output says it too
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const why = `test proxy: ${ctx.method} ${ctx.url} did not reach the server: ${cause?.code ?? ''} ${cause?.message ?? String(err)}`
    console.error(why)
    ctx.status = 502
    ctx.type = 'application/json'
    ctx.body = JSON.stringify({ success: false, message: why, data: null })
    return
  }
  ctx.status = res.status
  res.headers.forEach((value, key) => {
    if (!['set-cookie', 'content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(key)) ctx.set(key, value)
  })
  const cookies = res.headers.getSetCookie()
  if (cookies.length) ctx.set('set-cookie', cookies)
  ctx.body = Buffer.from(await res.arrayBuffer())
}

/**
 * Answers /__status/<code> with that HTTP status and an envelope: the statuses the real server
 * only gives under conditions a test cannot arrange (a crash, a static host without server).
 */
export async function statusEndpoint(ctx: any, next: () => Promise<void>) {
  const m = /^\/__status\/(\d{3})$/.exec(ctx.path)
  if (!m) return next()
  ctx.status = Number(m[1])
  ctx.type = 'application/json'
  ctx.body = JSON.stringify({ success: false, message: `status ${m[1]} from the test endpoint`, data: null })
}

/**
 * Stands in for the payment platform's submit page: answers a POSTed form with its fields as JSON
 * in <pre id="fields">, so a test can read what the top-up form sent (in a named iframe).
 */
export async function payEcho(ctx: any, next: () => Promise<void>) {
  if (ctx.path !== '/__pay/submit.php' || ctx.method !== 'POST') return next()
  const chunks: Buffer[] = []
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer)
  const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
  const escape = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
  ctx.type = 'text/html'
  ctx.body = `<!doctype html><pre id="fields">${escape(JSON.stringify(fields))}</pre>`
}

// --- the administrator lists (channels, users, redemption codes) ---------------------------
// A fake OpenAI-compatible upstream on loopback (the channel test, balances and the server's model
// fetch) behind a small CORS front, because for a channel not saved yet the browser itself asks
// `{base_url}/v1/models` with the key. The front refuses the key `sk-bad` and remembers the
// Authorization header of the last model list a browser asked for.
export const fakeUpstream = await startFakeUpstream({ record: false })
export let browserModelsAuth: string | null = null
export const upstreamFront = createHttpServer(async (req, res) => {
  res.setHeader('access-control-allow-origin', '*')
  res.setHeader('access-control-allow-headers', 'authorization, content-type, accept')
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS')
  if (req.method === 'OPTIONS') {
    res.writeHead(204)
    res.end()
    return
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const auth = String(req.headers.authorization ?? '')
  if (url.pathname.endsWith('/models') && req.headers.origin) browserModelsAuth = auth
  if (url.pathname.endsWith('/models') && auth === 'Bearer sk-bad') {
    res.writeHead(401, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }))
    return
  }
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === 'string' && !['host', 'connection', 'content-length', 'origin'].includes(k)) headers[k] = v
  const answer = await fetch(fakeUpstream.url + url.pathname + url.search, {
    method: req.method,
    headers,
    body: chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined,
  })
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
  res.end(Buffer.from(await answer.arrayBuffer()))
})
await new Promise<void>((resolve) => upstreamFront.listen(0, '127.0.0.1', resolve))
export const upstreamBase = `http://127.0.0.1:${(upstreamFront.address() as AddressInfo).port}`

/** Closes everything this module started (the last plugin hook of the run). */
export async function stopTestServer(): Promise<void> {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
  await new Promise<void>((resolve) => http.close(() => resolve()))
  await new Promise<void>((resolve) => outside.close(() => resolve()))
  upstreamFront.closeAllConnections()
  await new Promise<void>((resolve) => upstreamFront.close(() => resolve()))
  await fakeUpstream.close()
  await gateway.close()
  rmSync(dataDir, { recursive: true, force: true })
}
