import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, type Client } from './helpers.ts'
import { relayFixture, type RelayFixture } from './relay-helpers.ts'
import { testAllRunning } from '../../server/relay/channel-ops.ts'

for (const dialect of dialects) {
  describe(`channel test and balance (${dialect})`, () => {
    let f: RelayFixture
    let root: Client

    before(async () => {
      f = await relayFixture(dialect)
      root = await f.s.root()
    })
    beforeEach(async () => {
      f.fake.reset()
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'false')
      await f.s.ctx.options.set('AutomaticEnableChannelEnabled', 'false')
      await f.s.ctx.options.set('ChannelDisableThreshold', '5')
      // test-all visits every enabled channel: start each case from its own channels only
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).execute()
    })
    after(() => f.close())

    const channel = (id: number) => f.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

    it('tests one channel with a real call and records the time and a log', async () => {
      const id = await f.channel({
        key: 'test-one',
        models: 'gpt-4o,gpt-3.5-turbo',
        modelMapping: '{"gpt-3.5-turbo":"gpt-3.5-turbo-0125"}',
      })
      const r = await root.get(`/api/channel/test/${id}?model=gpt-3.5-turbo`)
      assert.equal(r.body.success, true)
      assert.equal(typeof r.body.time, 'number')
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.body.model, 'gpt-3.5-turbo-0125')
      assert.equal(sent.body.max_tokens, 1)
      assert.deepEqual(sent.body.messages, [{ role: 'user', content: 'hi' }])
      const row = await channel(id)
      assert.ok(Number(row.test_time) > 0)
      assert.equal(Number(row.response_time), Math.round(Number(r.body.time) * 1000))
      await f.idle()
      const log = await f.s.ctx.db.selectFrom('logs').selectAll().where('channel', '=', id).executeTakeFirstOrThrow()
      assert.equal(log.token_name, 'model test')
      assert.equal(log.username, 'root')
      assert.equal(log.model_name, 'gpt-3.5-turbo')
      // without ?model= the channel's first model
      await root.get(`/api/channel/test/${id}`)
      assert.equal(f.fake.requests.at(-1)!.body.model, 'gpt-4o')
    })

    it('reports a failing test without disabling the channel', async () => {
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      f.fake.scenario('test-bad', { status: 401, error: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } } })
      const id = await f.channel({ key: 'test-bad', models: 'gpt-4o' })
      const r = await root.get(`/api/channel/test/${id}`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /401: Incorrect API key provided/)
      assert.equal(Number((await channel(id)).status), 1)
      assert.equal((await root.get('/api/channel/test/999999')).body.success, false)
      const claudeLess = await f.channel({ type: 41, key: 'suno', models: 'suno_music' })
      assert.match((await root.get(`/api/channel/test/${claudeLess}`)).body.message, /not supported for this channel type \(Suno\)/)
    })

    it('keeps a failed test on the channel until a later test passes', async () => {
      f.fake.scenario('test-flip', { status: 500 })
      const id = await f.channel({ key: 'test-flip', models: 'gpt-4o' })
      await f.s.ctx.db.updateTable('channels').set({ other_info: '{"note":"kept"}' }).where('id', '=', id).execute()
      assert.equal((await root.get(`/api/channel/test/${id}`)).body.success, false)
      const failed = JSON.parse((await channel(id)).other_info)
      assert.match(failed.test_error, /^status 500/)
      assert.equal(failed.note, 'kept')
      const listed = (await root.get(`/api/channel/${id}`)).body.data
      assert.match(JSON.parse(listed.other_info).test_error, /^status 500/, 'the console reads it from the channel')
      f.fake.reset()
      assert.equal((await root.get(`/api/channel/test/${id}`)).body.success, true)
      assert.deepEqual(JSON.parse((await channel(id)).other_info), { note: 'kept' })
      const suno = await f.channel({ type: 41, key: 'suno-untestable', models: 'suno_music' })
      await root.get(`/api/channel/test/${suno}`)
      assert.equal((await channel(suno)).other_info, '', 'a type without a test call is not a failed channel')
    })

    it('reports a channel it cannot reach or cannot build a request for, as the relay does', async () => {
      const closed = await f.channel({ key: 'test-closed', models: 'gpt-4o', baseUrl: 'http://127.0.0.1:1' })
      const r = await root.get(`/api/channel/test/${closed}`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /^channel test failed: the upstream could not be reached: /)
      const bare = await f.channel({ type: 8, key: 'test-bare', models: 'gpt-4o', baseUrl: '' })
      const m = await root.get(`/api/channel/test/${bare}`)
      assert.equal(m.body.success, false)
      assert.equal(m.body.message, `channel test failed: channel ${bare} is misconfigured: this channel has no base URL`)
    })

    it("answers in the caller's language, and refuses an id out of range without a 500", async () => {
      const zh = { 'accept-language': 'zh-CN' }
      const en = { 'accept-language': 'en' }
      const test = async (id: number, headers: Record<string, string>) => {
        const r = await root.call('GET', `/api/channel/test/${id}`, undefined, headers)
        assert.equal(r.body.success, false)
        return r.body.message as string
      }
      // a socket error is said in the reader's words, the HTTP client's own text kept in brackets;
      // the upstream's own error message stays as it came
      const closed = await f.channel({ key: 'test-closed-zh', models: 'gpt-4o', baseUrl: 'http://127.0.0.1:1' })
      assert.match(await test(closed, zh), /^渠道测试失败：无法连接上游：连接被拒绝（.*ECONNREFUSED.*）$/)
      assert.match(
        await test(closed, en),
        /^channel test failed: the upstream could not be reached: connection refused \(.*ECONNREFUSED.*\)$/,
      )
      f.fake.scenario('test-500-zh', { status: 500 })
      const failing = await f.channel({ key: 'test-500-zh', models: 'gpt-4o' })
      assert.equal(await test(failing, zh), '渠道测试失败：上游返回状态 500：fake failure 500')
      assert.equal(await test(failing, en), 'channel test failed: status 500: fake failure 500')
      f.fake.scenario('test-silent-zh', { status: 502, error: {} })
      const silent = await f.channel({ key: 'test-silent-zh', models: 'gpt-4o' })
      assert.equal(await test(silent, zh), '渠道测试失败：上游返回状态 502：上游未说明原因（状态码 502）')
      assert.equal(await test(silent, en), 'channel test failed: status 502: upstream answered with status code 502')
      const bare = await f.channel({ type: 8, key: 'test-bare-zh', models: 'gpt-4o', baseUrl: '' })
      assert.equal(await test(bare, zh), `渠道测试失败：渠道 ${bare} 配置有误：该渠道没有填写 base URL`)
      const untestable = await f.channel({ type: 21, key: 'test-aiproxy-zh', models: 'gpt-4o' })
      assert.equal(await test(untestable, zh), '渠道测试失败：该渠道类型（知识库：AI Proxy）不支持渠道测试')
      assert.equal(
        await test(untestable, en),
        'channel test failed: channel test is not supported for this channel type (AI Proxy knowledge base)',
      )
      // the failure stays on the channel, as data: every reader gets it in their language, the row keeps the English
      const stored = JSON.parse((await channel(failing)).other_info)
      assert.deepEqual([stored.test_error, stored.test_error_key], ['status 500: fake failure 500', 'channel.upstreamStatus'])
      const testError = async (headers: Record<string, string>) =>
        JSON.parse((await root.call('GET', `/api/channel/${failing}`, undefined, headers)).body.data.other_info).test_error
      assert.equal(await testError(zh), '上游返回状态 500：fake failure 500')
      assert.equal(await testError(en), 'status 500: fake failure 500')
      assert.equal((await root.call('GET', '/api/channel/test/999999', undefined, zh)).body.message, '渠道不存在，请刷新后重试')
      const balance = await root.call('GET', `/api/channel/update_balance/${closed}/`, undefined, zh)
      assert.match(balance.body.message, /^渠道余额未更新：余额查询失败：连接被拒绝（.*ECONNREFUSED.*）$/)
      const noBalance = await root.call('GET', `/api/channel/update_balance/${untestable}/`, undefined, zh)
      assert.equal(noBalance.body.message, '渠道余额未更新：该渠道类型（知识库：AI Proxy）不支持查询余额')
      for (const path of ['/api/channel/test/99999999999999999999', '/api/channel/update_balance/99999999999999999999/']) {
        const huge = await root.get(path)
        assert.deepEqual([huge.status, huge.body.success, huge.body.data?.field], [200, false, 'id'], path)
      }
    })

    it('is for administrators only', async () => {
      const u = await f.s.user({ role: 1 })
      assert.equal((await u.get('/api/channel/test/1')).status, 403)
      assert.equal((await u.get('/api/channel/update_balance/1/')).status, 403)
      assert.equal((await f.s.anon.get('/api/channel/test')).status, 401)
    })

    it('tests all channels in the background: disables failing and slow ones, re-enables recovered ones', async () => {
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      await f.s.ctx.options.set('AutomaticEnableChannelEnabled', 'true')
      await f.s.ctx.options.set('ChannelDisableThreshold', '0.2')
      f.fake.scenario('all-fail', { status: 500 })
      f.fake.scenario('all-fail-keep', { status: 500 })
      f.fake.scenario('all-slow', { latencyMs: 400 })
      const good = await f.channel({ key: 'all-good', models: 'gpt-4o' })
      const failing = await f.channel({ key: 'all-fail', models: 'gpt-4o' })
      const keep = await f.channel({ key: 'all-fail-keep', models: 'gpt-4o', autoBan: 0 })
      const slow = await f.channel({ key: 'all-slow', models: 'gpt-4o' })
      const recovered = await f.channel({ key: 'all-recovered', models: 'gpt-4o', status: 3 })
      const manual = await f.channel({ key: 'all-manual', models: 'gpt-4o', status: 2 })

      const r = await root.get('/api/channel/test')
      assert.deepEqual([r.body.success, r.body.message], [true, ''])
      const again = await root.get('/api/channel/test')
      assert.equal(again.body.success, false, 'a second run is refused while one is going')
      await testAllRunning(f.engine)

      const status = async (id: number) => Number((await channel(id)).status)
      assert.equal(await status(good), 1)
      assert.equal(await status(failing), 3)
      assert.match(JSON.parse((await channel(failing)).other_info).status_reason, /channel test failed/)
      assert.match(JSON.parse((await channel(failing)).other_info).test_error, /^status 500/, 'the failed test stays recorded')
      assert.equal(await status(keep), 1, 'auto_ban 0 is never disabled')
      assert.equal(await status(slow), 3)
      assert.equal(await status(recovered), 1)
      assert.equal(await status(manual), 2, 'a manual disable is left alone')
      assert.equal(f.fake.hits.get('all-manual'), undefined)
      // the relay follows at once
      assert.equal(f.engine.state.channels.get(failing)!.status, 3)
      assert.equal(f.engine.state.channels.get(recovered)!.status, 1)
    })

    it('keeps a status change made while a channel reload was reading', async () => {
      const id = await f.channel({ key: 'reload-race', models: 'gpt-4o', status: 3 })
      await new Promise((r) => setTimeout(r, 50)) // the reload the new channel scheduled has run
      await f.engine.state.loadChannels()
      const reading = f.engine.state.loadChannels()
      // the monitor re-enables it after the reload's read began: the rows it reads still say 3
      f.engine.state.setChannelStatus(id, 1)
      await reading
      assert.equal(f.engine.state.channels.get(id)!.status, 1)
    })

    it("tells why a channel was disabled automatically in the reader's language, keeping the English for the family", async () => {
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      await f.s.ctx.options.set('ChannelDisableThreshold', '0.2')
      f.fake.scenario('why-fail', { status: 500 })
      f.fake.scenario('why-slow', { latencyMs: 400 })
      f.fake.scenario('why-broke', { balance: { hardLimitUsd: 10, usageCents: 1000 } })
      const failing = await f.channel({ key: 'why-fail', models: 'gpt-4o', name: 'why-fail' })
      const slow = await f.channel({ key: 'why-slow', models: 'gpt-4o', name: 'why-slow' })
      await root.get('/api/channel/test')
      await testAllRunning(f.engine)
      const broke = await f.channel({ key: 'why-broke', models: 'gpt-4o', name: 'why-broke' })
      await root.get('/api/channel/update_balance')
      const legacy = await f.channel({ key: 'why-legacy', models: 'gpt-4o', name: 'why-legacy', status: 3 })
      await f.s.ctx.db
        .updateTable('channels')
        .set({ other_info: '{"status_reason":"disabled long ago","status_time":1}' })
        .where('id', '=', legacy)
        .execute()
      const unknown = await f.channel({ key: 'why-unknown', models: 'gpt-4o', name: 'why-unknown', status: 3 })
      await f.s.ctx.db
        .updateTable('channels')
        .set({ other_info: '{"status_reason":"a newer server said so","status_time":1,"status_reason_key":"channel.noSuchReason"}' })
        .where('id', '=', unknown)
        .execute()

      // stored: the family's English sentence, and the same reason as data
      const stored = JSON.parse((await channel(broke)).other_info)
      assert.equal(stored.status_reason, 'no balance left')
      assert.equal(stored.status_reason_key, 'channel.disabled.noBalance')
      assert.ok(stored.status_time > 0)
      const storedFail = JSON.parse((await channel(failing)).other_info)
      assert.match(storedFail.status_reason, /^channel test failed: status 500/)
      assert.equal(storedFail.status_reason_key, 'channel.testFailed')
      assert.deepEqual(
        storedFail.status_reason_params.reason,
        { key: 'channel.upstreamStatus', params: { status: 500, message: 'fake failure 500' } },
        "the test's failure is nested as a message, the upstream part as it came",
      )

      const zh = { 'accept-language': 'zh-CN' }
      const reasons = async (headers?: Record<string, string>) => {
        const one = async (id: number) => {
          const single = (await root.call('GET', `/api/channel/${id}`, undefined, headers)).body.data
          const found = (await root.call('GET', `/api/channel/search?keyword=${id}`, undefined, headers)).body.data
          const listed = (await root.call('GET', '/api/channel/?p=0&page_size=100&id_sort=true', undefined, headers)).body.data
          const fromList = listed.find((c: { id: number }) => c.id === id)
          assert.equal(found[0].other_info, single.other_info, 'search answers as the single channel does')
          assert.equal(fromList.other_info, single.other_info, 'the list answers as the single channel does')
          return JSON.parse(single.other_info).status_reason as string
        }
        return {
          failing: await one(failing),
          slow: await one(slow),
          broke: await one(broke),
          legacy: await one(legacy),
          unknown: await one(unknown),
        }
      }
      const inZh = await reasons(zh)
      assert.equal(inZh.failing, '渠道测试失败：上游返回状态 500：fake failure 500')
      assert.match(inZh.slow, /^渠道测试耗时 [\d.]+ 秒，超过了 0\.2 秒的阈值$/)
      assert.equal(inZh.broke, '余额已用完')
      assert.equal(inZh.legacy, 'disabled long ago', 'a row written without a key keeps its sentence')
      assert.equal(inZh.unknown, 'a newer server said so', 'and so does one with a key this server does not know')
      const failedTest = (await root.call('GET', `/api/channel/${failing}`, undefined, zh)).body.data.other_info
      assert.equal(JSON.parse(failedTest).test_error, '上游返回状态 500：fake failure 500', 'and so is the test that failed')
      const inEn = await reasons({ 'accept-language': 'en' })
      assert.equal(inEn.failing, 'channel test failed: status 500: fake failure 500')
      assert.match(inEn.slow, /^channel test took [\d.]+ s, over the 0\.2 s threshold$/)
      assert.equal(inEn.broke, 'no balance left')
      assert.equal(inEn.legacy, 'disabled long ago')
      // the database keeps the English whoever read it
      assert.equal(JSON.parse((await channel(broke)).other_info).status_reason, 'no balance left')
    })

    it('leaves channels alone when the monitoring options are off', async () => {
      f.fake.scenario('off-fail', { status: 500 })
      const failing = await f.channel({ key: 'off-fail', models: 'gpt-4o' })
      const auto = await f.channel({ key: 'off-auto', models: 'gpt-4o', status: 3 })
      await root.get('/api/channel/test')
      await testAllRunning(f.engine)
      assert.equal(Number((await channel(failing)).status), 1)
      assert.equal(Number((await channel(auto)).status), 3)
    })

    it('updates the balance from the OpenAI billing endpoints', async () => {
      f.fake.scenario('billing', { balance: { hardLimitUsd: 120, usageCents: 2050 } })
      const id = await f.channel({ key: 'billing', models: 'gpt-4o' })
      const r = await root.get(`/api/channel/update_balance/${id}/`)
      assert.deepEqual([r.body.success, r.body.balance], [true, 99.5])
      const row = await channel(id)
      assert.equal(Number(row.balance), 99.5)
      assert.ok(Number(row.balance_updated_time) > 0)
      assert.ok(f.fake.requests.some((q) => q.path.startsWith('/v1/dashboard/billing/usage?start_date=')))
      const claudeId = await f.channel({ type: 14, key: 'c', models: 'claude-3-haiku-20240307' })
      const no = await root.get(`/api/channel/update_balance/${claudeId}/`)
      assert.equal(no.body.success, false)
      assert.match(no.body.message, /not supported for this channel type \(Anthropic Claude\)/)
    })

    it('updates all balances and disables a channel with nothing left', async () => {
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      f.fake.scenario('rich', { balance: { hardLimitUsd: 10, usageCents: 100 } })
      f.fake.scenario('broke', { balance: { hardLimitUsd: 10, usageCents: 1000 } })
      const rich = await f.channel({ key: 'rich', models: 'gpt-4o' })
      const broke = await f.channel({ key: 'broke', models: 'gpt-4o', type: 8 })
      const r = await root.get('/api/channel/update_balance')
      assert.equal(r.body.success, true)
      assert.equal(Number((await channel(rich)).balance), 9)
      assert.equal(Number((await channel(broke)).status), 3)
    })
  })
}
