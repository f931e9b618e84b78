/**
 * Browser tests of the elements (`npm run test:elements`): real Chromium (Debian's, never a
 * downloaded one), files tests/elements/**\/*.test.ts(x) served through Vite, and a REAL gateway
 * server started in-process for the run (temp SQLite database, a loopback SMTP server that keeps
 * the mails) behind /api. Ends with one line `wtr: N passed, N failed`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { serve } from '@hono/node-server'
import { SMTPServer } from 'smtp-server'
import { defaultReporter } from '@web/test-runner'
import type { Reporter, TestSession, TestSuiteResult } from '@web/test-runner'
import { playwrightLauncher } from '@web/test-runner-playwright'
import { vitePlugin, removeViteLogging } from '@remcovaes/web-test-runner-vite-plugin'
import { createServer } from './server/app.ts'
import { loadConfig } from './server/config.ts'
import { issueVerificationToken } from './server/lib/verification.ts'
import { startFakeUpstream } from './tests/fake-upstream.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const VITE_PORT = Number(process.env.WTR_VITE_PORT ?? 5273)

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
const outsideBase = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`
process.env.TURNSTILE_VERIFY_URL = `${outsideBase}/turnstile/siteverify`
process.env.GITHUB_OAUTH_URL = `${outsideBase}/github`
process.env.GITHUB_API_URL = `${outsideBase}/github-api`

// --- the real server -------------------------------------------------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-wtr-'))
// a minimal env on purpose: the suite always runs on its own SQLite file, whatever the shell exports
const config = loadConfig(
  { DATA_DIR: dataDir },
  {
    dataDir,
    sessionSecret: 'wtr-session-secret',
    criticalRateLimit: 1_000_000,
    apiRateLimit: 1_000_000,
    staticDir: join(dataDir, 'no-static'),
  },
)
const gateway = await createServer(config)
const http = serve({ fetch: gateway.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer
await new Promise<void>((resolve) => (http.listening ? resolve() : http.once('listening', () => resolve())))
const gatewayPort = (http.address() as AddressInfo).port

// --- a loopback SMTP server, so mail flows (verification code, reset link) are real -----------
const mails: Array<{ to: string[]; text: string }> = []
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, session, cb) {
    const chunks: Buffer[] = []
    stream.on('data', (d: Buffer) => chunks.push(d))
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text })
      cb()
    })
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
const defaultOptions = new Map(gateway.ctx.options.all().map((o) => [o.key, o.value]))

/** /api/* from the test page goes to the real server: all methods, bodies and cookies. */
async function apiProxy(ctx: any, next: () => Promise<void>) {
  if (!ctx.path.startsWith('/api/')) return next()
  const chunks: Buffer[] = []
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [k, v] of Object.entries(ctx.headers as Record<string, string | string[] | undefined>)) {
    if (v === undefined || ['host', 'connection', 'content-length'].includes(k)) continue
    headers.set(k, Array.isArray(v) ? v.join(', ') : v)
  }
  const res = await fetch(`http://127.0.0.1:${gatewayPort}${ctx.url}`, {
    method: ctx.method,
    headers,
    body: chunks.length && ctx.method !== 'GET' && ctx.method !== 'HEAD' ? Buffer.concat(chunks) : undefined,
    redirect: 'manual',
  })
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
async function statusEndpoint(ctx: any, next: () => Promise<void>) {
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
async function payEcho(ctx: any, next: () => Promise<void>) {
  if (ctx.path !== '/__pay/submit.php' || ctx.method !== 'POST') return next()
  const chunks: Buffer[] = []
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer)
  const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
  const escape = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
  ctx.type = 'text/html'
  ctx.body = `<!doctype html><pre id="fields">${escape(JSON.stringify(fields))}</pre>`
}

