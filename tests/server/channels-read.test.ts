/**
 * Reading channels: the list by priority or id and its pages, the search by id, name, key, group,
 * model and status, and one channel whole with its key; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, assertRefused } from './helpers.ts'
import { channelsSuite, base } from './channels-fixture.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('lists by priority then id, or by id, without keys, paged from 0', async () => {
      const low = await fx.create({ name: 'low', priority: 0 })
      const high = await fx.create({ name: 'high', priority: 5 })
      const mid = await fx.create({ name: 'mid', priority: 2 })
      const low2 = await fx.create({ name: 'low2', priority: 0 })
      const r = await fx.admin.get('/api/channel/?p=0')
      assert.equal(r.body.success, true)
      assert.deepEqual(
        r.body.data.map((c: { id: number }) => c.id),
        [high.id, mid.id, low2.id, low.id],
      )
      assert.ok(r.body.data.every((c: Record<string, unknown>) => !('key' in c)))
      const byId = await fx.admin.get('/api/channel/?p=0&id_sort=true')
      assert.deepEqual(
        byId.body.data.map((c: { id: number }) => c.id),
        [low2.id, mid.id, high.id, low.id],
      )
      const page1 = await fx.admin.get('/api/channel/?p=1&page_size=3')
      assert.deepEqual(
        page1.body.data.map((c: { id: number }) => c.id),
        [low.id],
      )
      const page0 = await fx.admin.get('/api/channel/?p=0&page_size=3')
      assert.equal(page0.body.data.length, 3)
    })

    it('uses 10 a page by default and at most 100', async () => {
      await fx.admin.post('/api/channel/', { ...base, key: Array.from({ length: 105 }, (_, i) => `sk-${i}`).join('\n') })
      assert.equal((await fx.admin.get('/api/channel/')).body.data.length, 10)
      assert.equal((await fx.admin.get('/api/channel/?page_size=500')).body.data.length, 100)
      assert.equal((await fx.admin.get('/api/channel/?page_size=100&p=1')).body.data.length, 5)
      assert.equal((await fx.admin.get('/api/channel/?page_size=-1')).body.data.length, 10)
      assertRefused(await fx.admin.get('/api/channel/?p=-1'))
      assertRefused(await fx.admin.get('/api/channel/?p=abc'))
    })

    it('searches by id, name, exact key, group, model and status', async () => {
      const a = await fx.create({ name: 'Alpha 50%', key: 'sk-alpha-secret', group: 'default,vip', models: 'gpt-4o' })
      const b = await fx.create({ name: 'beta', key: 'sk-beta', group: 'svip', models: 'gpt-4o-mini,claude-3-haiku-20240307', status: 2 })
      const ids = async (query: string) => {
        const r = await fx.admin.get(`/api/channel/search?${query}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.ok(r.body.data.every((c: Record<string, unknown>) => !('key' in c)))
        return r.body.data.map((c: { id: number }) => c.id).sort()
      }
      assert.deepEqual(await ids(`keyword=${a.id}`), [a.id])
      assert.deepEqual(await ids('keyword=alp'), [a.id], 'name contains, any case')
      assert.deepEqual(await ids('keyword=50%25'), [a.id], 'a literal percent sign')
      assert.deepEqual(await ids('keyword=%25'), [a.id], 'percent is not a wildcard')
      assert.deepEqual(await ids('keyword=_'), [], 'underscore is not a wildcard')
      assert.deepEqual(await ids('keyword=sk-alpha-secret'), [a.id], 'exact key')
      assert.deepEqual(await ids('keyword=sk-alpha'), [], 'no partial key match')
      assert.deepEqual(await ids('group=vip'), [a.id])
      assert.deepEqual(await ids('group=svip'), [b.id])
      assert.deepEqual(await ids('model=gpt-4o'), [a.id], 'gpt-4o does not match gpt-4o-mini')
      assert.deepEqual(await ids('model=claude-3-haiku-20240307'), [b.id])
      assert.deepEqual(await ids('status=2'), [b.id])
      assert.deepEqual(await ids('status=1'), [a.id])
      assert.deepEqual(await ids('status='), [a.id, b.id].sort())
      assert.deepEqual(await ids(''), [a.id, b.id].sort())
      assert.deepEqual(await ids('keyword=beta&status=1'), [])
      assertRefused(await fx.admin.get('/api/channel/search?status=9'))
    })

    it('returns one channel whole, key included', async () => {
      const ch = await fx.create({ key: 'sk-full', model_mapping: '{"a":"b"}' })
      const r = await fx.admin.get(`/api/channel/${ch.id}`)
      assert.equal(r.body.success, true)
      assert.equal(r.body.data.key, 'sk-full')
      assert.equal(r.body.data.model_mapping, '{"a":"b"}')
      for (const f of [
        'id',
        'name',
        'type',
        'key',
        'openai_organization',
        'max_input_tokens',
        'base_url',
        'other',
        'model_mapping',
        'status_code_mapping',
        'models',
        'group',
        'auto_ban',
        'test_model',
        'status',
        'response_time',
        'balance',
        'used_quota',
        'priority',
        'weight',
        'created_time',
        'test_time',
        'balance_updated_time',
      ]) {
        assert.ok(f in r.body.data, `channel lacks ${f}`)
      }
      const missing = await fx.admin.get('/api/channel/999999')
      assert.deepEqual([missing.status, missing.body.success], [200, false])
      assert.notEqual((await fx.admin.get('/api/channel/abc')).status, 200)
    })
  })
}
