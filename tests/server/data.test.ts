import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, Client, type TestServer, assertRefused } from './helpers.ts'
import { refillModelTotals } from '../../server/db/quota-data.ts'

const H = 3600
const T0 = 1_700_000_000 - (1_700_000_000 % H)

for (const dialect of dialects) {
  describe(`data dashboard (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let ann: Client & { id: number; username: string }
    let ben: Client & { id: number; username: string }
    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      ann = await s.user({ username: 'ann' })
      ben = await s.user({ username: 'ben' })
      const bucket = (u: { id: number; username: string }, model: string, hour: number, count: number) => ({
        user_id: u.id,
        username: u.username,
        model_name: model,
        created_at: T0 + hour * H,
        count,
        quota: count * 100,
        token_used: count * 10,
      })
      await s.ctx.db
        .insertInto('quota_data')
        .values([
          bucket(ann, 'gpt-4o', 0, 1),
          bucket(ann, 'gpt-4o', 1, 2),
          bucket(ann, 'claude', 1, 3),
          bucket(ben, 'gpt-4o', 1, 4),
          bucket(ben, 'gpt-4o', 2, 5),
          bucket(ben, 'gpt-4o', 24 * 40, 6),
        ])
        .execute()
      await refillModelTotals(s.ctx.db)
    })
    after(() => s.close())

    it('sums every user by model and hour for an admin', async () => {
      const r = await root.get(`/api/data/?start_timestamp=${T0}&end_timestamp=${T0 + 2 * H}`)
      assert.equal(r.body.success, true)
      const rows = (r.body.data as any[]).map((d) => [d.model_name, d.created_at - T0, d.count, d.quota, d.token_used])
      assert.deepEqual(rows, [
        ['gpt-4o', 0, 1, 100, 10],
        ['claude', H, 3, 300, 30],
        ['gpt-4o', H, 6, 600, 60],
        ['gpt-4o', 2 * H, 5, 500, 50],
      ])
    })

    it('sends the rows as the family sends them: these fields, numbers as numbers, names escaped', async () => {
      const odd = 'gpt-"quoted"\\模型\n'
      await s.ctx.db
        .insertInto('quota_data')
        .values({
          user_id: ann.id,
          username: ann.username,
          model_name: odd,
          created_at: T0 + 50 * H,
          count: 7,
          quota: 2 ** 40,
          token_used: 70,
        })
        .execute()
      await refillModelTotals(s.ctx.db)
      try {
        const range = `start_timestamp=${T0 + 50 * H}&end_timestamp=${T0 + 50 * H}`
        const all = (await root.get(`/api/data/?${range}`)).body.data
        assert.deepEqual(all, [{ model_name: odd, created_at: T0 + 50 * H, count: 7, quota: 2 ** 40, token_used: 70 }])
        assert.deepEqual(Object.keys(all[0]), ['model_name', 'created_at', 'count', 'quota', 'token_used'])
        const own = (await ann.get(`/api/data/self?${range}`)).body.data
        assert.deepEqual(Object.keys(own[0]), ['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'])
        assert.deepEqual([own[0].user_id, own[0].username, own[0].model_name, own[0].quota], [ann.id, 'ann', odd, 2 ** 40])
        assert.equal(typeof own[0].id, 'number')
        const byName = (await root.get(`/api/data/?${range}&username=ann`)).body.data
        assert.deepEqual(byName, own)
        const none = await root.get(`/api/data/?start_timestamp=${T0 - 10 * H}&end_timestamp=${T0 - 9 * H}`)
        assert.deepEqual([none.body.success, none.body.data], [true, []])
        assert.deepEqual((await ann.get(`/api/data/self?start_timestamp=${T0 - 10 * H}&end_timestamp=${T0 - 9 * H}`)).body.data, [])
      } finally {
        await s.ctx.db.deleteFrom('quota_data').where('model_name', '=', odd).execute()
        await refillModelTotals(s.ctx.db)
      }
    })

    it("gives an admin one user's own rows by username", async () => {
      const r = await root.get(`/api/data/?start_timestamp=${T0}&end_timestamp=${T0 + 100 * 24 * H}&username=ben`)
      const rows = r.body.data as any[]
      assert.deepEqual(
        rows.map((d) => d.count),
        [4, 5, 6],
      )
      assert.ok(rows.every((d) => d.username === 'ben' && d.user_id === ben.id))
    })

    it('gives a user only their own rows, within 30 days', async () => {
      const r = await ann.get(`/api/data/self?start_timestamp=${T0}&end_timestamp=${T0 + 3 * H}`)
      assert.equal(r.body.success, true)
      const rows = r.body.data as any[]
      assert.deepEqual(
        rows.map((d) => [d.model_name, d.count]),
        [
          ['gpt-4o', 1],
          ['claude', 3],
          ['gpt-4o', 2],
        ],
      )
      assert.ok(rows.every((d) => d.user_id === ann.id))
      const mine = (await ben.get(`/api/data/self?start_timestamp=${T0}&end_timestamp=${T0 + 3 * H}`)).body.data as any[]
      assert.deepEqual(
        mine.map((d) => d.count),
        [4, 5],
      )
      const long = await ann.get(`/api/data/self?start_timestamp=${T0}&end_timestamp=${T0 + 30 * 24 * H + 1}`)
      assert.equal(long.body.success, false)
      assert.match(long.body.message, /30 days/)
      const zh = { 'accept-language': 'zh-CN' }
      const longZh = await ann.call('GET', `/api/data/self?start_timestamp=${T0}&end_timestamp=${T0 + 30 * 24 * H + 1}`, undefined, zh)
      assert.equal(longZh.body.message, '时间跨度过长：每次最多查询 30 天')
      const reversed = await root.call('GET', `/api/data/?start_timestamp=${T0 + 10}&end_timestamp=${T0}`, undefined, zh)
      assert.deepEqual([reversed.body.message, reversed.body.data.field], ['end_timestamp 不能早于 start_timestamp', 'end_timestamp'])
      assert.equal((await ann.get(`/api/data/self?start_timestamp=${T0}&end_timestamp=${T0 + 30 * 24 * H}`)).body.success, true)
    })

    it('answers a range of days hour by hour, the models of an hour in order, however long the range', async () => {
      const cat = await s.user({ username: 'cat' })
      const D = 24 * H
      const base = T0 - (T0 % D) + 200 * D
      const rows = [
        [0, 23, 'b-model'],
        [1, 0, 'gpt-4o'],
        [1, 0, 'a-model'],
        [1, 13, 'b-model'],
        [2, 23, 'gpt-4o'],
        [2, 23, 'a-model'],
        [3, 7, 'gpt-4o'],
        [4, 5, 'a-model'],
        [5, 1, 'gpt-4o'],
      ].map(([day, hour, model], i) => ({
        user_id: cat.id,
        username: 'cat',
        model_name: model as string,
        created_at: base + (day as number) * D + (hour as number) * H,
        count: i + 1,
        quota: 1,
        token_used: 1,
      }))
      await s.ctx.db.insertInto('quota_data').values(rows).execute()
      const [start, end] = [base + 12 * H, base + 4 * D + 12 * H]
      const want = rows
        .filter((r) => r.created_at >= start && r.created_at <= end)
        .sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : 1))
        .map((r) => [r.created_at, r.model_name, r.count])
      const got = (body: { data: any[] }) => body.data.map((d) => [d.created_at, d.model_name, d.count])
      assert.deepEqual(got((await cat.get(`/api/data/self?start_timestamp=${start}&end_timestamp=${end}`)).body), want, 'own, day by day')
      const byName = (await root.get(`/api/data/?username=cat&start_timestamp=${start}&end_timestamp=${end}`)).body
      assert.deepEqual(got(byName), want, 'by name, day by day')
      const [from, to] = [base - 10 * D, base + 15 * D]
      const everything = [...rows]
        .sort((a, b) => a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : 1))
        .map((r) => [r.created_at, r.model_name, r.count])
      const halves = (await cat.get(`/api/data/self?start_timestamp=${from}&end_timestamp=${to}`)).body
      assert.deepEqual(got(halves), everything, '25 days, read in two halves')
      const long = (await root.get(`/api/data/?username=cat&start_timestamp=${start - 200 * D}&end_timestamp=${end}`)).body
      assert.deepEqual(got(long), want, 'a range of 200 days, grouped and sorted')
    })

    it('refuses bad ranges and keeps the admin call from users', async () => {
      assert.equal((await ann.get('/api/data/')).status, 403)
      assert.equal((await s.anon.get('/api/data/self')).status, 401)
      for (const q of ['start_timestamp=x', 'end_timestamp=-1', `start_timestamp=${T0 + 10}&end_timestamp=${T0}`]) {
        const r = await root.get(`/api/data/?${q}`)
        assertRefused(r, q)
        assert.match(r.body.message, /timestamp/)
      }
    })
  })
}
