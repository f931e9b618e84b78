import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNT_FREE_FAILURES, ADDRESS_MAX_FAILURES } from '../../server/lib/login-guard.ts'
import { dialects, startServer, Client, type TestServer, assertRefused } from './helpers.ts'
import { DEFAULT_OPTIONS } from '../../server/options.ts'

for (const dialect of dialects) {
  describe(`accounts (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
    })
    after(() => s.close())

    it('creates root with the default password and every default option', async () => {
      const root = await s.root()
      const me = await root.get('/api/user/self')
      assert.equal(me.body.data.username, 'root')
      assert.equal(me.body.data.role, 100)
      assert.equal(me.body.data.password, undefined)
      const rows = await s.ctx.db.selectFrom('options').select(['key', 'value']).execute()
      const keys = new Set(rows.map((r) => r.key))
      for (const k of Object.keys(DEFAULT_OPTIONS)) assert.ok(keys.has(k), `option ${k} missing`)
    })

    it('answers the public status from the options', async () => {
      const r = await s.anon.get('/api/status')
      assert.equal(r.status, 200)
      assert.equal(r.body.success, true)
      for (const f of [
        'system_name',
        'logo',
        'footer_html',
        'quota_per_unit',
        'display_in_currency',
        'enable_drawing',
        'enable_data_export',
        'data_export_default_time',
        'default_collapse_sidebar',
        'mj_notify_enabled',
        'chat_link',
        'chat_link2',
        'email_verification',
        'turnstile_check',
        'turnstile_site_key',
        'github_oauth',
        'github_client_id',
        'wechat_login',
        'wechat_qrcode',
        'telegram_oauth',
        'telegram_bot_name',
        'server_address',
        'top_up_link',
        'min_topup',
        'enable_online_topup',
      ]) {
        assert.ok(f in r.body.data, `status lacks ${f}`)
      }
      assert.equal(r.body.data.quota_per_unit, 500000)
      await s.ctx.options.set('SystemName', 'My Gate')
      assert.equal((await s.anon.get('/api/status')).body.data.system_name, 'My Gate')
    })

    it('registers, signs in with a cookie, and signs out', async () => {
      const c = new Client(s)
      const reg = await c.post('/api/user/register', { username: 'alice', password: 'alicepass1', password2: 'alicepass1' })
      assert.deepEqual([reg.status, reg.body.success], [200, true])
      const login = await c.post('/api/user/login', { username: 'alice', password: 'alicepass1' })
      assert.equal(login.body.success, true)
      assert.equal(login.body.data.username, 'alice')
      assert.match(login.headers.get('set-cookie') ?? '', /HttpOnly/i)
      assert.match(login.headers.get('set-cookie') ?? '', /SameSite=Lax/i)
      assert.equal((await c.get('/api/user/self')).body.data.username, 'alice')
      await c.get('/api/user/logout')
      assert.equal((await c.get('/api/user/self')).status, 401)
    })

    it('refuses a wrong password with a message and no session', async () => {
      const c = new Client(s)
      const r = await c.post('/api/user/login', { username: 'root', password: 'wrong-password' })
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /wrong username or password/)
      assert.equal(c.cookie, '')
    })

    it('is 401 without a session, refuses a malformed body naming the field, 400 for one that is not JSON', async () => {
      assert.equal((await s.anon.get('/api/user/self')).status, 401)
      const bad = await s.anon.post('/api/user/register', { username: 'bob', password: 123 })
      assertRefused(bad)
      assert.match(bad.body.message, /password/)
      const short = await s.anon.post('/api/user/register', { username: 'bob', password: 'short' })
      assertRefused(short)
      assert.match(short.body.message, /password must be at least 8/)
      const broken = await s.anon.call('POST', '/api/user/login', '{not json')
      assert.equal(broken.status, 400)
      assert.equal(await s.ctx.db.selectFrom('users').select('id').where('username', '=', 'bob').executeTakeFirst(), undefined)
    })

    it('refuses a taken username and mismatched passwords', async () => {
      assert.match((await s.anon.post('/api/user/register', { username: 'root', password: 'whatever1' })).body.message, /taken/)
      assert.match(
        (await s.anon.post('/api/user/register', { username: 'carol', password: 'carolpass1', password2: 'other-pass' })).body.message,
        /the two passwords differ/,
      )
    })

    it('honours RegisterEnabled, PasswordRegisterEnabled and QuotaForNewUser', async () => {
      await s.ctx.options.set('RegisterEnabled', 'false')
      assert.equal((await s.anon.post('/api/user/register', { username: 'dave', password: 'davepass1' })).body.success, false)
      await s.ctx.options.set('RegisterEnabled', 'true')
      await s.ctx.options.set('PasswordRegisterEnabled', 'false')
      assert.equal((await s.anon.post('/api/user/register', { username: 'dave', password: 'davepass1' })).body.success, false)
      await s.ctx.options.set('PasswordRegisterEnabled', 'true')
      await s.ctx.options.set('QuotaForNewUser', '1234')
      assert.equal((await s.anon.post('/api/user/register', { username: 'dave', password: 'davepass1' })).body.success, true)
      const dave = await s.ctx.db.selectFrom('users').selectAll().where('username', '=', 'dave').executeTakeFirstOrThrow()
      assert.equal(dave.quota, 1234)
      await s.ctx.options.set('QuotaForNewUser', '0')
    })

    it('credits inviter and invitee through the aff code', async () => {
      await s.ctx.options.set('QuotaForInviter', '700')
      await s.ctx.options.set('QuotaForInvitee', '300')
      const inviter = await s.user()
      const code = (await inviter.get('/api/user/aff')).body.data as string
      assert.ok(code.length >= 4)
      assert.equal((await inviter.get('/api/user/aff')).body.data, code, 'the aff code is stable')
      const r = await s.anon.post('/api/user/register', { username: 'erin', password: 'erinpass1', aff_code: code })
      assert.equal(r.body.success, true)
      const erin = await s.ctx.db.selectFrom('users').selectAll().where('username', '=', 'erin').executeTakeFirstOrThrow()
      assert.equal(erin.quota, 300)
      assert.equal(erin.inviter_id, inviter.id)
      const me = (await inviter.get('/api/user/self')).body.data
      assert.equal(me.aff_count, 1)
      assert.equal(me.aff_quota, 700)
      assert.equal(me.aff_history_quota, 700)
    })

    it('resolves the access token as Bearer to the same user', async () => {
      const u = await s.user()
      const token = (await u.get('/api/user/token')).body.data as string
      assert.ok(token.length >= 32)
      const t = new Client(s)
      t.bearer = token
      const me = await t.get('/api/user/self')
      assert.equal(me.body.data.id, u.id)
      t.bearer = 'not-a-token'
      assert.equal((await t.get('/api/user/self')).status, 401)
    })

    it('changes the password and deletes the account (not root)', async () => {
      const u = await s.user()
      assert.equal((await u.put('/api/user/self', { password: 'brand-new-pass' })).body.success, true)
      const again = new Client(s)
      assert.equal((await again.post('/api/user/login', { username: u.username, password: 'brand-new-pass' })).body.success, true)
      assert.equal((await u.del('/api/user/self')).body.success, true)
      assert.equal((await again.get('/api/user/self')).status, 401)
      assert.equal((await again.post('/api/user/login', { username: u.username, password: 'brand-new-pass' })).body.success, false)
      const root = await s.root()
      assert.equal((await root.del('/api/user/self')).body.success, false)
    })

    it('limits password guessing per account (429 with a wait) and lets a right password from that address through elsewhere', async () => {
      const victim = await s.user()
      const bystander = await s.user()
      const codes = []
      for (let i = 0; i < ACCOUNT_FREE_FAILURES + 1; i++) {
        codes.push((await new Client(s).post('/api/user/login', { username: victim.username, password: `guess-${i}` })).status)
      }
      assert.deepEqual(codes, [...Array(ACCOUNT_FREE_FAILURES).fill(200), 429])
      const locked = await new Client(s).post('/api/user/login', { username: victim.username, password: 'password123' })
      assert.equal(locked.status, 429, 'even the right password waits out the backoff')
      assert.match(locked.body.message, /try again in \d+ seconds/)
      const other = await new Client(s).post('/api/user/login', { username: bystander.username, password: 'password123' })
      assert.equal(other.body.success, true, 'the same address, another account: not refused')
    })

    it('caps failed sign-ins per address, loosely', async () => {
      const capped = await startServer(dialect)
      try {
        for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) {
          const r = await capped.anon.post('/api/user/login', { username: `nobody${i}`, password: 'x' })
          assert.equal(r.status, 200, `failure ${i}`)
        }
        assert.equal((await capped.anon.post('/api/user/login', { username: 'nobody-else', password: 'x' })).status, 429)
      } finally {
        await capped.close()
      }
    })

    it('lists the models of the user group from enabled abilities', async () => {
      const u = await s.user()
      await s.ctx.db
        .insertInto('abilities')
        .values([
          { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: 1, priority: 0, weight: 0 },
          { group: 'default', model: 'off-model', channel_id: 1, enabled: 0, priority: 0, weight: 0 },
          { group: 'vip', model: 'vip-model', channel_id: 1, enabled: 1, priority: 0, weight: 0 },
        ])
        .execute()
      assert.deepEqual((await u.get('/api/user/models')).body.data, ['gpt-4o'])
    })
  })
}

describe('unknown calls', () => {
  it('answer a JSON 404, not the console page', async () => {
    const s = await startServer('sqlite')
    try {
      const r = await s.anon.get('/api/no/such/call')
      assert.equal(r.status, 404)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /no such call/)
    } finally {
      await s.close()
    }
  })
})

describe('request ids', () => {
  it('every answer carries a distinct X-Request-Id, or the caller’s own', async () => {
    const s = await startServer('sqlite')
    try {
      const a = await s.anon.get('/api/status')
      const b = await s.anon.get('/api/status')
      assert.ok(a.headers.get('x-request-id'))
      assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'))
      const own = await s.anon.call('GET', '/api/status', undefined, { 'x-request-id': 'trace-123' })
      assert.equal(own.headers.get('x-request-id'), 'trace-123')
    } finally {
      await s.close()
    }
  })
})
