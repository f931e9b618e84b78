import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, type TestServer, assertRefused } from './helpers.ts'

const now = () => Math.floor(Date.now() / 1000)

for (const dialect of dialects) {
  describe(`tokens (${dialect})`, () => {
    let s: TestServer
    const events: Array<[string, number | undefined]> = []
    before(async () => {
      s = await startServer(dialect)
      s.ctx.bus.on((kind, id) => events.push([kind, id]))
    })
    after(() => s.close())

    const stored = (id: number) => s.ctx.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

    it('creates a token with a 48-character key and answers it', async () => {
      const u = await s.user()
      const r = await u.post('/api/token/', {
        name: 'my key',
        remain_quota: 500000,
        expired_time: -1,
        model_limits: 'gpt-4o, gpt-4o-mini,,gpt-4o',
        model_limits_enabled: true,
        unlimited_quota: false,
      })
      assert.equal(r.body.success, true, r.body.message)
      const t = r.body.data
      assert.match(t.key, /^[A-Za-z0-9]{48}$/)
      assert.equal(t.name, 'my key')
      assert.equal(t.status, 1)
      assert.equal(t.remain_quota, 500000)
      assert.equal(t.expired_time, -1)
      assert.equal(t.model_limits, 'gpt-4o,gpt-4o-mini')
      assert.equal(t.model_limits_enabled, true)
      assert.equal(t.unlimited_quota, false)
      assert.equal(t.user_id, u.id)
      const row = await stored(t.id)
      assert.equal(row.key, t.key, 'stored without the sk- prefix')
      assert.equal(row.model_limits_enabled, 1)
      const again = await u.post('/api/token/', { name: 'my key', remain_quota: 1 })
      assert.notEqual(again.body.data.key, t.key)
    })

    it('refuses a missing or over-long name and bad numbers naming the field', async () => {
      const u = await s.user()
      const cases: Array<[unknown, string]> = [
        [{ remain_quota: 1 }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(31) }, 'name'],
        [{ name: 'a', remain_quota: -5 }, 'remain_quota'],
        [{ name: 'a', remain_quota: 1.5 }, 'remain_quota'],
        [{ name: 'a', remain_quota: 1e300 }, 'remain_quota'],
        [{ name: 'a', expired_time: 0 }, 'expired_time'],
        [{ name: 'a', expired_time: Date.now() * 1000 }, 'expired_time'],
        [{ name: 'a', unlimited_quota: 'yes' }, 'unlimited_quota'],
        [{ name: 'a', model_limits: 'm'.repeat(2000) }, 'model_limits'],
      ]
      for (const [body, field] of cases) {
        const r = await u.post('/api/token/', body)
        assertRefused(r, JSON.stringify(body))
        assert.match(r.body.message, new RegExp(field))
      }
      assert.equal((await s.ctx.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).execute()).length, 0)
    })

    it('refuses model limits that are on with no model chosen, on create and update, in both languages', async () => {
      const u = await s.user()
      const zh = { 'accept-language': 'zh-CN' }
      for (const limits of ['', ' , ,', undefined]) {
        const r = await u.post('/api/token/', { name: 'nothing allowed', model_limits_enabled: true, model_limits: limits })
        assertRefused(r, `create with ${JSON.stringify(limits)}`, 'model_limits')
        assert.equal(r.body.message, 'choose at least one model, or turn the model limit off')
      }
      const inZh = await u.call('POST', '/api/token/', { name: 'x', model_limits_enabled: true, model_limits: '' }, zh)
      assert.equal(inZh.body.message, '请至少选择一个模型，或关闭模型限制')
      assert.equal((await s.ctx.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).execute()).length, 0)
      const t = (await u.post('/api/token/', { name: 'limited', model_limits_enabled: true, model_limits: 'a' })).body.data
      const off = (await u.post('/api/token/', { name: 'free', model_limits_enabled: false, model_limits: '' })).body.data
      assertRefused(await u.put('/api/token/', { id: t.id, model_limits: '' }), 'clearing the models of an on limit', 'model_limits')
      assertRefused(
        await u.put('/api/token/', { id: off.id, model_limits_enabled: true }),
        'turning on a limit with no model',
        'model_limits',
      )
      assertRefused(await u.put('/api/token/', { ...t, model_limits: '' }), 'the full form with no model', 'model_limits')
      assert.deepEqual([(await stored(t.id)).model_limits, (await stored(off.id)).model_limits_enabled], ['a', 0])
      assert.equal((await u.put('/api/token/', { id: t.id, model_limits: '', model_limits_enabled: false })).body.success, true)
      assert.equal((await u.put('/api/token/', { id: off.id, model_limits: 'b', model_limits_enabled: true })).body.success, true)
    })

    it('pages the own tokens, newest first, size default 10 and at most 100', async () => {
      const u = await s.user()
      const other = await s.user()
      await other.post('/api/token/', { name: 'not yours', remain_quota: 1 })
      for (let i = 0; i < 12; i++) await u.post('/api/token/', { name: `t${i}`, remain_quota: 1 })
      const page0 = (await u.get('/api/token/?p=0')).body.data as any[]
      assert.equal(page0.length, 10)
      assert.equal(page0[0].name, 't11')
      assert.deepEqual(
        page0.map((t) => t.id),
        [...page0.map((t) => t.id)].sort((a, b) => b - a),
      )
      assert.deepEqual(
        ((await u.get('/api/token/?p=1')).body.data as any[]).map((t) => t.name),
        ['t1', 't0'],
      )
      assert.equal(((await u.get('/api/token/?p=0&size=5')).body.data as any[]).length, 5)
      assert.equal(((await u.get('/api/token/?p=0&size=1000')).body.data as any[]).length, 12)
      for (const size of ['0', '-1', '']) assert.equal(((await u.get(`/api/token/?p=0&size=${size}`)).body.data as any[]).length, 10, size)
      assertRefused(await u.get('/api/token/?p=x'))
      for (const t of (await u.get('/api/token/?size=100')).body.data as any[]) assert.equal(t.user_id, u.id)
    })

    it('keeps every user to their own tokens', async () => {
      const a = await s.user()
      const b = await s.user()
      const t = (await a.post('/api/token/', { name: 'private', remain_quota: 5 })).body.data
      assert.equal((await b.get(`/api/token/${t.id}`)).body.success, false)
      assert.equal((await b.get(`/api/token/${t.id}`)).body.data, null)
      assert.equal((await b.put('/api/token/', { id: t.id, name: 'stolen' })).body.success, false)
      assert.equal((await b.put('/api/token/?status_only=true', { id: t.id, status: 2 })).body.success, false)
      assert.equal((await b.del(`/api/token/${t.id}/`)).body.success, false)
      assert.deepEqual((await b.get(`/api/token/search?token=${t.key}`)).body.data, [])
      assert.deepEqual((await b.get('/api/token/search?keyword=private')).body.data, [])
      const row = await stored(t.id)
      assert.deepEqual([row.name, row.status], ['private', 1])
      assert.equal((await a.get(`/api/token/${t.id}`)).body.data.name, 'private')
    })

    it('edits a token in full and answers the new token', async () => {
      const u = await s.user()
      const t = (await u.post('/api/token/', { name: 'before', remain_quota: 5 })).body.data
      const r = await u.put('/api/token/', {
        ...t,
        name: 'after',
        remain_quota: 77,
        unlimited_quota: true,
        expired_time: now() + 3600,
        model_limits: 'a,b',
        model_limits_enabled: true,
      })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(r.body.data.name, 'after')
      const row = await stored(t.id)
      assert.deepEqual(
        [row.name, row.remain_quota, row.unlimited_quota, row.model_limits, row.model_limits_enabled, row.key],
        ['after', 77, 1, 'a,b', 1, t.key],
      )
      assertRefused(await u.put('/api/token/', { id: t.id, name: '' }))
    })

    it('reads null as absent on every optional field of create and update', async () => {
      const u = await s.user()
      const optional = ['remain_quota', 'expired_time', 'model_limits', 'model_limits_enabled', 'unlimited_quota']
      const nulls = Object.fromEntries(optional.map((f) => [f, null]))
      const created = await u.post('/api/token/', { name: 'nulls', ...nulls })
      assert.equal(created.body.success, true, created.body.message)
      const row = await stored(created.body.data.id)
      assert.deepEqual(
        [row.remain_quota, row.expired_time, row.model_limits, row.model_limits_enabled, row.unlimited_quota],
        [0, -1, '', 0, 0],
      )
      await u.put('/api/token/', { id: row.id, remain_quota: 9, model_limits: 'a', model_limits_enabled: true })
      const update = await u.put('/api/token/', { id: row.id, name: null, ...nulls })
      assert.equal(update.body.success, true, update.body.message)
      const after = await stored(row.id)
      assert.deepEqual([after.name, after.remain_quota, after.model_limits, after.model_limits_enabled], ['nulls', 9, 'a', 1])
      const unnamed = await u.post('/api/token/', { name: null })
      assertRefused(unnamed, 'a new token needs a name', 'name')
    })

    it("answers in the caller's language, the spec's English otherwise", async () => {
      const u = await s.user()
      const zh = { 'accept-language': 'zh-CN' }
      assert.equal((await u.call('GET', '/api/token/999999', undefined, zh)).body.message, '令牌不存在')
      const t = (await u.post('/api/token/', { name: 'words', remain_quota: 0 })).body.data
      const refused = await u.call('PUT', '/api/token/?status_only=true', { id: t.id, status: 1 }, zh)
      assert.equal(refused.body.message, '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度')
      const status = await u.call('PUT', '/api/token/?status_only=true', { id: t.id, status: 7 }, zh)
      assert.deepEqual([status.body.message, status.body.data.field], ['status 只能是 1（启用）或 2（禁用）', 'status'])
      const updated = await u.call('PUT', '/api/token/', { id: t.id, name: 'renamed' }, zh)
      assert.equal(updated.body.message, '令牌更新成功')
      assert.equal((await u.put('/api/token/', { id: t.id, name: 'again' })).body.message, 'token updated successfully')
      assert.equal((await u.put('/api/token/?status_only=true', { id: t.id, status: 2 })).body.message, 'operation completed successfully')
    })

    it('switches status with status_only and answers data.status', async () => {
      const u = await s.user()
      const t = (await u.post('/api/token/', { name: 'switch', remain_quota: 5 })).body.data
      const off = await u.put('/api/token/?status_only=true', { id: t.id, status: 2 })
      assert.equal(off.body.data.status, 2)
      assert.equal((await stored(t.id)).status, 2)
      const on = await u.put('/api/token/?status_only=true', { id: t.id, status: 1 })
      assert.equal(on.body.data.status, 1)
      assertRefused(await u.put('/api/token/?status_only=true', { id: t.id, status: 3 }))
    })

    it('reports and stores an expired token as 3 and refuses to re-enable it', async () => {
      const u = await s.user()
      const t = (await u.post('/api/token/', { name: 'old', remain_quota: 5, expired_time: now() + 3600 })).body.data
      await s.ctx.db
        .updateTable('tokens')
        .set({ expired_time: now() - 10 })
        .where('id', '=', t.id)
        .execute()
      events.length = 0
      const listed = ((await u.get('/api/token/')).body.data as any[]).find((x) => x.id === t.id)
      assert.equal(listed.status, 3)
      assert.equal((await stored(t.id)).status, 3, 'the expiry is stored')
      assert.deepEqual(events, [['tokens', t.id]])
      const refused = await u.put('/api/token/?status_only=true', { id: t.id, status: 1 })
      assert.equal(refused.body.success, false)
      assert.match(refused.body.message, /expired/)
      assert.equal((await stored(t.id)).status, 3)
      await u.put('/api/token/', { id: t.id, expired_time: -1 })
      assert.equal((await u.put('/api/token/?status_only=true', { id: t.id, status: 1 })).body.data.status, 1)
      const created = (await u.post('/api/token/', { name: 'born old', remain_quota: 5, expired_time: 1000 })).body.data
      assert.equal(created.status, 3)
    })

    it("stores a reached limit on the reader's own enabled tokens only", async () => {
      const other = await s.user()
      const theirs = (await other.post('/api/token/', { name: 'theirs', remain_quota: 5 })).body.data
      await other.put('/api/token/?status_only=true', { id: theirs.id, status: 2 })
      await s.ctx.db.updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', theirs.id).execute()
      const u = await s.user()
      const mine = (await u.post('/api/token/', { name: 'mine', remain_quota: 5 })).body.data
      await s.ctx.db.updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', mine.id).execute()
      events.length = 0
      assert.equal(((await u.get('/api/token/')).body.data as any[])[0].status, 4)
      assert.deepEqual(events, [['tokens', mine.id]])
      assert.equal((await stored(theirs.id)).status, 2, "another user's disabled token keeps its status")
    })

    it('reports and stores an exhausted limited token as 4 and refuses to re-enable it', async () => {
      const u = await s.user()
      const t = (await u.post('/api/token/', { name: 'spent', remain_quota: 5 })).body.data
      const unlimited = (await u.post('/api/token/', { name: 'free', remain_quota: 0, unlimited_quota: true })).body.data
      assert.equal(unlimited.status, 1, 'an unlimited token is never exhausted')
      await s.ctx.db.updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', t.id).execute()
      assert.equal((await u.get(`/api/token/${t.id}`)).body.data.status, 4)
      assert.equal((await stored(t.id)).status, 4)
      const refused = await u.put('/api/token/?status_only=true', { id: t.id, status: 1 })
      assert.equal(refused.body.success, false)
      assert.match(refused.body.message, /used up/)
      await u.put('/api/token/', { id: t.id, remain_quota: 100 })
      assert.equal((await u.put('/api/token/?status_only=true', { id: t.id, status: 1 })).body.data.status, 1)
      assert.equal((await u.get(`/api/token/${unlimited.id}`)).body.data.status, 1)
    })

    it('searches by name and by key, with or without sk-', async () => {
      const u = await s.user()
      const a = (await u.post('/api/token/', { name: 'Alpha key', remain_quota: 1 })).body.data
      const b = (await u.post('/api/token/', { name: 'beta', remain_quota: 1 })).body.data
      const ids = async (q: string) => ((await u.get(`/api/token/search?${q}`)).body.data as any[]).map((t) => t.id)
      assert.deepEqual(await ids('keyword=alpha'), [a.id])
      assert.deepEqual(await ids('keyword=KEY'), [a.id])
      assert.deepEqual(await ids(`token=sk-${b.key}`), [b.id])
      assert.deepEqual(await ids(`token=${b.key}`), [b.id])
      assert.deepEqual(await ids(`token=${b.key.slice(0, 10)}`), [b.id])
      assert.deepEqual(
        await ids(`token=${b.key.slice(0, 10).toLowerCase() === b.key.slice(0, 10) ? 'ZZZZ' : b.key.slice(0, 10).toLowerCase()}`),
        [],
      )
      assert.deepEqual(await ids('keyword=%25'), [])
      assert.deepEqual((await ids('keyword=&token=')).sort(), [a.id, b.id].sort())
    })

    it('deletes with and without the trailing slash', async () => {
      const u = await s.user()
      const a = (await u.post('/api/token/', { name: 'one', remain_quota: 1 })).body.data
      const b = (await u.post('/api/token/', { name: 'two', remain_quota: 1 })).body.data
      events.length = 0
      assert.equal((await u.del(`/api/token/${a.id}/`)).body.success, true)
      assert.equal((await u.del(`/api/token/${b.id}`)).body.success, true)
      assert.equal((await u.del(`/api/token/${b.id}`)).body.success, false)
      assert.deepEqual((await u.get('/api/token/')).body.data, [])
      assert.deepEqual(events, [
        ['tokens', a.id],
        ['tokens', b.id],
      ])
    })

    it('tells the caches after every change', async () => {
      const u = await s.user()
      events.length = 0
      const t = (await u.post('/api/token/', { name: 'watched', remain_quota: 1 })).body.data
      await u.put('/api/token/', { id: t.id, name: 'watched2' })
      await u.put('/api/token/?status_only=true', { id: t.id, status: 2 })
      assert.deepEqual(events, [
        ['tokens', t.id],
        ['tokens', t.id],
        ['tokens', t.id],
      ])
    })
  })
}
