/**
 * Models of channels: the model list fetched from an OpenAI channel's upstream, the built-in models
 * and the channel type numbers; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { channelsSuite, closedPort } from './channels-fixture.ts'
import { CHANNEL_TYPES, channelTypeName } from '../../domain/channel-types.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('fetches the model list of an OpenAI channel from its upstream', async () => {
      const ch = await fx.create({ type: 1, key: 'sk-good-1\nsk-second', base_url: fx.upstream.url + '/' })
      fx.upstream.seen.length = 0
      const r = await fx.admin.get(`/api/channel/fetch_models/${ch.id}`)
      assert.deepEqual([r.body.success, r.body.data], [true, ['gpt-4o', 'gpt-4o-mini']])
      assert.deepEqual(fx.upstream.seen, [{ method: 'GET', path: '/v1/models', auth: 'Bearer sk-good-1' }])
    })

    it('refuses fetch_models for other types and reports upstream failures', async () => {
      const claude = await fx.create({ type: 14, base_url: fx.upstream.url })
      const r = await fx.admin.get(`/api/channel/fetch_models/${claude.id}`)
      assert.deepEqual([r.body.success, r.body.message], [false, 'only the OpenAI interface format is supported'])
      const badKey = await fx.create({ type: 1, key: 'sk-bad', base_url: fx.upstream.url })
      const denied = await fx.admin.get(`/api/channel/fetch_models/${badKey.id}`)
      assert.equal(denied.body.success, false)
      assert.match(denied.body.message, /^fetching model list failed: HTTP 401 Incorrect API key provided/)
      const broken = await fx.create({ type: 1, key: 'sk-good', base_url: fx.upstream.url + '/broken' })
      assert.match(
        (await fx.admin.get(`/api/channel/fetch_models/${broken.id}`)).body.message,
        /^fetching model list failed: .*no model list/,
      )
      const down = await fx.create({ type: 1, key: 'sk-good', base_url: `http://127.0.0.1:${await closedPort()}` })
      const r2 = await fx.admin.get(`/api/channel/fetch_models/${down.id}`)
      assert.equal(r2.body.success, false)
      assert.match(r2.body.message, /^fetching model list failed: connection refused \(ECONNREFUSED\)$/)
      assert.equal((await fx.admin.get('/api/channel/fetch_models/999999')).body.success, false)
    })

    it('lists built-in models as OpenAI model objects and per channel type', async () => {
      const r = await fx.admin.get('/api/channel/models')
      assert.equal(r.body.success, true)
      const ids = r.body.data.map((m: { id: string }) => m.id)
      assert.equal(new Set(ids).size, ids.length, 'each model once')
      for (const id of ['gpt-4o', 'claude-3-5-sonnet-20241022', 'mj_imagine', 'suno_music', 'gemini-1.5-pro'])
        assert.ok(ids.includes(id), id)
      const gpt = r.body.data.find((m: { id: string }) => m.id === 'gpt-4o')
      assert.deepEqual(gpt, { id: 'gpt-4o', object: 'model', created: 1626777600, owned_by: 'openai' })
      const u = await fx.s.user()
      const byType = await u.get('/api/models')
      assert.equal(byType.body.success, true)
      assert.ok(byType.body.data['1'].includes('gpt-4o'))
      assert.ok(byType.body.data['14'].includes('claude-3-5-sonnet-20241022'))
      assert.ok(byType.body.data['2'].includes('mj_imagine'))
      assert.deepEqual(byType.body.data['8'], [])
      assert.equal(Object.keys(byType.body.data).length, CHANNEL_TYPES.length)
    })

    it('knows every channel type number of the spec', () => {
      const numbers = [
        1, 2, 5, 4, 14, 33, 3, 24, 34, 15, 17, 18, 16, 26, 11, 25, 19, 23, 31, 35, 8, 22, 21, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59,
        61, 63, 64, 65, 66,
      ]
      assert.deepEqual(
        CHANNEL_TYPES.map((t) => t.type).sort((a, b) => a - b),
        [...numbers].sort((a, b) => a - b),
      )
      assert.equal(channelTypeName(41), 'Suno')
      assert.equal(channelTypeName(3), 'Azure OpenAI')
      assert.equal(channelTypeName(999), 'unknown')
    })
  })
}
