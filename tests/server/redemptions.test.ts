import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, Client, type TestServer, assertRefused, rootServer } from './helpers.ts'

for (const dialect of dialects) {
  describe(`redemptions (${dialect})`, () => {
    let s: TestServer
    let root: Client
    rootServer(dialect, (server, client) => ([s, root] = [server, client]))

    const byKey = (key: string) => s.ctx.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow()
    const quotaOf = async (id: number) =>
      (await s.ctx.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota
    const make = async (name: string, quota: number, count = 1) =>
      (await root.post('/api/redemption/', { name, quota, count })).body.data as string[]

    it('creates count unique 32-character codes and answers them', async () => {
      const r = await root.post('/api/redemption/', { name: 'promo', quota: 100000, count: 25 })
      assert.equal(r.body.success, true, r.body.message)
      const keys = r.body.data as string[]
      assert.equal(keys.length, 25)
      assert.equal(new Set(keys).size, 25)
      for (const k of keys) assert.match(k, /^[A-Za-z0-9]{32}$/)
      const row = await byKey(keys[0]!)
      assert.deepEqual([row.name, row.quota, row.status, row.used_user_id, row.user_id], ['promo', 100000, 1, 0, 1])
    })

    it('refuses bad names, quotas and counts naming the field', async () => {
      const before = (await s.ctx.db.selectFrom('redemptions').select('id').execute()).length
      for (const [body, field] of [
        [{ name: '', quota: 1, count: 1 }, 'name'],
        [{ name: 'x'.repeat(21), quota: 1, count: 1 }, 'name'],
        [{ name: 'a', quota: 0, count: 1 }, 'quota'],
        [{ name: 'a', quota: -3, count: 1 }, 'quota'],
        [{ name: 'a', quota: 2.5, count: 1 }, 'quota'],
        [{ name: 'a', quota: 1, count: 0 }, 'count'],
        [{ name: 'a', quota: 1, count: 101 }, 'count'],
        [{ name: 'a', quota: '5', count: 1 }, 'quota'],
      ] as const) {
        const r = await root.post('/api/redemption/', body)
        assertRefused(r, JSON.stringify(body))
        assert.match(r.body.message, new RegExp(field))
      }
      assert.equal((await s.ctx.db.selectFrom('redemptions').select('id').execute()).length, before)
    })

    it('lists ten a page newest first, reads one, searches by id or name', async () => {
      await make('listing', 5, 12)
      const page0 = (await root.get('/api/redemption/?p=0')).body.data as any[]
      assert.equal(page0.length, 10)
      assert.deepEqual(
        page0.map((r) => r.id),
        [...page0.map((r) => r.id)].sort((a, b) => b - a),
      )
      const one = await root.get(`/api/redemption/${page0[0].id}`)
      assert.equal(one.body.data.name, 'listing')
      assert.equal((await root.get('/api/redemption/99999')).body.success, false)
      const found = (await root.get('/api/redemption/search?keyword=list')).body.data as any[]
      assert.equal(found.length, 12)
      const byId = (await root.get(`/api/redemption/search?keyword=${page0[3].id}`)).body.data as any[]
      assert.ok(byId.some((r) => r.id === page0[3].id))
    })

    it('edits name and quota only while unused and enabled', async () => {
      const [key] = await make('editable', 10)
      const row = await byKey(key!)
      const r = await root.put('/api/redemption/', { id: row.id, name: 'edited', quota: 20 })
      assert.equal(r.body.success, true, r.body.message)
      assert.deepEqual([(await byKey(key!)).name, (await byKey(key!)).quota], ['edited', 20])
      await root.put('/api/redemption/?status_only=true', { id: row.id, status: 2 })
      assert.equal((await root.put('/api/redemption/', { id: row.id, name: 'again', quota: 30 })).body.success, false)
      assert.equal((await byKey(key!)).quota, 20)
    })

    it('disables and re-enables an unused code, never a used one', async () => {
      const [key] = await make('toggle', 10)
      const row = await byKey(key!)
      assert.equal((await root.put('/api/redemption/?status_only=true', { id: row.id, status: 2 })).body.data.status, 2)
      const u = await s.user()
      assert.match((await u.post('/api/user/topup', { key })).body.message, /disabled/)
      assert.equal((await root.put('/api/redemption/?status_only=true', { id: row.id, status: 1 })).body.data.status, 1)
      assert.equal((await u.post('/api/user/topup', { key })).body.success, true)
      const refused = await root.put('/api/redemption/?status_only=true', { id: row.id, status: 1 })
      assert.equal(refused.body.success, false)
      assert.match(refused.body.message, /used/)
      assert.equal((await byKey(key!)).status, 3)
      assertRefused(await root.put('/api/redemption/?status_only=true', { id: row.id, status: 3 }))
    })

    it('redeems once: quota added, code marked used, top-up log written', async () => {
      const [key] = await make('gift', 12345)
      const u = await s.user({ quota: 100 })
      const r = await u.post('/api/user/topup', { key })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(r.body.data, 12345)
      assert.equal(await quotaOf(u.id), 12445)
      const row = await byKey(key!)
      assert.equal(row.status, 3)
      assert.equal(row.used_user_id, u.id)
      assert.ok(row.redeemed_time > 0)
      const logs = await s.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', u.id).execute()
      assert.equal(logs.length, 1)
      assert.equal(logs[0]!.type, 1)
      assert.match(logs[0]!.content, /12345/)
      assert.match(logs[0]!.content, new RegExp(`\\b${row.id}\\b`))

      const again = await u.post('/api/user/topup', { key })
      assert.equal(again.body.success, false)
      assert.match(again.body.message, /already been used/)
      const other = await s.user({ quota: 0 })
      assert.equal((await other.post('/api/user/topup', { key })).body.success, false)
      assert.equal(await quotaOf(u.id), 12445)
      assert.equal(await quotaOf(other.id), 0)
    })

    it('answers an unknown or empty code clearly and changes nothing', async () => {
      const u = await s.user({ quota: 5 })
      assert.match((await u.post('/api/user/topup', { key: 'nope'.repeat(8) })).body.message, /invalid redemption code/)
      assert.match((await u.post('/api/user/topup', { key: '' })).body.message, /please enter redemption code/)
      assertRefused(await u.post('/api/user/topup', { key: 5 }))
      assert.equal(await quotaOf(u.id), 5)
      assert.equal((await s.anon.post('/api/user/topup', { key: 'x' })).status, 401)
    })

    it('deletes with and without the trailing slash', async () => {
      const [a, b] = await make('gone', 1, 2)
      const ra = await byKey(a!)
      const rb = await byKey(b!)
      assert.equal((await root.del(`/api/redemption/${ra.id}/`)).body.success, true)
      assert.equal((await root.del(`/api/redemption/${rb.id}`)).body.success, true)
      assert.equal((await root.del(`/api/redemption/${rb.id}`)).body.success, false)
      assert.equal(await s.ctx.db.selectFrom('redemptions').select('id').where('id', 'in', [ra.id, rb.id]).executeTakeFirst(), undefined)
    })
  })
}
