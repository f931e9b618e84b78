import { after, before, describe, it, mock } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dialects, startServer, Client, type TestServer } from './helpers.ts'
import { TURNSTILE_PASS_SECONDS } from '../../server/middleware/turnstile.ts'
import { say } from '../../server/i18n/index.ts'

const TURNSTILE_MISSING = say('en', 'turnstile.missing')
const TURNSTILE_FAILED = say('en', 'turnstile.failed')
const TURNSTILE_UNREACHABLE = say('en', 'turnstile.unreachable')

/** A fake Cloudflare siteverify on loopback: 'good-token' passes, 'down' answers 500. */
async function startSiteverify() {
  const calls: Array<Record<string, string>> = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body))
      calls.push(form)
      if (form.response === 'down') {
        res.writeHead(500).end('oops')
        return
      }
      const success = form.secret === 'ts-secret' && form.response === 'good-token'
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function passCookie(headers: Headers): string {
  const m = /tollgate_turnstile=([^;]+)/.exec(headers.get('set-cookie') ?? '')
  assert.ok(m, 'no turnstile pass cookie')
  return `tollgate_turnstile=${m[1]}`
}

for (const dialect of dialects) {
  describe(`turnstile bot check (${dialect})`, () => {
    let s: TestServer
    let fake: Awaited<ReturnType<typeof startSiteverify>>
    let username = ''
    const login = () => ({ username, password: 'password123' })

    before(async () => {
      fake = await startSiteverify()
      process.env.TURNSTILE_VERIFY_URL = fake.url
      s = await startServer(dialect)
      username = (await s.user()).username
      await s.ctx.options.set('TurnstileSecretKey', 'ts-secret')
      await s.ctx.options.set('TurnstileCheckEnabled', 'true')
    })
    after(async () => {
      delete process.env.TURNSTILE_VERIFY_URL
      await s.close()
      await fake.close()
    })

    it('asks nothing while the check is off', async () => {
      await s.ctx.options.set('TurnstileCheckEnabled', 'false')
      try {
        const before = fake.calls.length
        assert.equal((await new Client(s).post('/api/user/login', login())).body.success, true)
        assert.equal(fake.calls.length, before)
      } finally {
        await s.ctx.options.set('TurnstileCheckEnabled', 'true')
      }
    })

    it('refuses register, login, verification and reset without a token', async () => {
      const calls: Array<[string, string, unknown?]> = [
        ['POST', '/api/user/register', { username: 'tsnew', password: 'password123' }],
        ['POST', '/api/user/login', login()],
        ['GET', '/api/verification?email=ts@example.com'],
        ['GET', '/api/reset_password?email=ts@example.com'],
      ]
      for (const [method, path, body] of calls) {
        const r = await new Client(s).call(method, path, body)
        assert.equal(r.status, 200, path)
        assert.equal(r.body.success, false, path)
        assert.equal(r.body.message, TURNSTILE_MISSING, path)
      }
      assert.equal(await s.ctx.db.selectFrom('users').select('id').where('username', '=', 'tsnew').executeTakeFirst(), undefined)
    })

    it('refuses a token Cloudflare rejects, and says so when Cloudflare is unreachable', async () => {
      const bad = await new Client(s).post('/api/user/login?turnstile=forged', login())
      assert.equal(bad.body.success, false)
      assert.equal(bad.body.message, TURNSTILE_FAILED)
      assert.equal(bad.headers.get('set-cookie'), null)
      const last = fake.calls.at(-1)!
      assert.deepEqual([last.secret, last.response], ['ts-secret', 'forged'])

      const down = await new Client(s).post('/api/user/login?turnstile=down', login())
      assert.equal(down.body.message, TURNSTILE_UNREACHABLE)

      const saved = process.env.TURNSTILE_VERIFY_URL
      process.env.TURNSTILE_VERIFY_URL = 'http://127.0.0.1:1/nothing-here'
      try {
        const r = await new Client(s).post('/api/user/login?turnstile=good-token', login())
        assert.equal(r.body.message, TURNSTILE_UNREACHABLE)
      } finally {
        process.env.TURNSTILE_VERIFY_URL = saved
      }
    })

    it('lets a verified client through and remembers the pass in a signed cookie', async () => {
      const c = new Client(s)
      const first = await c.post('/api/user/login?turnstile=good-token', login())
      assert.equal(first.body.success, true, first.body.message)
      const cookie = passCookie(first.headers)
      assert.match(first.headers.get('set-cookie') ?? '', /tollgate_turnstile=[^,]*HttpOnly/i)

      const before = fake.calls.length
      const reg = await new Client(s).call('POST', '/api/user/register', { username: 'tsok', password: 'password123' }, { cookie })
      assert.equal(reg.body.success, true, reg.body.message)
      assert.equal(fake.calls.length, before, 'a remembered pass is not verified again')

      const tampered = cookie.replace(/=(\d+)/, (_m, n: string) => `=${Number(n) + 99999}`)
      const r = await new Client(s).call('POST', '/api/user/login', login(), { cookie: tampered })
      assert.equal(r.body.message, TURNSTILE_MISSING)
    })

    it('asks again once the pass has run out', async () => {
      const first = await new Client(s).post('/api/user/login?turnstile=good-token', login())
      const cookie = passCookie(first.headers)
      mock.timers.enable({ apis: ['Date'], now: Date.now() + (TURNSTILE_PASS_SECONDS + 60) * 1000 })
      try {
        const r = await new Client(s).call('POST', '/api/user/login', login(), { cookie })
        assert.equal(r.body.message, TURNSTILE_MISSING)
      } finally {
        mock.timers.reset()
      }
    })
  })
}
