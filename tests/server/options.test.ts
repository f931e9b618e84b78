import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, Client, type TestServer, assertRefused, rootServer } from './helpers.ts'
import { DEFAULT_OPTIONS, isSecretOption } from '../../server/options.ts'
import { DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_RATIO } from '../../server/lib/ratios.ts'

for (const dialect of dialects) {
  describe(`options (${dialect})`, () => {
    let s: TestServer
    let root: Client
    rootServer(dialect, (server, client) => ([s, root] = [server, client]))

    const stored = async (key: string) =>
      (await s.ctx.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value
    const put = (key: string, value: unknown) => root.put('/api/option/', { key, value })

    it('lists every option and never sends a secret back', async () => {
      await s.ctx.options.set('SMTPToken', 'smtp-secret')
      await s.ctx.options.set('GitHubClientSecret', 'gh-secret')
      await s.ctx.options.set('TurnstileSiteKey', 'public-site-key')
      const r = await root.get('/api/option/')
      assert.equal(r.body.success, true)
      const map = new Map((r.body.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]))
      for (const k of Object.keys(DEFAULT_OPTIONS)) assert.ok(map.has(k), `missing ${k}`)
      assert.equal(map.get('SMTPToken'), '')
      assert.equal(map.get('GitHubClientSecret'), '')
      assert.equal(map.get('TurnstileSiteKey'), 'public-site-key')
      for (const [k, v] of map) if (isSecretOption(k)) assert.equal(v, '', k)
      assert.ok(!JSON.stringify(r.body).includes('smtp-secret'))
    })

    it('saves a value, and GET /api/status reflects it at once', async () => {
      const r = await put('SystemName', 'Gate Two')
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(await stored('SystemName'), 'Gate Two')
      assert.equal((await s.anon.get('/api/status')).body.data.system_name, 'Gate Two')
      assert.equal((await put('DisplayInCurrencyEnabled', false)).body.success, true)
      assert.equal(await stored('DisplayInCurrencyEnabled'), 'false')
      assert.equal((await s.anon.get('/api/status')).body.data.display_in_currency, false)
      assert.equal((await put('QuotaPerUnit', 250000)).body.success, true)
      assert.equal(await stored('QuotaPerUnit'), '250000')
      assert.equal((await s.anon.get('/api/status')).body.data.quota_per_unit, 250000)
      await put('QuotaPerUnit', '500000')
    })

    it('refuses an unknown key naming key', async () => {
      const r = await put('NoSuchOption', 'x')
      assertRefused(r)
      assert.match(r.body.message, /key/)
      assert.equal(await stored('NoSuchOption'), undefined)
      assertRefused(await root.put('/api/option/', { key: 'SystemName' }))
      assertRefused(await root.put('/api/option/', { key: 'SystemName', value: [1] }))
    })

    it('takes switches as true or false only', async () => {
      assert.equal((await put('RegisterEnabled', 'maybe')).body.success, false)
      assert.equal((await put('RegisterEnabled', 1)).body.success, false)
      assert.equal(await stored('RegisterEnabled'), 'true')
      assert.equal((await put('RegisterEnabled', 'false')).body.success, true)
      assert.equal(await stored('RegisterEnabled'), 'false')
      await put('RegisterEnabled', true)
      assert.equal(await stored('RegisterEnabled'), 'true')
    })

    it('checks JSON options, with the spec wording', async () => {
      for (const key of ['ModelPrice', 'ModelRatio', 'CompletionRatio', 'GroupRatio', 'VmodelMap', 'SunoLimit']) {
        const before = await stored(key)
        const r = await put(key, '{not json')
        assert.equal(r.body.success, false, key)
        assert.match(r.body.message, /not a legal JSON string/)
        assert.equal((await put(key, '[1,2]')).body.success, false, `${key}: an array is not an object`)
        assert.equal(await stored(key), before)
      }
      assert.match((await put('TopupGroupRatio', 'nope')).body.message, /top-up group ratio is not a legal JSON string/)
      assert.equal((await put('ModelRatio', '{"gpt-4o": "cheap"}')).body.success, false)
      assert.equal((await put('GroupRatio', '{"vip": -1}')).body.success, false)
      const ok = await put('GroupRatio', '{"default": 1, "vip": 0.5}')
      assert.equal(ok.body.success, true, ok.body.message)
      assert.deepEqual(s.ctx.options.json('GroupRatio', {}), { default: 1, vip: 0.5 })
      assert.equal((await put('VmodelMap', { a: 'b' })).body.success, true, 'an object value is stored as JSON')
      assert.deepEqual(JSON.parse((await stored('VmodelMap'))!), { a: 'b' })
    })

    it('checks numbers and their minimums', async () => {
      const bad: Array<[string, unknown]> = [
        ['Price', -1],
        ['Price', 'abc'],
        ['MinTopUp', 0],
        ['QuotaPerUnit', 0],
        ['QuotaPerUnit', -5],
        ['RetryTimes', 1.5],
        ['RetryTimes', -1],
        ['ChannelDisableThreshold', -1],
        ['QuotaRemindThreshold', 'x'],
        ['QuotaForNewUser', -100],
        ['PreConsumedQuota', 2.5],
        ['QuotaForInviter', -1],
        ['QuotaForInvitee', ''],
        ['DataExportInterval', 0],
        ['SMTPPort', 0],
        ['SMTPPort', 70000],
        ['QuotaForNewUser', 1e300],
      ]
      for (const [key, value] of bad) {
        const before = await stored(key)
        const r = await put(key, value)
        assert.equal(r.body.success, false, `${key}=${value}`)
        assert.match(r.body.message, new RegExp(key))
        assert.equal(await stored(key), before)
      }
      for (const [key, value, want] of [
        ['Price', '7.5', '7.5'],
        ['MinTopUp', 2, '2'],
        ['RetryTimes', '3', '3'],
        ['QuotaForNewUser', 0, '0'],
        ['DataExportInterval', 1, '1'],
        ['SMTPPort', '465', '465'],
        ['ChannelDisableThreshold', ' 10 ', '10'],
      ] as const) {
        assert.equal((await put(key, value)).body.success, true, key)
        assert.equal(await stored(key), want)
      }
    })

    it('checks DataExportDefaultTime and trims trailing slashes of addresses', async () => {
      assert.equal((await put('DataExportDefaultTime', 'month')).body.success, false)
      assert.equal((await put('DataExportDefaultTime', 'week')).body.success, true)
      for (const key of ['ServerAddress', 'WorkerUrl', 'PayAddress', 'WeChatServerAddress']) {
        await put(key, 'https://gate.example.com//')
        assert.equal(await stored(key), 'https://gate.example.com', key)
      }
      assert.equal((await s.anon.get('/api/status')).body.data.server_address, 'https://gate.example.com')
    })

    it('needs the companion setting before a login switch goes on', async () => {
      for (const [sw, need, value] of [
        ['GitHubOAuthEnabled', 'GitHubClientId', 'client-id'],
        ['WeChatAuthEnabled', 'WeChatServerAddress', 'https://wx.example.com'],
        ['TurnstileCheckEnabled', 'TurnstileSiteKey', 'site-key'],
        ['EmailDomainRestrictionEnabled', 'EmailDomainWhitelist', 'example.com'],
      ] as const) {
        await put(need, '')
        const r = await put(sw, 'true')
        assert.equal(r.body.success, false, sw)
        assert.match(r.body.message, new RegExp(need))
        assert.equal(await stored(sw), 'false')
        await put(need, value)
        assert.equal((await put(sw, 'true')).body.success, true, sw)
        assert.equal((await put(sw, 'false')).body.success, true)
      }
    })

    it('refuses a value over 1 MB', async () => {
      const r = await put('HomePageContent', 'x'.repeat(1024 * 1024 + 10))
      assert.ok(r.status === 413 || r.status === 400 || r.body.success === false)
      assert.notEqual(r.status, 500)
      assert.equal(await stored('HomePageContent'), '')
    })

    it('resets ModelRatio and CompletionRatio to the defaults', async () => {
      await put('ModelRatio', '{"x": 1}')
      await put('CompletionRatio', '{"x": 2}')
      const r = await root.post('/api/option/rest_model_ratio')
      assert.equal(r.body.success, true)
      assert.deepEqual(JSON.parse((await stored('ModelRatio'))!), DEFAULT_MODEL_RATIO)
      assert.deepEqual(JSON.parse((await stored('CompletionRatio'))!), DEFAULT_COMPLETION_RATIO)
      assert.deepEqual(s.ctx.options.json('ModelRatio', {}), DEFAULT_MODEL_RATIO)
    })

    it('is for root alone', async () => {
      const admin = await s.user({ role: 10 })
      assert.equal((await admin.get('/api/option/')).status, 403)
      assert.equal((await admin.put('/api/option/', { key: 'SystemName', value: 'mine' })).status, 403)
      assert.equal((await admin.post('/api/option/rest_model_ratio')).status, 403)
      assert.equal((await s.anon.get('/api/option/')).status, 401)
      assert.notEqual(await stored('SystemName'), 'mine')
    })
  })
}
