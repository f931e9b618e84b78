import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, createHmac } from 'node:crypto'
import { dialects, startServer, Client, type Reply, type TestServer, assertRefused } from './helpers.ts'

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
function telegramQuery(fields: Record<string, string>, token = BOT_TOKEN): string {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(check).digest('hex')
  return new URLSearchParams({ ...fields, hash, lang: 'en' }).toString()
}

const now = () => Math.floor(Date.now() / 1000)

/** Asks for a state and keeps its cookie; `call` sends it along with the client's own cookie. */
async function startState(c: Client): Promise<{ state: string; call: (path: string) => Promise<Reply> }> {
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

for (const dialect of dialects) {
  describe(`oauth sign-in and binding (${dialect})`, () => {
    let s: TestServer
    let github: Awaited<ReturnType<typeof startGitHub>>
    let wechat: Awaited<ReturnType<typeof startWeChat>>

    before(async () => {
      github = await startGitHub()
      wechat = await startWeChat()
      process.env.GITHUB_OAUTH_URL = github.base
      process.env.GITHUB_API_URL = github.base
      s = await startServer(dialect)
      const o = s.ctx.options
      await o.set('GitHubClientId', 'gh-client')
      await o.set('GitHubClientSecret', 'gh-secret')
      await o.set('GitHubOAuthEnabled', 'true')
      await o.set('WeChatServerAddress', `${wechat.base}/`)
      await o.set('WeChatServerToken', 'wx-token')
      await o.set('WeChatAuthEnabled', 'true')
      await o.set('TelegramBotToken', BOT_TOKEN)
      await o.set('TelegramOAuthEnabled', 'true')
    })
    after(async () => {
      delete process.env.GITHUB_OAUTH_URL
      delete process.env.GITHUB_API_URL
      await s.close()
      await github.close()
      await wechat.close()
    })

    const userBy = (column: 'github_id' | 'wechat_id' | 'telegram_id', id: string) =>
      s.ctx.db.selectFrom('users').selectAll().where(column, '=', id).execute()

    describe('GitHub', () => {
      it('hands out a 12-character state in an HttpOnly SameSite=Lax cookie', async () => {
        const r = await s.anon.get('/api/oauth/state')
        assert.equal(r.body.success, true)
        assert.match(r.body.data, /^[A-Za-z0-9]{12}$/)
        const cookie = r.headers.get('set-cookie') ?? ''
        assert.match(cookie, /tollgate_oauth_state=/)
        assert.match(cookie, /HttpOnly/i)
        assert.match(cookie, /SameSite=Lax/i)
        assert.notEqual((await s.anon.get('/api/oauth/state')).body.data, r.body.data)
      })

      it('registers github_<n> for a new GitHub account, signs it in, and signs the same user in again', async () => {
        await s.ctx.options.set('QuotaForNewUser', '250')
        try {
          const c = new Client(s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-4242&state=${state}`)
          assert.equal(r.body.success, true, r.body.message)
          assert.notEqual(r.body.message, 'bind')
          assert.match(r.body.data.username, /^github_\d+$/)
          assert.equal(r.body.data.github_id, '4242')
          assert.equal(r.body.data.display_name, 'Octo Cat 4242')
          assert.equal(r.body.data.quota, 250)
          assert.equal(r.body.data.password, undefined)
          const me = await c.get('/api/user/self')
          assert.equal(me.body.data.id, r.body.data.id)
          const lastId = (await s.ctx.db.selectFrom('users').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
          assert.equal(r.body.data.username, `github_${lastId}`)

          const again = new Client(s)
          const st = await startState(again)
          const r2 = await st.call(`/api/oauth/github?code=code-4242&state=${st.state}`)
          assert.equal(r2.body.data.id, r.body.data.id)
          assert.equal((await userBy('github_id', '4242')).length, 1)
        } finally {
          await s.ctx.options.set('QuotaForNewUser', '0')
        }
      })

      it('takes the GitHub e-mail for a new user unless an account already uses it', async () => {
        const c = new Client(s)
        const { state, call } = await startState(c)
        const r = await call(`/api/oauth/github?code=code-777&state=${state}`)
        assert.equal(r.body.data.email, 'octo777@example.com')
        const holder = await s.user()
        await s.ctx.db.updateTable('users').set({ email: 'OCTO778@example.com' }).where('id', '=', holder.id).execute()
        const st = await startState(new Client(s))
        const r2 = await st.call(`/api/oauth/github?code=code-778&state=${st.state}`)
        assert.equal(r2.body.success, true)
        assert.equal(r2.body.data.email, '')
      })

      it('is 403 when the state is missing, wrong, forged, or already used', async () => {
        const c = new Client(s)
        assert.equal((await c.get('/api/oauth/github?code=code-1&state=abc')).status, 403)
        const { state, call } = await startState(c)
        const wrong = await call('/api/oauth/github?code=code-1&state=AAAAAAAAAAAA')
        assert.equal(wrong.status, 403)
        assert.match(wrong.body.message, /state/)
        assert.equal((await call('/api/oauth/github?code=code-1')).status, 403)
        const forged = await c.call('GET', `/api/oauth/github?code=code-1&state=${state}`, undefined, {
          cookie: `tollgate_oauth_state=${state}.9999999999.AAAA`,
        })
        assert.equal(forged.status, 403)
        assert.equal(github.seen.filter((x) => x.body.includes('"code-1"')).length, 0, 'GitHub is not asked without a matching state')
        const fresh = await startState(c)
        const done = await fresh.call(`/api/oauth/github?code=code-1&state=${fresh.state}`)
        assert.equal(done.body.success, true)
        assert.match(done.headers.get('set-cookie') ?? '', /tollgate_oauth_state=;[^,]*Max-Age=0/i, 'the state cookie is dropped once used')
      })

      it('takes a state once, and only in the session that asked for it (no replay, no planted state)', async () => {
        const ask = async () => {
          const r = await new Client(s).get('/api/oauth/state')
          return { state: r.body.data as string, cookie: r.headers.get('set-cookie')!.split(';')[0]! }
        }
        const st = await ask()
        const use = (c: Client, cookie: string, code: string) =>
          c.call('GET', `/api/oauth/github?code=${code}&state=${st.state}`, undefined, { cookie })
        assert.equal((await use(new Client(s), st.cookie, 'code-7001')).body.success, true)
        assert.equal((await use(new Client(s), st.cookie, 'code-7001')).status, 403, 'the same state and cookie again')
        // a state made signed out (its cookie planted into a signed-in victim's browser) binds nothing
        const planted = await ask()
        const victim = await s.user()
        const r = await victim.call('GET', `/api/oauth/github?code=code-7002&state=${planted.state}`, undefined, {
          cookie: `${victim.cookie}; ${planted.cookie}`,
        })
        assert.equal(r.status, 403)
        assert.equal((await victim.get('/api/user/self')).body.data.github_id, '')
      })

      it('binds to the signed-in user and answers message bind', async () => {
        const u = await s.user()
        const { state, call } = await startState(u)
        const r = await call(`/api/oauth/github?code=code-5151&state=${state}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.equal(r.body.message, 'bind')
        assert.equal((await u.get('/api/user/self')).body.data.github_id, '5151')

        const other = await s.user()
        const st = await startState(other)
        const taken = await st.call(`/api/oauth/github?code=code-5151&state=${st.state}`)
        assert.equal(taken.body.success, false)
        assert.match(taken.body.message, /already bound to another user/)
        assert.equal((await other.get('/api/user/self')).body.data.github_id, '')
      })

      it('refuses a banned user', async () => {
        const u = await s.user()
        await s.ctx.db.updateTable('users').set({ github_id: '6060', status: 2 }).where('id', '=', u.id).execute()
        const c = new Client(s)
        const { state, call } = await startState(c)
        const r = await call(`/api/oauth/github?code=code-6060&state=${state}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /banned/)
        assert.equal(c.cookie, '')
      })

      it('creates nobody while registration is closed', async () => {
        await s.ctx.options.set('RegisterEnabled', 'false')
        try {
          const c = new Client(s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-9090&state=${state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /registrations are closed/)
          assert.equal((await userBy('github_id', '9090')).length, 0)
        } finally {
          await s.ctx.options.set('RegisterEnabled', 'true')
        }
      })

      it("passes on GitHub's refusal, and says so when GitHub cannot be reached", async () => {
        const c = new Client(s)
        let st = await startState(c)
        const bad = await st.call(`/api/oauth/github?code=nonsense&state=${st.state}`)
        assert.equal(bad.body.success, false)
        assert.match(bad.body.message, /GitHub refused the sign-in: The code passed is incorrect/)

        await s.ctx.options.set('GitHubClientSecret', 'other')
        try {
          st = await startState(c)
          const r = await st.call(`/api/oauth/github?code=code-1&state=${st.state}`)
          assert.match(r.body.message, /incorrect_client_credentials/)
        } finally {
          await s.ctx.options.set('GitHubClientSecret', 'gh-secret')
        }

        process.env.GITHUB_OAUTH_URL = 'http://127.0.0.1:1'
        try {
          st = await startState(c)
          const r = await st.call(`/api/oauth/github?code=code-1&state=${st.state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /could not reach GitHub/)
        } finally {
          process.env.GITHUB_OAUTH_URL = github.base
        }
        st = await startState(c)
        assertRefused(await st.call(`/api/oauth/github?state=${st.state}`))
      })

      it('is refused while GitHub sign-in is off', async () => {
        await s.ctx.options.set('GitHubOAuthEnabled', 'false')
        try {
          const c = new Client(s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-3131&state=${state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /not enabled sign-in with GitHub/)
          assert.equal((await userBy('github_id', '3131')).length, 0)
        } finally {
          await s.ctx.options.set('GitHubOAuthEnabled', 'true')
        }
      })
    })

    describe('WeChat', () => {
      it('signs in, registering wechat_<n> first, with the token sent to the WeChat server', async () => {
        const c = new Client(s)
        const r = await c.get('/api/oauth/wechat?code=wx-openid-1')
        assert.equal(r.body.success, true, r.body.message)
        assert.match(r.body.data.username, /^wechat_\d+$/)
        assert.equal(r.body.data.wechat_id, 'openid-1')
        assert.equal((await c.get('/api/user/self')).body.data.id, r.body.data.id)
        assert.equal(wechat.seen.at(-1)!.headers.authorization, 'wx-token')
        const again = await new Client(s).get('/api/oauth/wechat?code=wx-openid-1')
        assert.equal(again.body.data.id, r.body.data.id)
      })

      it("passes on the WeChat server's refusal and needs a code", async () => {
        const r = await new Client(s).get('/api/oauth/wechat?code=123456')
        assert.equal(r.body.success, false)
        assert.equal(r.body.message, 'invalid verification code')
        assertRefused(await s.anon.get('/api/oauth/wechat'))
        await s.ctx.options.set('WeChatServerToken', 'wrong')
        try {
          assert.equal((await new Client(s).get('/api/oauth/wechat?code=wx-x')).body.message, 'unauthorised')
        } finally {
          await s.ctx.options.set('WeChatServerToken', 'wx-token')
        }
      })

      it('binds for a signed-in user only, and not an account another user holds', async () => {
        assert.equal((await s.anon.get('/api/oauth/wechat/bind?code=wx-openid-2')).status, 401)
        const u = await s.user()
        const r = await u.get('/api/oauth/wechat/bind?code=wx-openid-2')
        assert.equal(r.body.success, true, r.body.message)
        assert.equal((await u.get('/api/user/self')).body.data.wechat_id, 'openid-2')
        const other = await s.user()
        const taken = await other.get('/api/oauth/wechat/bind?code=wx-openid-2')
        assert.equal(taken.body.success, false)
        assert.match(taken.body.message, /already bound/)
      })

      it('is refused while WeChat sign-in is off', async () => {
        await s.ctx.options.set('WeChatAuthEnabled', 'false')
        try {
          assert.match((await new Client(s).get('/api/oauth/wechat?code=wx-off')).body.message, /not enabled sign-in with WeChat/)
          const u = await s.user()
          assert.equal((await u.get('/api/oauth/wechat/bind?code=wx-off')).body.success, false)
          assert.equal((await userBy('wechat_id', 'off')).length, 0)
        } finally {
          await s.ctx.options.set('WeChatAuthEnabled', 'true')
        }
      })
    })

    describe('Telegram', () => {
      const widget = (id: string, extra: Record<string, string> = {}) => ({
        id,
        first_name: 'Tele',
        last_name: 'Gram',
        username: `tg${id}`,
        photo_url: 'https://t.me/i/userpic/320/x.jpg',
        auth_date: String(now()),
        ...extra,
      })

      it('signs in with a good widget hash, registering telegram_<n> first', async () => {
        const c = new Client(s)
        const r = await c.get(`/api/oauth/telegram/login?${telegramQuery(widget('9001'))}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.match(r.body.data.username, /^telegram_\d+$/)
        assert.equal(r.body.data.telegram_id, '9001')
        assert.equal(r.body.data.display_name, 'Tele Gram')
        assert.equal((await c.get('/api/user/self')).body.data.id, r.body.data.id)
        // Telegram signs only the fields it has; a page that sends the missing ones empty still passes
        const { last_name: _none, ...noLastName } = widget('9001')
        const again = await new Client(s).get(`/api/oauth/telegram/login?${telegramQuery(noLastName)}&last_name=`)
        assert.equal(again.body.success, true, again.body.message)
        assert.equal(again.body.data.id, r.body.data.id)
      })

      it('refuses a bad hash, another bot, a changed field, and a login older than five minutes', async () => {
        const tampered = new URLSearchParams(telegramQuery(widget('9002')))
        tampered.set('id', '1')
        const cases = [
          telegramQuery(widget('9002')).replace(/hash=[0-9a-f]+/, `hash=${'0'.repeat(64)}`),
          telegramQuery(widget('9002'), '999:other-bot'),
          tampered.toString(),
          telegramQuery(widget('9002', { auth_date: String(now() - 86400 - 60) })),
        ]
        for (const q of cases) {
          const c = new Client(s)
          const r = await c.get(`/api/oauth/telegram/login?${q}`)
          assert.equal(r.body.success, false, q)
          assert.equal(c.cookie, '')
        }
        const old = await s.anon.get(
          `/api/oauth/telegram/login?${telegramQuery(widget('9002', { auth_date: String(now() - 86400 - 60) }))}`,
        )
        assert.match(old.body.message, /expired/)
        assert.equal((await userBy('telegram_id', '9002')).length, 0)
        assert.equal((await userBy('telegram_id', '1')).length, 0)
      })

      /** The state the settings page asks for before showing the widget; the widget's answer comes back with it. */
      const bindState = async (c: Client) => {
        const r = await c.get('/api/oauth/telegram/state')
        assert.equal(r.body.success, true, r.body.message)
        return `state=${encodeURIComponent(r.body.data)}`
      }

      it('binds through the widget auth URL with the state the settings page started, and goes back to /setting', async () => {
        assert.equal((await s.anon.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9003'))}`)).status, 401)
        const u = await s.user()
        const r = await u.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9003'))}&${await bindState(u)}`)
        assert.equal(r.status, 302)
        assert.equal(r.headers.get('location'), '/setting')
        assert.equal((await u.get('/api/user/self')).body.data.telegram_id, '9003')
        const other = await s.user()
        const taken = await other.get(
          `/api/oauth/telegram/bind?${telegramQuery(widget('9003', { auth_date: String(now() - 1) }))}&${await bindState(other)}`,
        )
        assert.equal(taken.body.success, false)
        const forged = await other.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9004'), 'x:y')}&${await bindState(other)}`)
        assert.equal(forged.body.success, false)
        assert.equal((await other.get('/api/user/self')).body.data.telegram_id, '')
      })

      it("refuses a bind (issue 10 attack 2) without a state, with another user's state, or with a used state", async () => {
        const attacker = await s.user()
        const victim = await s.user()
        const attackerState = await bindState(attacker)
        const tries = [
          `/api/oauth/telegram/bind?${telegramQuery(widget('9010'))}`,
          `/api/oauth/telegram/bind?${telegramQuery(widget('9011'))}&${attackerState}`,
        ]
        for (const path of tries) assertRefused(await victim.get(path), path)
        const own = await bindState(victim)
        const first = await victim.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9012'))}&${own}`)
        assert.equal(first.status, 302)
        await s.ctx.db.updateTable('users').set({ telegram_id: '' }).where('id', '=', victim.id).execute()
        assertRefused(await victim.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9013'))}&${own}`), 'a used state')
        assert.equal((await victim.get('/api/user/self')).body.data.telegram_id, '')
      })

      it('accepts a widget answer once, and refuses one older than five minutes (no replay)', async () => {
        const q = telegramQuery(widget('9020'))
        assert.equal((await new Client(s).get(`/api/oauth/telegram/login?${q}`)).body.success, true)
        const replay = await new Client(s).get(`/api/oauth/telegram/login?${q}`)
        assertRefused(replay, 'a replayed answer')
        assert.match(replay.body.message, /already used/)
        const stale = await new Client(s).get(
          `/api/oauth/telegram/login?${telegramQuery(widget('9020', { auth_date: String(now() - 6 * 60) }))}`,
        )
        assert.match(stale.body.message, /expired/)
      })

      it('refuses a banned user and is refused while Telegram sign-in is off', async () => {
        const u = await s.user()
        await s.ctx.db.updateTable('users').set({ telegram_id: '9005', status: 2 }).where('id', '=', u.id).execute()
        assert.match((await new Client(s).get(`/api/oauth/telegram/login?${telegramQuery(widget('9005'))}`)).body.message, /banned/)
        await s.ctx.options.set('TelegramOAuthEnabled', 'false')
        try {
          const r = await new Client(s).get(`/api/oauth/telegram/login?${telegramQuery(widget('9006'))}`)
          assert.match(r.body.message, /not enabled sign-in with Telegram/)
          assert.equal((await userBy('telegram_id', '9006')).length, 0)
        } finally {
          await s.ctx.options.set('TelegramOAuthEnabled', 'true')
        }
      })
    })
  })
}

describe('oauth calls are rate limited as critical', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite', { criticalRateLimit: 2, criticalRateWindowSeconds: 600 })
  })
  after(() => s.close())

  it('answers 429 after the critical limit', async () => {
    await s.anon.get('/api/oauth/state')
    await s.anon.get('/api/oauth/wechat?code=x')
    assert.equal((await s.anon.get('/api/oauth/telegram/login?id=1')).status, 429)
    assert.equal((await s.anon.get('/api/oauth/state')).status, 429)
  })
})