/** Commands the tests send with executeServerCommand: arrange the real server's state. */
const serverCommands = {
  name: 'tollgate-server-commands',
  async executeCommand({ command, payload }: { command: string; payload?: any }) {
    const o = gateway.ctx.options
    switch (command) {
      case 'tg-options':
        for (const [key, value] of Object.entries(payload as Record<string, string>)) await o.set(key, String(value))
        return true
      case 'tg-reset-options':
        for (const { key, value } of o.all())
          if (defaultOptions.has(key) && defaultOptions.get(key) !== value) await o.set(key, defaultOptions.get(key)!)
        config.criticalRateLimit = 1_000_000
        return true
      case 'tg-option':
        // settings tests: what the server stored, secrets included (GET /api/option/ hides them)
        return o.get(payload.key)
      case 'tg-quota-data': {
        // dashboard tests: hourly usage buckets (quota_data) replaced as a whole; user ids from the usernames
        await gateway.ctx.db.deleteFrom('quota_data').execute()
        const rows = payload.rows as Array<{
          username: string
          model_name: string
          created_at: number
          count: number
          quota: number
          token_used: number
        }>
        for (const r of rows) {
          const user = await gateway.ctx.db.selectFrom('users').select('id').where('username', '=', r.username).executeTakeFirst()
          await gateway.ctx.db
            .insertInto('quota_data')
            .values({ ...r, user_id: user?.id ?? 0 })
            .execute()
        }
        return true
      }
      case 'tg-critical-limit':
        config.criticalRateLimit = Number(payload.limit)
        return true
      // logs, settings and task-list tests: rows written straight into the real database
      case 'tg-h3-user': {
        // sets columns of a user (role, quota, invite earnings, bindings) by username, or of the
        // users matching `where` (one column = value)
        const [column, value] = payload.where ? Object.entries(payload.where)[0]! : ['username', payload.username]
        await gateway.ctx.db
          .updateTable('users')
          .set(payload.set)
          .where(column as 'username', '=', value as string)
          .execute()
        gateway.ctx.bus.emit('users')
        return true
      }
      case 'tg-h3-logs': {
        // inserts log rows; user_id and username come from `owner` (a username)
        const rows = payload.rows as Array<Record<string, unknown> & { owner: string }>
        for (const { owner, ...row } of rows) {
          const user = await gateway.ctx.db
            .selectFrom('users')
            .select(['id', 'username'])
            .where('username', '=', owner)
            .executeTakeFirstOrThrow()
          await gateway.ctx.db
            .insertInto('logs')
            .values({ user_id: user.id, username: user.username, ...row } as never)
            .execute()
        }
        return rows.length
      }
      case 'tg-h3-logs-before': {
        // removes the logs older than `before` (seconds), so a cleaning test counts only its own rows
        await gateway.ctx.db.deleteFrom('logs').where('created_at', '<', Number(payload.before)).execute()
        return true
      }
      case 'tg-h3-tasks': {
        // inserts task rows; user_id comes from `owner` (a username)
        const rows = payload.rows as Array<Record<string, unknown> & { owner: string }>
        for (const { owner, ...row } of rows) {
          const user = await gateway.ctx.db.selectFrom('users').select('id').where('username', '=', owner).executeTakeFirstOrThrow()
          await gateway.ctx.db
            .insertInto('tasks')
            .values({ channel_id: 0, user_id: user.id, ...row } as never)
            .execute()
        }
        return rows.length
      }
      case 'tg-h3-models': {
        // the models of a group (ability rows of a stand-in channel), for GET /api/user/models
        const channelId = 990_000 + Number(payload.slot ?? 0)
        await gateway.ctx.db.deleteFrom('abilities').where('channel_id', '=', channelId).execute()
        for (const model of payload.models as string[]) {
          await gateway.ctx.db
            .insertInto('abilities')
            .values({ group: payload.group, model, channel_id: channelId, enabled: 1, priority: 0, weight: 0 })
            .execute()
        }
        return true
      }
      case 'tg-user': {
        const row = await gateway.ctx.db.selectFrom('users').selectAll().where('username', '=', payload.username).executeTakeFirst()
        if (!row) return null
        const { password: _password, ...rest } = row
        return rest
      }
      case 'tg-set-email': {
        await gateway.ctx.db.updateTable('users').set({ email: payload.email }).where('username', '=', payload.username).execute()
        return true
      }
      case 'tg-outside-base':
        return outsideBase
      case 'tg-reset-token':
        return issueVerificationToken('reset', payload.email)
      case 'tg-last-mail': {
        const mail = [...mails].reverse().find((m) => m.to.includes(payload.to))
        return mail ? mail.text : null
      }
      case 'tg-abilities': {
        // pricing and model-limit tests: ability rows of a stand-in channel id, replaced as a whole
        const channelId = Number(payload.channelId)
        await gateway.ctx.db.deleteFrom('abilities').where('channel_id', '=', channelId).execute()
        const rows = (payload.rows as Array<{ group: string; model: string; enabled?: boolean }>).map((r) => ({
          group: r.group,
          model: r.model,
          channel_id: channelId,
          enabled: r.enabled === false ? 0 : 1,
          priority: 0,
          weight: 0,
        }))
        if (rows.length) await gateway.ctx.db.insertInto('abilities').values(rows).execute()
        gateway.ctx.bus.emit('channels')
        return true
      }
      case 'tg-set-group': {
        await gateway.ctx.db.updateTable('users').set({ group: payload.group }).where('username', '=', payload.username).execute()
        gateway.ctx.bus.emit('users')
        return true
      }
      default:
        return undefined
    }
  },
}

/**
 * The Vite plugin adds every file it serves to wtr's file watcher, and wtr re-runs sessions when
 * a watched file changes, even without --watch: an edit during the run would start a second run
 * against a browser that is shutting down. A single run must not depend on the working tree
 * staying still, so the plugin gets a watcher that ignores it.
 */
function withoutRerunOnChange(plugin: any) {
  return {
    ...plugin,
    serverStart: (args: Record<string, unknown>) => plugin.serverStart({ ...args, fileWatcher: { add() {} } }),
  }
}

