/**
 * The embed credential of the session contract (issues 10 and 11): `tgs_<id>.<secret>`, issued
 * to a sign-in from an allowed other origin, usable only from that origin, revocable, expiring.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Client, dialects, startServer, assertRefused, type TestServer } from './helpers.ts'
import { EMBED_IDLE_SECONDS } from '../../server/middleware/session.ts'

const SHOP = 'https://shop.example'

for (const dialect of dialects) {
  describe(`embed credential (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect, { corsOrigins: ['https://env.example'] })
      await s.ctx.options.set('EmbedOrigins', `${SHOP}\nhttp://127.0.0.1:4321`)
    })
    after(() => s.close())

    /** Signs a new user in from `origin` as the embedded login element does (no cookies). */
    async function embedSignIn(origin = SHOP) {
      const u = await s.user()
      const c = new Client(s)
      c.console = false
      const r = await c.call('POST', '/api/user/login', { username: u.username, password: 'password123' }, { origin })
      return { u, c, r }
    }
    /** A call from the host page: the bearer and the page's Origin. */
    const fromPage = (c: Client, token: string, path: string, origin: string | null = SHOP, method = 'GET') => {
      c.bearer = token
      return c.call(method, path, undefined, origin ? { origin } : {})
    }

    it('issues tgs_<id>.<secret> to a sign-in from an allowed origin, with no cookie and no access token', async () => {
      const { u, r } = await embedSignIn()
      assert.equal(r.body.success, true, r.body.message)
      const { token, expires_at } = r.body.data.session
      assert.match(token, /^tgs_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/)
      const now = Math.floor(Date.now() / 1000)
      assert.ok(Math.abs(expires_at - (now + EMBED_IDLE_SECONDS)) < 5, String(expires_at))
      assert.equal(r.headers.get('set-cookie'), null)
      assert.equal(r.body.data.id, u.id)
      assert.equal('access_token' in r.body.data, false)
      const row = await s.ctx.db.selectFrom('sessions').selectAll().where('id', '=', token.slice(4, 36)).executeTakeFirstOrThrow()
      assert.deepEqual([row.kind, row.origin, row.user_id], ['embed', SHOP, u.id])
      const fromEnv = await embedSignIn('https://env.example')
      assert.match(fromEnv.r.body.data.session.token, /^tgs_/, 'CORS_ORIGINS counts too')
    })

    it('works only from its own origin: another Origin, none, or a removed origin get 401', async () => {
      const { u, c, r } = await embedSignIn('http://127.0.0.1:4321')
      const token = r.body.data.session.token
      const self = await fromPage(c, token, '/api/user/self', 'http://127.0.0.1:4321')
      assert.equal(self.body.data.id, u.id)
      assert.equal((await fromPage(c, token, '/api/user/self', SHOP)).status, 401, 'another allowed origin')
      assert.equal((await fromPage(c, token, '/api/user/self', 'https://evil.example')).status, 401)
      assert.equal((await fromPage(c, token, '/api/user/self', null)).status, 401, 'no Origin')
      assert.equal((await fromPage(c, `${token}x`, '/api/user/self', 'http://127.0.0.1:4321')).status, 401, 'a wrong secret')
      await s.ctx.options.set('EmbedOrigins', SHOP)
      try {
        assert.equal((await fromPage(c, token, '/api/user/self', 'http://127.0.0.1:4321')).status, 401, 'no longer allowed')
      } finally {
        await s.ctx.options.set('EmbedOrigins', `${SHOP}\nhttp://127.0.0.1:4321`)
      }
    })

    it('ends at logout: the old credential gets 401 at once', async () => {
      const { c, r } = await embedSignIn()
      const token = r.body.data.session.token
      assert.equal((await fromPage(c, token, '/api/user/self')).status, 200)
      assert.equal((await fromPage(c, token, '/api/user/logout')).body.success, true)
      assert.equal((await fromPage(c, token, '/api/user/self')).status, 401)
    })

    it("ends with the user's password change, and after 7 days without use", async () => {
      const a = await embedSignIn()
      const b = await embedSignIn()
      await s.ctx.db
        .updateTable('sessions')
        .set({ last_seen_at: Math.floor(Date.now() / 1000) - EMBED_IDLE_SECONDS - 1 })
        .where('user_id', '=', b.u.id)
        .execute()
      assert.equal((await fromPage(b.c, b.r.body.data.session.token, '/api/user/self')).status, 401, 'idle for 7 days')
      assert.equal((await a.u.put('/api/user/self', { password: 'another-pass1' })).body.success, true)
      assert.equal((await fromPage(a.c, a.r.body.data.session.token, '/api/user/self')).status, 401, 'password changed elsewhere')
    })

    it('is not CSRF-checked (a bearer), and is not a cookie: a write from its origin passes', async () => {
      const { c, r } = await embedSignIn()
      c.bearer = r.body.data.session.token
      const put = await c.call('PUT', '/api/user/self', { display_name: 'from shop' }, { origin: SHOP, 'sec-fetch-site': 'cross-site' })
      assert.equal(put.body.success, true, put.body.message)
    })

    it('refuses a sign-in from a site not on the list, with the message and a log line naming it', async () => {
      const lines: string[] = []
      const warn = console.warn
      console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
      try {
        const { u, r } = await embedSignIn('https://stranger.example')
        assertRefused(r)
        assert.equal(
          r.body.message,
          "This site is not allowed to sign in to this gateway. Ask the gateway's administrator to add it to the allowed sites.",
        )
        assert.equal(r.headers.get('set-cookie'), null)
        const sessions = await s.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute()
        assert.equal(sessions.length, 1, 'only the test helper own sign-in')
      } finally {
        console.warn = warn
      }
      assert.ok(
        lines.some((l) => l.includes('https://stranger.example')),
        lines.join('\n'),
      )
      const zh = await new Client(s).call(
        'POST',
        '/api/user/login',
        { username: 'root', password: '123456' },
        {
          origin: 'https://stranger.example',
          'accept-language': 'zh-CN',
        },
      )
      assert.match(zh.body.message, /不允许/)
    })

    it('keeps the same-origin console on the cookie', async () => {
      const c = new Client(s)
      const r = await c.call('POST', '/api/user/login', { username: 'root', password: '123456' }, { origin: 'http://localhost' })
      assert.equal(r.body.data.session, undefined)
      assert.match(r.headers.get('set-cookie') ?? '', /tollgate_session=/)
    })
  })
}
