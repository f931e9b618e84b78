/**
 * The fixture of the OAuth tests (oauth-*.test.ts): fake GitHub and WeChat servers on loopback, a
 * server with GitHub, WeChat and Telegram sign-in turned on against them, Telegram's signed widget
 * answer, and the state handshake.
 */
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, createHmac } from 'node:crypto'
import { startServer, suiteFixture, type Client, type Dialect, type Reply } from './helpers.ts'

/** A loopback HTTP server answering with `handle`; records every request. */
async function fakeServer(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handle(req, body, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** GitHub's two calls: codes `code-<id>` belong to GitHub account <id>. */
function startGitHub() {
  return fakeServer((req, body, res) => {
    if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
      const { client_id, client_secret, code } = JSON.parse(body) as Record<string, string>
      if (client_id !== 'gh-client' || client_secret !== 'gh-secret') return json(res, 200, { error: 'incorrect_client_credentials' })
      const m = /^code-(\d+)$/.exec(code)
      if (!m) return json(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' })
      return json(res, 200, { access_token: `gho_${m[1]}`, token_type: 'bearer', scope: '' })
    }
    if (req.method === 'GET' && req.url === '/user') {
      const m = /^Bearer gho_(\d+)$/.exec(req.headers.authorization ?? '')
      if (!m) return json(res, 401, { message: 'Bad credentials' })
      return json(res, 200, {
        id: Number(m[1]),
        login: `octo${m[1]}`,
        name: `Octo Cat ${m[1]}`,
        email: m[1].startsWith('77') ? `octo${m[1]}@example.com` : null,
      })
    }
    json(res, 404, { message: 'Not Found' })
  })
}

/** The WeChat login server: codes `wx-<openid>` name that WeChat account. */
function startWeChat() {
  return fakeServer((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname !== '/api/wechat/user') return json(res, 404, {})
    if (req.headers.authorization !== 'wx-token') return json(res, 200, { success: false, message: 'unauthorised', data: '' })
    const code = url.searchParams.get('code') ?? ''
    if (!code.startsWith('wx-')) return json(res, 200, { success: false, message: 'invalid verification code', data: '' })
    json(res, 200, { success: true, message: '', data: code.slice(3) })
  })
}

const BOT_TOKEN = '123456:telegram-bot-token'

/** What Telegram's login widget hands the page, signed as Telegram signs it. */
export function telegramQuery(fields: Record<string, string>, token = BOT_TOKEN): string {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(check).digest('hex')
  return new URLSearchParams({ ...fields, hash, lang: 'en' }).toString()
}

export const now = () => Math.floor(Date.now() / 1000)

/** Asks for a state and keeps its cookie; `call` sends it along with the client's own cookie. */
export async function startState(c: Client): Promise<{ state: string; call: (path: string) => Promise<Reply> }> {
  const r = await c.get('/api/oauth/state')
  assert.equal(r.body.success, true)
  const m = /tollgate_oauth_state=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')
  assert.ok(m, 'no state cookie')
  const cookie = `tollgate_oauth_state=${m[1]}`
  return {
    state: r.body.data,
    async call(path: string) {
      const own = c.cookie
      c.cookie = [own, cookie].filter(Boolean).join('; ')
      const combined = c.cookie
      try {
        return await c.get(path)
      } finally {
        if (c.cookie === combined) c.cookie = own
      }
    },
  }
}

/** Starts the fakes and the server, with the three sign-ins turned on; close() stops them all. */
export async function oauthFixture(dialect: Dialect) {
  const github = await startGitHub()
  const wechat = await startWeChat()
  process.env.GITHUB_OAUTH_URL = github.base
  process.env.GITHUB_API_URL = github.base
  const s = await startServer(dialect)
  const o = s.ctx.options
  await o.set('GitHubClientId', 'gh-client')
  await o.set('GitHubClientSecret', 'gh-secret')
  await o.set('GitHubOAuthEnabled', 'true')
  await o.set('WeChatServerAddress', `${wechat.base}/`)
  await o.set('WeChatServerToken', 'wx-token')
  await o.set('WeChatAuthEnabled', 'true')
  await o.set('TelegramBotToken', BOT_TOKEN)
  await o.set('TelegramOAuthEnabled', 'true')
  return {
    s,
    github,
    wechat,
    userBy: (column: 'github_id' | 'wechat_id' | 'telegram_id', id: string) =>
      s.ctx.db.selectFrom('users').selectAll().where(column, '=', id).execute(),
    async close() {
      delete process.env.GITHUB_OAUTH_URL
      delete process.env.GITHUB_API_URL
      await s.close()
      await github.close()
      await wechat.close()
    },
  }
}

export type OAuthFixture = Awaited<ReturnType<typeof oauthFixture>>

/** The fixture of an OAuth suite (see suiteFixture). */
export const oauthSuite = (dialect: Dialect) => suiteFixture(() => oauthFixture(dialect))