// --- the administrator lists (channels, users, redemption codes) ---------------------------
// A fake OpenAI-compatible upstream on loopback (the channel test, balances and the server's model
// fetch) behind a small CORS front, because for a channel not saved yet the browser itself asks
// `{base_url}/v1/models` with the key. The front refuses the key `sk-bad` and remembers the
// Authorization header of the last model list a browser asked for.
const fakeUpstream = await startFakeUpstream({ record: false })
let browserModelsAuth: string | null = null
const upstreamFront = createHttpServer(async (req, res) => {
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
const upstreamBase = `http://127.0.0.1:${(upstreamFront.address() as AddressInfo).port}`

/** Commands of the administrator list tests (their own plugin: every answer is non-null). */
const adminFixtures = {
  name: 'tollgate-admin-fixtures',
  async executeCommand({ command, payload }: { command: string; payload?: any }) {
    const db = gateway.ctx.db
    switch (command) {
      case 'tg-admin-upstream':
        return upstreamBase
      case 'tg-admin-models-auth':
        // the Authorization header of the last model list a browser asked the upstream for ('' none)
        return browserModelsAuth ?? ''
      case 'tg-admin-channel-set': {
        // measured columns the console only shows (response_time, balance, status …)
        await db.updateTable('channels').set(payload.set).where('id', '=', Number(payload.id)).execute()
        gateway.ctx.bus.emit('channels', Number(payload.id))
        return true
      }
      case 'tg-admin-user-set': {
        // columns of a user the console cannot set (a status the server never gives, for one)
        await db.updateTable('users').set(payload.set).where('username', '=', payload.username).execute()
        gateway.ctx.bus.emit('users')
        return true
      }
      case 'tg-admin-loopback-channels': {
        // before "test all" and "update all balances": no channel may send the server off the machine
        await db.updateTable('channels').set({ base_url: upstreamBase }).where('base_url', 'not like', 'http://127.0.0.1:%').execute()
        gateway.ctx.bus.emit('channels')
        return true
      }
      default:
        return undefined
    }
  },
  async serverStop() {
    upstreamFront.closeAllConnections()
    await new Promise<void>((resolve) => upstreamFront.close(() => resolve()))
    await fakeUpstream.close()
  },
}

// --- the closing line ------------------------------------------------------------------------
function countSuite(suite: TestSuiteResult | undefined, counts: { passed: number; failed: number }) {
  if (!suite) return
  for (const test of suite.tests) {
    if (test.skipped) continue
    if (test.passed) counts.passed++
    else counts.failed++
  }
  for (const child of suite.suites) countSuite(child, counts)
}

function summaryLine(): Reporter {
  let line = 'wtr: 0 passed, 1 failed'
  process.on('exit', () => console.log(line))
  return {
    onTestRunFinished({ sessions }: { sessions: TestSession[] }) {
      const counts = { passed: 0, failed: 0 }
      for (const session of sessions) {
        countSuite(session.testResults, counts)
        if (session.errors?.length || (!session.passed && !session.testResults?.tests.length && !session.testResults?.suites.length))
          counts.failed++
      }
      line = `wtr: ${counts.passed} passed, ${counts.failed} failed`
    },
  }
}

export default {
  files: ['tests/elements/**/*.test.ts', 'tests/elements/**/*.test.tsx'],
  nodeResolve: false,
  concurrency: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 10_000 } },
  // tests print nothing: drop Vite's connection notes and Lit's dev-mode notice
  filterBrowserLogs: (log: { type: string; args: unknown[] }) =>
    removeViteLogging(log) && !log.args.some((a) => typeof a === 'string' && a.includes('Lit is in dev mode')),
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
      // tests talk only to loopback: outside widgets (bot check, Telegram) are refused, not fetched
      async createPage({ context }) {
        await context.route(
          (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.protocol !== 'data:',
          (route) => route.abort(),
        )
        return context.newPage()
      },
    }),
  ],
  middleware: [apiProxy, statusEndpoint, payEcho],
  plugins: [
    serverCommands,
    adminFixtures,
    withoutRerunOnChange(
      vitePlugin({
        // the plugin proxies to the configured port, so it must not drift
        server: { port: VITE_PORT, strictPort: true, host: '127.0.0.1' },
        // a dependency cache per port: runs side by side must not rewrite each other's pre-bundled
        // React mid-run (two copies of React break hooks)
        cacheDir: `node_modules/.vite-wtr-${VITE_PORT}`,
        logLevel: 'error',
        define: { 'process.env.NODE_ENV': '"development"' },
        // pre-bundle up front: discovering dependencies mid-run re-optimises and loads two Reacts
        optimizeDeps: {
          noDiscovery: true,
          include: [
            'react',
            'react-dom',
            'react-dom/client',
            'react/jsx-runtime',
            'react/jsx-dev-runtime',
            '@r2wc/react-to-web-component',
            'nanostores',
            '@nanostores/react',
            '@nanostores/persistent',
            'wretch',
            'wretch/addons/queryString',
            'dompurify',
            '@esm-bundle/chai',
          ],
        },
      }),
    ),
    {
      name: 'tollgate-stop-server',
      async serverStop() {
        await new Promise<void>((resolve) => smtp.close(() => resolve()))
        await new Promise<void>((resolve) => http.close(() => resolve()))
        await new Promise<void>((resolve) => outside.close(() => resolve()))
        await gateway.close()
        rmSync(dataDir, { recursive: true, force: true })
      },
    },
  ],
  reporters: [defaultReporter(), summaryLine()],
}
