/**
 * What the family's clients need from the account side of the console API (issue 13): messages in
 * the caller's language from every route file, null read as absent for every optional field, the
 * New-API-User header, the family's option keys, paging from the call's own parameter, and log
 * details stored as data.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dialects, Client, type TestServer, assertRefused, rootServer } from './helpers.ts'
import { isMessageKey } from '../../server/i18n/index.ts'
import { readLogDetail } from '../../domain/log-detail.ts'

const zh = { 'accept-language': 'zh-CN' }
const ROUTE_FILES = ['account', 'users', 'oauth', 'mail', 'topup', 'options', 'redemptions', 'status', 'pricing']

describe('the account routes write catalogue keys only', () => {
  it('passes no literal sentence as a message', () => {
    for (const name of ROUTE_FILES) {
      const source = readFileSync(new URL(`../../server/routes/${name}.ts`, import.meta.url), 'utf8')
      for (const line of source.split('\n').filter((l) => /\b(?:refuse|fail|ok|walletError|words|ApiError)\(/.test(l))) {
        for (const [, literal] of line.matchAll(/'([^']*)'/g)) {
          assert.ok(!literal!.includes(' '), `routes/${name}.ts passes a sentence: '${literal}'`)
          if (literal!.includes('.')) assert.ok(isMessageKey(literal!), `routes/${name}.ts passes '${literal}', not a catalogue key`)
        }
      }
    }
  })
})

for (const dialect of dialects) {
  describe(`the family's wire on the account side (${dialect})`, () => {
    let s: TestServer
    let root: Client
    rootServer(dialect, (server, client) => ([s, root] = [server, client]))

    it('answers in Chinese when asked, from every route file that writes a message', async () => {
      const u = await s.user()
      const said = async (c: Client, method: string, path: string, body?: unknown) => (await c.call(method, path, body, zh)).body
      // account
      const login = await said(s.anon, 'POST', '/api/user/login', { username: 'root', password: 'wrong-password' })
      assert.equal(login.message, '用户名或密码错误，或用户已被封禁')
      // users
      assert.equal((await said(root, 'GET', '/api/user/999999')).message, '用户不存在')
      // oauth
      assert.equal((await said(s.anon, 'GET', '/api/oauth/wechat?code=x')).message, '管理员未开启微信登录')
      // mail
      assert.equal((await said(s.anon, 'GET', '/api/reset_password?email=nobody@example.com')).message, '没有账号使用该邮箱地址')
      // topup: the family's wallet envelope carries the reason in data
      assert.deepEqual(await said(u, 'POST', '/api/user/pay', { amount: 5, payment_method: 'zfb' }), {
        success: false,
        message: 'error',
        data: '管理员未开启在线充值',
      })
      // options
      assert.equal((await said(root, 'PUT', '/api/option/', { key: 'NoSuchKey', value: '1' })).message, 'NoSuchKey 不是已知的配置项')
      assert.equal((await said(root, 'PUT', '/api/option/', { key: 'Notice', value: 'hi' })).message, '已保存')
      // redemptions
      assert.equal((await said(u, 'POST', '/api/user/topup', { key: 'no-such-code' })).message, '无效的兑换码')
      // status and pricing answer data only: no message to translate
      assert.equal((await said(s.anon, 'GET', '/api/status')).message, '')
      assert.equal((await said(s.anon, 'GET', '/api/pricing')).message, '')
    })

    it('reads null as absent for every optional field of the account write calls', async () => {
      const reg = await s.anon.post('/api/user/register', {
        username: 'nully',
        password: 'nullypass1',
        password2: null,
        email: null,
        verification_code: null,
        aff_code: null,
      })
      assert.equal(reg.body.success, true, reg.body.message)
      const me = new Client(s)
      assert.equal((await me.post('/api/user/login', { username: 'nully', password: 'nullypass1' })).body.success, true)
      const self = await me.put('/api/user/self', { username: null, display_name: null, password: null })
      assert.equal(self.body.success, true, self.body.message)
      assert.equal(self.body.data.username, 'nully')

      const created = await root.post('/api/user/', { username: 'nully2', password: 'nully2pass', display_name: null, role: null })
      assert.equal(created.body.success, true, created.body.message)
      assert.deepEqual([created.body.data.display_name, created.body.data.role], ['nully2', 1])
      const id = created.body.data.id
      const edit = await root.put('/api/user/', { id, username: null, display_name: null, password: null, quota: null, group: null })
      assert.equal(edit.body.success, true, edit.body.message)
      assert.deepEqual([edit.body.data.username, edit.body.data.quota, edit.body.data.group], ['nully2', 0, 'default'])
      assert.equal((await root.post('/api/user/manage', { id, username: null, action: 'disable' })).body.success, true)
      assert.equal((await root.post('/api/user/manage', { id: null, username: 'nully2', action: 'enable' })).body.success, true)

      const amount = await me.post('/api/user/amount', { amount: 2, top_up_code: null })
      assert.deepEqual([amount.body.message, amount.body.data], ['success', '14.60'])
      const pay = await me.post('/api/user/pay', { amount: 2, top_up_code: null, payment_method: 'zfb' })
      assert.equal(pay.body.message, 'error', 'refused for online top-up being off, not for the null')

      const codes = await root.post('/api/redemption/', { name: 'nulls', quota: 100, count: null })
      assert.equal(codes.body.data.length, 1, codes.body.message)
      const [code] = await s.ctx.db.selectFrom('redemptions').select('id').where('name', '=', 'nulls').execute()
      const put = await root.put('/api/redemption/', { id: code!.id, name: null, quota: null })
      assert.deepEqual([put.body.success, put.body.data.name, put.body.data.quota], [true, 'nulls', 100])
    })

    it('requires a New-API-User header, when sent, to name the signed-in user', async () => {
      const u = await s.user({ group: 'vip' })
      const as = (value: string) => u.call('GET', '/api/user/self', undefined, { 'new-api-user': value })
      assert.equal((await as(String(u.id))).body.data.id, u.id)
      assert.equal((await u.get('/api/user/self')).status, 200, 'no header: the session alone')
      for (const wrong of [String(u.id + 1), '-1', 'abc', '', `${u.id}x`, '1.5']) {
        const r = await as(wrong)
        assert.equal(r.status, 401, `New-API-User: '${wrong}'`)
        assert.equal(r.body.success, false)
      }
      const bearer = new Client(s)
      bearer.bearer = (await u.get('/api/user/token')).body.data
      assert.equal((await bearer.call('GET', '/api/user/self', undefined, { 'new-api-user': String(u.id) })).status, 200)
      assert.equal((await bearer.call('GET', '/api/user/self', undefined, { 'new-api-user': '1' })).status, 401)
      // a public call answers a mismatched caller as a signed-out visitor, never as the session's user
      const pricing = await u.call('GET', '/api/pricing', undefined, { 'new-api-user': '1' })
      assert.deepEqual([pricing.status, pricing.body.group], [200, 'default'])
      assert.equal((await u.call('GET', '/api/pricing', undefined, { 'new-api-user': String(u.id) })).body.group, 'vip')
    })

    it("accepts, stores and answers the family's option keys", async () => {
      const read = async () => new Map(((await root.get('/api/option/')).body.data as any[]).map((o) => [o.key, o.value]))
      const before = await read()
      assert.equal(before.get('MjActionCheckSuccessEnabled'), 'true')
      assert.equal(before.get('CheckSensitiveOnCompletionEnabled'), 'false')
      assert.equal(before.get('StopOnSensitiveEnabled'), 'true')
      assert.equal(before.get('StreamCacheQueueLength'), '0')
      for (const [key, value] of [
        ['MjActionCheckSuccessEnabled', 'false'],
        ['CheckSensitiveOnCompletionEnabled', 'true'],
        ['StopOnSensitiveEnabled', 'false'],
        ['StreamCacheQueueLength', '16'],
      ] as const) {
        const r = await root.put('/api/option/', { key, value })
        assert.equal(r.body.success, true, `${key}: ${r.body.message}`)
        assert.equal((await read()).get(key), value)
      }
      assertRefused(await root.put('/api/option/', { key: 'StreamCacheQueueLength', value: -1 }))
      assertRefused(await root.put('/api/option/', { key: 'StopOnSensitiveEnabled', value: 'yes' }))
      const stored = await s.ctx.db.selectFrom('options').select('value').where('key', '=', 'StreamCacheQueueLength').executeTakeFirst()
      assert.equal(stored?.value, '16')
    })

    it('takes the page size of the user and redemption lists from page_size or size, 10 by default, at most 100', async () => {
      for (let i = 0; i < 12; i++) await s.user()
      const count = async (q: string) => ((await root.get(`/api/user/?${q}`)).body.data as any[]).length
      assert.equal(await count('p=0'), 10)
      assert.equal(await count('p=0&page_size=3'), 3)
      assert.equal(await count('p=0&size=4'), 4)
      assert.ok((await count('p=0&page_size=1000')) > 10, 'clamped to 100, not refused')
      assertRefused(await root.get('/api/user/?page_size=abc'), 'a page size that is not a number')
      await root.post('/api/redemption/', { name: 'paged', quota: 100, count: 12 })
      assert.equal(((await root.get('/api/redemption/?p=0&page_size=5')).body.data as any[]).length, 5)
      assert.equal(((await root.get('/api/redemption/?p=0')).body.data as any[]).length, 10)
    })

    it('stores the detail of every account log as data, with the English sentence in content', async () => {
      await s.ctx.options.set('QuotaForNewUser', '1000')
      await s.ctx.options.set('QuotaForInvitee', '200')
      await s.ctx.options.set('QuotaForInviter', '300')
      try {
        const inviter = await s.user()
        const aff = (await inviter.get('/api/user/aff')).body.data
        assert.equal(
          (await s.anon.post('/api/user/register', { username: 'invitee1', password: 'invitee-pass', aff_code: aff })).body.success,
          true,
        )
        const invitee = await s.ctx.db.selectFrom('users').selectAll().where('username', '=', 'invitee1').executeTakeFirstOrThrow()
        await root.put('/api/user/', { id: invitee.id, quota: 5000 })
        const [key] = (await root.post('/api/redemption/', { name: 'logged', quota: 777 })).body.data
        const who = new Client(s)
        await who.post('/api/user/login', { username: 'invitee1', password: 'invitee-pass' })
        assert.equal((await who.post('/api/user/topup', { key })).body.success, true)

        const rows = await s.ctx.db.selectFrom('logs').selectAll().where('user_id', 'in', [invitee.id, inviter.id]).orderBy('id').execute()
        const details = rows.map((r) => ({ user: r.user_id, type: r.type, detail: readLogDetail(r.other), content: r.content }))
        const code = await s.ctx.db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow()
        assert.deepEqual(details, [
          { user: invitee.id, type: 4, detail: { kind: 'user.newBonus', quota: 1000 }, content: 'new user bonus: 1000 quota' },
          { user: invitee.id, type: 4, detail: { kind: 'user.inviteeBonus', quota: 200 }, content: 'invite code bonus: 200 quota' },
          {
            user: inviter.id,
            type: 4,
            detail: { kind: 'user.inviterReward', quota: 300, invitee: 'invitee1' },
            content: 'invited invitee1: 300 invite quota',
          },
          {
            user: invitee.id,
            type: 3,
            detail: { kind: 'admin.quotaChanged', admin: 'root', user: 'invitee1', from: 1200, to: 5000 },
            content: 'administrator root changed the quota of invitee1 from 1200 to 5000',
          },
          {
            user: invitee.id,
            type: 1,
            detail: { kind: 'topup.redeemed', quota: 777, code_id: code.id },
            content: `topped up 777 quota with redemption code id ${code.id}`,
          },
        ])
      } finally {
        for (const k of ['QuotaForNewUser', 'QuotaForInvitee', 'QuotaForInviter']) await s.ctx.options.set(k, '0')
      }
    })
  })
}
