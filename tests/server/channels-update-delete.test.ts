/**
 * Updating and deleting channels, with the abilities kept in step (also under concurrent calls), and
 * the abilities rebuilt from the channels table; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, assertRefused } from './helpers.ts'
import { channelsSuite } from './channels-fixture.ts'
import { abilitiesOf } from '../../server/db/abilities.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('updates partially and rebuilds abilities in step', async () => {
      const ch = await fx.create({ group: 'default,vip' })
      fx.events.length = 0
      let r = await fx.admin.put('/api/channel/', { id: ch.id, status: 2 })
      assert.equal(r.body.success, true)
      assert.equal(r.body.message, 'channel updated')
      assert.equal(r.body.data.status, 2)
      assert.equal(r.body.data.key, undefined)
      assert.ok((await fx.abilities(ch.id)).every((a) => a.enabled === 0))
      r = await fx.admin.put('/api/channel/', { id: ch.id, status: 1 })
      assert.ok((await fx.abilities(ch.id)).every((a) => a.enabled === 1))
      r = await fx.admin.put('/api/channel/', { id: ch.id, priority: 7 })
      assert.equal(r.body.data.priority, 7)
      assert.ok((await fx.abilities(ch.id)).every((a) => a.priority === 7))
      r = await fx.admin.put('/api/channel/', { id: ch.id, weight: 3 })
      assert.ok((await fx.abilities(ch.id)).every((a) => a.weight === 3 && a.priority === 7))
      r = await fx.admin.put('/api/channel/', { id: ch.id, weight: -3 })
      assert.equal(r.body.data.weight, 0)
      r = await fx.admin.put('/api/channel/', { id: ch.id, priority: '', weight: '' })
      assert.equal(r.body.data.priority, 7, 'an empty priority is ignored')
      r = await fx.admin.put('/api/channel/', { id: ch.id, models: 'o1', group: 'svip' })
      assert.deepEqual(
        (await fx.abilities(ch.id)).map((a) => [a.group, a.model]),
        [['svip', 'o1']],
      )
      r = await fx.admin.put('/api/channel/', { id: ch.id, group: '' })
      assert.equal(r.body.data.group, 'default')
      assert.equal(fx.events.length, 8)
      assert.ok(fx.events.every((e) => e === ch.id))
    })

    it('keeps the old key when the update leaves it empty or out', async () => {
      const ch = await fx.create({ key: 'sk-original' })
      const key = async () => (await fx.s.ctx.db.selectFrom('channels').select('key').where('id', '=', ch.id).executeTakeFirstOrThrow()).key
      await fx.admin.put('/api/channel/', { id: ch.id, key: '', name: 'renamed' })
      assert.equal(await key(), 'sk-original')
      await fx.admin.put('/api/channel/', { id: ch.id, name: 'renamed again' })
      assert.equal(await key(), 'sk-original')
      await fx.admin.put('/api/channel/', { id: ch.id, key: '  sk-new  ' })
      assert.equal(await key(), 'sk-new')
    })

    it('validates the fields an update carries', async () => {
      const ch = await fx.create({ type: 1 })
      const before = await fx.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.equal((await fx.admin.put('/api/channel/', { id: ch.id, models: ' , ' })).body.message, 'choose at least one model')
      assert.equal((await fx.admin.put('/api/channel/', { id: ch.id, name: '' })).body.message, 'please fill in the channel name and key')
      assertRefused(await fx.admin.put('/api/channel/', { id: ch.id, model_mapping: '{' }))
      assertRefused(await fx.admin.put('/api/channel/', { id: ch.id, priority: -1000 }))
      assertRefused(await fx.admin.put('/api/channel/', { id: 'x', status: 1 }))
      assertRefused(await fx.admin.put('/api/channel/', { status: 1 }))
      const after = await fx.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.deepEqual(after, before)
      const missing = await fx.admin.put('/api/channel/', { id: 999999, status: 2 })
      assert.deepEqual([missing.body.success, missing.body.message], [false, 'channel not found, refresh and retry'])
      const azure = await fx.admin.put('/api/channel/', { id: ch.id, type: 3 })
      assert.equal(azure.body.data.other, '2023-06-01-preview')
      const base2 = await fx.admin.put('/api/channel/', { id: ch.id, base_url: 'http://127.0.0.1:9/' })
      assert.equal(base2.body.data.base_url, 'http://127.0.0.1:9')
    })

    it('keeps abilities equal to the channels under concurrent updates and deletes', async () => {
      const chans = []
      for (let i = 0; i < 6; i++) chans.push(await fx.create({ group: 'default,vip' }))
      const calls = []
      for (let i = 0; i < 48; i++) {
        const ch = chans[i % 6]!
        calls.push(fx.admin.put('/api/channel/', { id: ch.id, models: `m${i},shared`, status: i % 3 ? 1 : 2, priority: i }))
        if (i === 10) calls.push(fx.admin.del(`/api/channel/${chans[3]!.id}/`))
        if (i === 20) calls.push(fx.admin.del(`/api/channel/${chans[4]!.id}`))
        if (i === 30) calls.push(fx.admin.post('/api/channel/batch', { ids: [chans[5]!.id] }))
        if (i === 15) calls.push(fx.admin.post('/api/channel/fix'))
      }
      const replies = await Promise.all(calls)
      for (const r of replies) assert.equal(r.status, 200, r.body.message)
      const key = (a: { group: string; model: string; channel_id: number }) => `${a.channel_id}/${a.group}/${a.model}`
      const channels = await fx.s.ctx.db.selectFrom('channels').selectAll().execute()
      const want = channels.flatMap(abilitiesOf).sort((a, b) => key(a).localeCompare(key(b)))
      const got = (await fx.abilities()).map((a) => ({ ...a })).sort((a, b) => key(a).localeCompare(key(b)))
      assert.deepEqual(got, want)
      assert.deepEqual(
        channels.map((c) => c.id).sort(),
        chans
          .slice(0, 3)
          .map((c) => c.id)
          .sort(),
      )
    })

    it('deletes one channel (with or without the slash) and its abilities', async () => {
      const a = await fx.create({})
      const b = await fx.create({})
      fx.events.length = 0
      assert.equal((await fx.admin.del(`/api/channel/${a.id}/`)).body.success, true)
      assert.equal((await fx.admin.del(`/api/channel/${b.id}`)).body.success, true)
      assert.equal((await fx.s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await fx.abilities()).length, 0)
      assert.deepEqual(fx.events, [a.id, b.id])
      const again = await fx.admin.del(`/api/channel/${a.id}/`)
      assert.deepEqual([again.status, again.body.success], [200, false])
    })

    it('deletes disabled channels and a batch, answering counts', async () => {
      const on = await fx.create({ status: 1 })
      const off = await fx.create({ status: 2 })
      const auto = await fx.create({ status: 3 })
      const r = await fx.admin.del('/api/channel/disabled')
      assert.deepEqual([r.body.success, r.body.data], [true, 2])
      assert.deepEqual(
        (await fx.s.ctx.db.selectFrom('channels').select('id').execute()).map((x) => x.id),
        [on.id],
      )
      assert.deepEqual([...new Set((await fx.abilities()).map((a) => a.channel_id))], [on.id])
      assert.ok(fx.events.includes(off.id) && fx.events.includes(auto.id))
      const x = await fx.create({})
      const y = await fx.create({})
      const batch = await fx.admin.post('/api/channel/batch', { ids: [x.id, y.id, x.id, 999999] })
      assert.deepEqual([batch.body.success, batch.body.data], [true, 2])
      assert.deepEqual(
        (await fx.s.ctx.db.selectFrom('channels').select('id').execute()).map((c) => c.id),
        [on.id],
      )
      assert.deepEqual([...new Set((await fx.abilities()).map((a) => a.channel_id))], [on.id])
      const none = await fx.admin.post('/api/channel/batch', { ids: [] })
      assert.deepEqual([none.body.success, none.body.message], [false, 'select channels to delete first'])
    })

    it('fixes abilities of every channel from the channels table', async () => {
      const a = await fx.create({ group: 'default,vip' })
      const b = await fx.create({ status: 2 })
      await fx.s.ctx.db.deleteFrom('abilities').where('channel_id', '=', a.id).execute()
      await fx.s.ctx.db
        .insertInto('abilities')
        .values({ group: 'stale', model: 'gone', channel_id: 424242, enabled: 1, priority: 0, weight: 0 })
        .execute()
      await fx.s.ctx.db.updateTable('abilities').set({ enabled: 1 }).where('channel_id', '=', b.id).execute()
      fx.events.length = 0
      const r = await fx.admin.post('/api/channel/fix')
      assert.deepEqual([r.body.success, r.body.data], [true, 2])
      const rows = await fx.abilities()
      assert.equal(rows.filter((x) => x.channel_id === a.id).length, 4)
      assert.ok(rows.filter((x) => x.channel_id === b.id).every((x) => x.enabled === 0))
      assert.equal(rows.filter((x) => x.channel_id === 424242).length, 0)
      assert.deepEqual(fx.events, [undefined])
    })
  })
}
