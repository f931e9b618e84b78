import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { relayFixture, waitFor, type RelayFixture } from './relay-helpers.ts'

const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] })

for (const dialect of dialects) {
  describe(`relay channel choice, retries and auto-disable (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let key: string
    let adminKey: string
    let m = 0
    /** a model name no other test's channel serves */
    const fresh = () => `model-${++m}`

    before(async () => {
      f = await relayFixture(dialect)
      userId = await f.user({ quota: 1e12 })
      key = (await f.token(userId, { unlimited: true })).key
      const admin = await f.user({ quota: 1e12, role: 10 })
      adminKey = (await f.token(admin, { unlimited: true })).key
    })
    beforeEach(async () => {
      await f.s.ctx.options.set('RetryTimes', '0')
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'false')
    })
    after(() => f.close())

    const lastLog = async () => {
      await f.idle()
      return f.s.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    }

    it('uses the highest priority level only while it works', async () => {
      const model = fresh()
      await f.channel({ key: 'prio-high', models: model, priority: 10 })
      await f.channel({ key: 'prio-low', models: model, priority: 0 })
      for (let i = 0; i < 20; i++) assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      assert.equal(f.fake.hits.get('prio-high'), 20)
      assert.equal(f.fake.hits.get('prio-low'), undefined)
    })

    it('retries on 5xx at the next priority level and records every channel tried', async () => {
      const model = fresh()
      f.fake.scenario('retry-a', { status: 500 })
      f.fake.scenario('retry-b', { status: 502 })
      const a = await f.channel({ key: 'retry-a', models: model, priority: 10 })
      const b = await f.channel({ key: 'retry-b', models: model, priority: 5 })
      const c = await f.channel({ key: 'retry-c', models: model, priority: 1 })
      await f.s.ctx.options.set('RetryTimes', '2')
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 200)
      const log = await lastLog()
      assert.equal(Number(log.channel), c)
      assert.deepEqual(JSON.parse(log.other).admin_info.use_channel, [a, b, c])
    })

    it('gives up after RetryTimes and answers the last upstream error', async () => {
      const model = fresh()
      f.fake.scenario('fail-1', { status: 503 })
      f.fake.scenario('fail-2', { status: 503 })
      await f.channel({ key: 'fail-1', models: model, priority: 2 })
      await f.channel({ key: 'fail-2', models: model, priority: 1 })
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 503)
      assert.equal(f.fake.hits.get('fail-2'), undefined, 'RetryTimes 0: one attempt only')
      await f.s.ctx.options.set('RetryTimes', '1')
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 503)
      assert.equal(f.fake.hits.get('fail-2'), 1)
    })

    it('retries on 429 and on network errors, never on 400', async () => {
      await f.s.ctx.options.set('RetryTimes', '3')
      const m429 = fresh()
      f.fake.scenario('limit-a', { status: 429 })
      await f.channel({ key: 'limit-a', models: m429, priority: 1 })
      await f.channel({ key: 'limit-b', models: m429, priority: 0 })
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(m429))).status, 200)
      assert.equal(f.fake.hits.get('limit-b'), 1)

      const mNet = fresh()
      f.fake.scenario('net-a', { destroy: true })
      await f.channel({ key: 'net-a', models: mNet, priority: 1 })
      await f.channel({ key: 'net-b', models: mNet, priority: 0 })
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(mNet))).status, 200)
      assert.equal(f.fake.hits.get('net-b'), 1)

      const m400 = fresh()
      f.fake.scenario('four-a', { status: 400 })
      await f.channel({ key: 'four-a', models: m400, priority: 1 })
      await f.channel({ key: 'four-b', models: m400, priority: 0 })
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(m400))).status, 400)
      assert.equal(f.fake.hits.get('four-b'), undefined)
    })

    it('replaces the message of a final 429', async () => {
      const model = fresh()
      f.fake.scenario('sat', { status: 429 })
      await f.channel({ key: 'sat', models: model })
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 429)
      assert.match(((await res.json()) as any).error.message, /saturated/)
    })

    it('maps status codes per channel before deciding to retry', async () => {
      const model = fresh()
      f.fake.scenario('map-a', { status: 400 })
      await f.channel({ key: 'map-a', models: model, priority: 1, statusCodeMapping: '{"400":"500"}' })
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 500, 'the client sees the mapped status')
      await f.channel({ key: 'map-b', models: model, priority: 0 })
      await f.s.ctx.options.set('RetryTimes', '1')
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 200, 'a 400 mapped to 500 is retried')
    })

    it('spreads calls by weight + 10 within a level (2,000 calls within 5%)', async () => {
      const model = fresh()
      const heavy = await f.channel({ key: 'w-heavy', models: model, weight: 30 })
      const light = await f.channel({ key: 'w-light', models: model, weight: 10 })
      const zero = await f.channel({ key: 'w-zero', models: model, weight: 0 })
      for (let i = 0; i < 2000; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, () => f.call(key, 'POST', '/v1/chat/completions', chat(model)).then((r) => r.arrayBuffer())),
        )
      }
      const total = 2000
      const share = (k: string) => (f.fake.hits.get(k) ?? 0) / total
      // weights + 10: 40, 20, 10 of 70
      assert.ok(Math.abs(share('w-heavy') - 40 / 70) < 0.05, `heavy ${share('w-heavy')}`)
      assert.ok(Math.abs(share('w-light') - 20 / 70) < 0.05, `light ${share('w-light')}`)
      assert.ok(Math.abs(share('w-zero') - 10 / 70) < 0.05, `zero ${share('w-zero')}`)
      assert.ok(heavy && light && zero)
    })

    it('maps the model per channel, rewriting only that field, and prices the requested model', async () => {
      await f.channel({ key: 'mapper', models: 'gpt-4', modelMapping: '{"gpt-4":"gpt-4-0613"}' })
      const res = await f.call(key, 'POST', '/v1/chat/completions', {
        model: 'gpt-4',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.2,
      })
      assert.equal(res.status, 200)
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.body.model, 'gpt-4-0613')
      assert.equal(sent.body.temperature, 0.2)
      const log = await lastLog()
      assert.equal(log.model_name, 'gpt-4')
      assert.equal(JSON.parse(log.other).upstream_model_name, 'gpt-4-0613')
      assert.equal(JSON.parse(log.other).model_ratio, 15)
    })

    it('routes by the user group, and by the token group when it has one', async () => {
      const model = fresh()
      await f.channel({ key: 'grp-default', models: model, group: 'default' })
      await f.channel({ key: 'grp-vip', models: model, group: 'vip,svip' })
      const vip = await f.user({ quota: 1e9, group: 'vip' })
      const vipKey = (await f.token(vip, { unlimited: true })).key
      assert.equal((await f.call(vipKey, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      assert.equal(f.fake.hits.get('grp-vip'), 1)
      const svipToken = (await f.token(userId, { unlimited: true, group: 'svip' })).key
      assert.equal((await f.call(svipToken, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      assert.equal(f.fake.hits.get('grp-vip'), 2)
      assert.equal(f.fake.hits.get('grp-default'), undefined)
    })

    it('lets an administrator pin a channel with sk-KEY-<id>, never retried; refuses others', async () => {
      const model = fresh()
      f.fake.scenario('pin-bad', { status: 500 })
      const bad = await f.channel({ key: 'pin-bad', models: model, priority: 0 })
      const good = await f.channel({ key: 'pin-good', models: model, priority: 10 })
      await f.s.ctx.options.set('RetryTimes', '3')
      const res = await f.call(`${adminKey}-${bad}`, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 500)
      assert.equal(f.fake.hits.get('pin-bad'), 1)
      assert.equal(f.fake.hits.get('pin-good'), undefined)
      assert.equal((await f.call(`${adminKey}-${good}`, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      const refused = await f.call(`${key}-${good}`, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(refused.status, 403)
      assert.match(((await refused.json()) as any).error.message, /only administrators may pin/)
    })

    it('auto-disables on an invalid key or exhausted provider quota, only when enabled and allowed', async () => {
      const model = fresh()
      f.fake.scenario('dead-key', {
        status: 401,
        error: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
      })
      const dead = await f.channel({ key: 'dead-key', models: model, priority: 1 })
      await f.channel({ key: 'alive', models: model, priority: 0 })
      const status = async (id: number) =>
        Number((await f.s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status)

      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 401)
      await f.idle()
      assert.equal(await status(dead), 1, 'option off: stays enabled')

      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      const noBan = await f.channel({ key: 'dead-key', models: fresh(), autoBan: 0 })
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(`model-${m}`))).status, 401)
      await f.idle()
      assert.equal(await status(noBan), 1, 'auto_ban 0: stays enabled')

      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 401)
      await f.idle()
      assert.equal(await status(dead), 3)
      const info = JSON.parse(
        (await f.s.ctx.db.selectFrom('channels').select('other_info').where('id', '=', dead).executeTakeFirstOrThrow()).other_info,
      )
      assert.match(info.status_reason, /Incorrect API key/)
      assert.deepEqual([info.status_reason_key, info.status_reason_params.status], ['channel.disabled.upstreamError', 401])
      const root = await f.s.root()
      const read = async (lang: string) =>
        JSON.parse((await root.call('GET', `/api/channel/${dead}`, undefined, { 'accept-language': lang })).body.data.other_info)
          .status_reason
      assert.match(await read('zh-CN'), /^上游返回错误 401：Incorrect API key/)
      assert.match(await read('en'), /^401: Incorrect API key/)
      // the next call no longer picks it
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      assert.equal(f.fake.hits.get('alive'), 1)

      const m2 = fresh()
      f.fake.scenario('broke', {
        status: 429,
        error: {
          error: {
            message: 'You exceeded your current quota, please check your plan',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          },
        },
      })
      const broke = await f.channel({ key: 'broke', models: m2 })
      await f.call(key, 'POST', '/v1/chat/completions', chat(m2))
      await f.idle()
      assert.equal(await status(broke), 3)
    })

    it('builds Azure deployment URLs with the api-version from other', async () => {
      await f.channel({ type: 3, key: 'azure-key', models: 'gpt-3.5-turbo-16k', other: '2024-06-01' })
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat('gpt-3.5-turbo-16k'))
      assert.equal(res.status, 200)
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.path, '/openai/deployments/gpt-35-turbo-16k/chat/completions?api-version=2024-06-01')
      assert.equal(sent.headers['api-key'], 'azure-key')
      assert.equal(sent.headers.authorization, undefined)
    })

    it('sends the OpenAI organization and honours a base URL with a path', async () => {
      const model = fresh()
      await f.channel({ key: 'org-key', models: model, organization: 'org-tollgate', baseUrl: `${f.fake.url}/proxy/` })
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 200)
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.headers['openai-organization'], 'org-tollgate')
      assert.equal(sent.path, '/proxy/v1/chat/completions')
    })

    it('says clearly when a channel type has no protocol the relay speaks', async () => {
      const model = fresh()
      await f.channel({ type: 41, key: 'suno', models: model })
      const res = await f.call(key, 'POST', '/v1/chat/completions', chat(model))
      assert.equal(res.status, 400)
      const body = (await res.json()) as any
      assert.match(body.error.message, /chat completions is not supported for this channel type \(Suno\)/)
      assert.equal(body.error.code, 'channel_type_not_supported')
      await f.channel({ type: 14, key: 'claude-emb', models: 'claude-embed' })
      const emb = await f.call(key, 'POST', '/v1/embeddings', { model: 'claude-embed', input: 'x' })
      assert.match(((await emb.json()) as any).error.message, /embeddings is not supported for this channel type \(Anthropic Claude\)/)
    })

    it('resyncs thousands of tokens page by page, dropping deleted ones', async () => {
      const owner = await f.user({ quota: 1e9 })
      const rows = Array.from({ length: 4500 }, (_, i) => ({
        user_id: owner,
        key: `bulk${String(i).padStart(6, '0')}`,
        name: `bulk ${i}`,
        remain_quota: 1000,
        group: '',
      }))
      for (let i = 0; i < rows.length; i += 500)
        await f.s.ctx.db
          .insertInto('tokens')
          .values(rows.slice(i, i + 500))
          .execute()
      await f.s.ctx.db.deleteFrom('tokens').where('key', '=', 'bulk002000').execute()
      await f.refresh()
      assert.ok(f.engine.state.tokensByKey.has('bulk000000'))
      assert.ok(f.engine.state.tokensByKey.has('bulk001999'))
      assert.ok(f.engine.state.tokensByKey.has('bulk002001'))
      assert.ok(f.engine.state.tokensByKey.has('bulk004499'))
      assert.ok(!f.engine.state.tokensByKey.has('bulk002000'))
      await f.s.ctx.db.deleteFrom('tokens').where('key', 'like', 'bulk%').execute()
      await f.refresh()
      assert.ok(!f.engine.state.tokensByKey.has('bulk004499'))
    })

    it('follows channel changes announced on the bus', async () => {
      const model = fresh()
      const id = await f.channel({ key: 'bus-ch', models: model })
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', id).execute()
      f.s.ctx.bus.emit('channels', id)
      await waitFor(() => f.engine.state.channels.get(id)?.status === 2, 'the channel reload')
      assert.equal((await f.call(key, 'POST', '/v1/chat/completions', chat(model))).status, 503)
    })
  })
}
