/**
 * Creating channels: the abilities written with them, one channel per key line, the fields normalised
 * or refused by name, and nothing written on a refusal; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, assertRefused } from './helpers.ts'
import { channelsSuite, base } from './channels-fixture.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('creates a channel with its abilities, without sending the key back', async () => {
      const r = await fx.admin.post('/api/channel/', { ...base, group: 'default, vip', models: 'gpt-4o, gpt-4o-mini,,gpt-4o' })
      assert.equal(r.status, 200)
      assert.equal(r.body.success, true)
      assert.equal(r.body.message, 'channel created')
      assert.equal(r.body.data.length, 1)
      const ch = r.body.data[0]
      assert.equal(ch.key, undefined)
      assert.equal(ch.name, 'main')
      assert.equal(ch.models, 'gpt-4o,gpt-4o-mini')
      assert.equal(ch.group, 'default,vip')
      assert.equal(ch.status, 1)
      assert.equal(ch.auto_ban, 1)
      assert.ok(ch.created_time > 0)
      const stored = await fx.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.equal(stored.key, 'sk-one')
      const rows = await fx.abilities(ch.id)
      assert.deepEqual(
        rows.map((a) => [a.group, a.model, a.enabled]),
        [
          ['default', 'gpt-4o', 1],
          ['default', 'gpt-4o-mini', 1],
          ['vip', 'gpt-4o', 1],
          ['vip', 'gpt-4o-mini', 1],
        ],
      )
      assert.deepEqual(fx.events, [ch.id])
    })

    it('refuses a new channel without name, key or models, writing nothing', async () => {
      for (const body of [{ name: '' }, { key: '' }, { key: ' \n \n' }, { name: '   ' }]) {
        const r = await fx.admin.post('/api/channel/', { ...base, ...body })
        assert.deepEqual([r.status, r.body.success, r.body.message], [200, false, 'please fill in the channel name and key'])
      }
      for (const body of [{ models: '' }, { models: ' , ,' }, { models: undefined }]) {
        const r = await fx.admin.post('/api/channel/', { ...base, ...body })
        assert.deepEqual([r.status, r.body.success, r.body.message], [200, false, 'choose at least one model'])
      }
      assert.equal((await fx.s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await fx.abilities()).length, 0)
      assert.deepEqual(fx.events, [])
    })

    it('creates one channel per key line, skipping blank lines', async () => {
      const r = await fx.admin.post('/api/channel/', { ...base, key: 'sk-a\n\n  sk-b  \r\n\nsk-c\n' })
      assert.equal(r.body.success, true)
      assert.equal(r.body.data.length, 3)
      const rows = await fx.s.ctx.db.selectFrom('channels').select(['id', 'key', 'name']).orderBy('id').execute()
      assert.deepEqual(
        rows.map((x) => x.key),
        ['sk-a', 'sk-b', 'sk-c'],
      )
      assert.ok(rows.every((x) => x.name === 'main'))
      assert.equal((await fx.abilities()).length, 6)
      assert.deepEqual(fx.events.sort(), rows.map((x) => x.id).sort())
    })

    it('normalises base_url, other, weight and the JSON mappings', async () => {
      const a = await fx.create({ base_url: 'https://example.com/api//', weight: -5, priority: -999 })
      assert.equal(a.base_url, 'https://example.com/api')
      assert.equal(a.weight, 0)
      assert.equal(a.priority, -999)
      const azure = await fx.create({ type: 3, other: '' })
      assert.equal(azure.other, '2023-06-01-preview')
      const azureSet = await fx.create({ type: 3, other: '2024-02-01' })
      assert.equal(azureSet.other, '2024-02-01')
      const spark = await fx.create({ type: 18 })
      assert.equal(spark.other, 'v2.1')
      const plain = await fx.create({ type: 1, other: '' })
      assert.equal(plain.other, '')
      const mapped = await fx.create({
        model_mapping: '{"gpt-4o-2024":"gpt-4o"}',
        status_code_mapping: '{"400":"500"}',
        priority: '',
        weight: null,
      })
      assert.equal(mapped.model_mapping, '{"gpt-4o-2024":"gpt-4o"}')
      assert.equal(mapped.status_code_mapping, '{"400":"500"}')
      assert.equal(mapped.priority, 0)
      assert.equal(mapped.weight, 0)
    })

    it('refuses, naming the field, bad mappings, priority and base_url, writing nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ model_mapping: '{not json' }, 'model_mapping'],
        [{ model_mapping: '["a"]' }, 'model_mapping'],
        [{ model_mapping: '{"a":1}' }, 'model_mapping'],
        [{ status_code_mapping: '{"400":"abc"}' }, 'status_code_mapping'],
        [{ status_code_mapping: 'null' }, 'status_code_mapping'],
        [{ priority: -1000 }, 'priority'],
        [{ priority: 1e30 }, 'priority'],
        [{ type: '1' }, 'type'],
        [{ type: 1.5 }, 'type'],
        [{ base_url: 'ftp://example.com' }, 'base_url'],
        [{ base_url: 'not a url' }, 'base_url'],
        [{ models: 'x'.repeat(256) }, 'models'],
        [{ group: 'g'.repeat(65) }, 'group'],
        [{ status: 7 }, 'status'],
        [{ auto_ban: 2 }, 'auto_ban'],
        [{ name: 'n'.repeat(129) }, 'name'],
      ]
      for (const [body, field] of cases) {
        const r = await fx.admin.post('/api/channel/', { ...base, ...body })
        assertRefused(r, `${JSON.stringify(body)} -> ${r.status} ${r.body.message}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, new RegExp(`^${field}\\b`), r.body.message)
        assert.equal(r.body.data?.field, field)
      }
      assert.equal((await fx.s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await fx.abilities()).length, 0)
    })

    it('accepts auto_ban as a boolean and stores it as 0/1', async () => {
      const ch = await fx.create({ auto_ban: false })
      assert.equal(ch.auto_ban, 0)
      const r = await fx.admin.put('/api/channel/', { id: ch.id, auto_ban: true })
      assert.equal(r.body.data.auto_ban, 1)
    })
  })
}
