/**
 * The log statistics at scale (issue 15): the whole hours the buckets hold come from them, the
 * partial hours at the ends and the hours not yet written from the rows, and the sum is the same as
 * summing every row. Buckets that would be wrong (tampered with below) show which path answered.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { dialects, startServer, type Client, type TestServer } from './helpers.ts'
import { logStatQuery, type LogFilter } from '../../server/db/logs.ts'
import { seedBuckets } from '../../scripts/seed-data.ts'

const H = 3600
const NOW = Math.floor(Date.now() / 1000)
/** eight hours of rows, ending two hours ago (the buckets hold hours that ended DataExportInterval + 1 minutes ago) */
const T0 = NOW - (NOW % H) - 10 * H

for (const dialect of dialects) {
  describe(`log statistics from the buckets (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let ann: Client & { id: number; username: string }

    const raw = async (f: LogFilter) => {
      const r = await logStatQuery(s.ctx.db, dialect, f).executeTakeFirst()
      return { quota: Number(r?.quota ?? 0), token: Number(r?.token ?? 0) }
    }

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      ann = await s.user({ username: 'ann' })
      const ben = await s.user({ username: 'ben' })
      const rows = []
      for (let i = 0; i < 400; i++) {
        const u = i % 3 ? ann : ben
        rows.push({
          user_id: u.id,
          username: u.username,
          created_at: T0 + i * 72 + (i % 7),
          type: i % 10 === 0 ? 1 : 2,
          content: `row ${i}`,
          token_name: `${u.username}-key`,
          token_id: u.id * 10,
          model_name: ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku', 'o1'][i % 4]!,
          quota: 100 + i,
          prompt_tokens: i,
          completion_tokens: 3,
          channel: (i % 5) + 1,
        })
      }
      // a token renamed halfway: its rows carry two names, so its buckets hold neither name's rows alone
      for (let i = 0; i < 40; i++) {
        rows.push({
          user_id: ann.id,
          username: 'ann',
          created_at: T0 + i * 700,
          type: 2,
          content: `renamed ${i}`,
          token_name: i < 20 ? 'first-name' : 'second-name',
          token_id: 777,
          model_name: 'gpt-4o',
          quota: 1000 + i,
          prompt_tokens: 1,
          completion_tokens: 1,
          channel: 1,
        })
      }
      await s.ctx.db.insertInto('logs').values(rows).execute()
      await seedBuckets(s.ctx.database)
    })
    after(() => s.close())

    const filters: Array<[string, LogFilter, string]> = [
      ['all time', {}, ''],
      ['a range inside hours', { start: T0 + 1234, end: T0 + 5 * H + 17 }, `start_timestamp=${T0 + 1234}&end_timestamp=${T0 + 5 * H + 17}`],
      ['up to now', { start: T0 - H, end: NOW + H }, `start_timestamp=${T0 - H}&end_timestamp=${NOW + H}`],
      [
        'a model prefix',
        { modelName: 'gpt-4o', start: T0 + 10, end: NOW },
        `model_name=gpt-4o&start_timestamp=${T0 + 10}&end_timestamp=${NOW}`,
      ],
      ['a user', { username: 'ann', start: T0 + 700 }, `username=ann&start_timestamp=${T0 + 700}`],
      ['a user and a model', { username: 'ann', modelName: 'o1' }, 'username=ann&model_name=o1'],
      ['a channel', { channel: 3, end: T0 + 6 * H + 5 }, `channel=3&end_timestamp=${T0 + 6 * H + 5}`],
      ['a token', { tokenName: 'ann-key' }, 'token_name=ann-key'],
      [
        'a token, inside hours',
        { tokenName: 'ben-key', start: T0 + 100, end: T0 + 6 * H + 1 },
        `token_name=ben-key&start_timestamp=${T0 + 100}&end_timestamp=${T0 + 6 * H + 1}`,
      ],
      ['a renamed token', { tokenName: 'second-name' }, 'token_name=second-name'],
      ['a type that is not consumption', { type: 1 }, 'type=1'],
    ]

    it('answers every filter with the sum of the rows', async () => {
      for (const [label, f, q] of filters) {
        const r = await root.get(`/api/log/stat?${q}`)
        assert.equal(r.body.success, true, label)
        assert.deepEqual(r.body.data, await raw(f), label)
      }
      const own = await ann.get(`/api/log/self/stat?model_name=gpt-4o&start_timestamp=${T0 + 99}`)
      assert.deepEqual(own.body.data, await raw({ userId: ann.id, modelName: 'gpt-4o', start: T0 + 99 }))
    })

    it('reads the whole hours from the buckets and the rest from the rows', async () => {
      // one bucket made wrong: a stat over its hour shows it, one that ends before the hour does not
      await sql`update quota_models set quota = quota + 1000000 where created_at = ${T0 + 2 * H} and model_name = 'o1'`.execute(s.ctx.db)
      try {
        const over = (await root.get(`/api/log/stat?start_timestamp=${T0}&end_timestamp=${T0 + 4 * H}`)).body.data
        assert.equal(over.quota, (await raw({ start: T0, end: T0 + 4 * H })).quota + 1000000)
        const before = (await root.get(`/api/log/stat?start_timestamp=${T0}&end_timestamp=${T0 + 2 * H - 1}`)).body.data
        assert.deepEqual(before, await raw({ start: T0, end: T0 + 2 * H - 1 }))
        const partial = (await root.get(`/api/log/stat?start_timestamp=${T0 + 2 * H + 1}&end_timestamp=${T0 + 3 * H}`)).body.data
        assert.deepEqual(partial, await raw({ start: T0 + 2 * H + 1, end: T0 + 3 * H }), 'a partial hour comes from the rows')
      } finally {
        await sql`update quota_models set quota = quota - 1000000 where created_at = ${T0 + 2 * H} and model_name = 'o1'`.execute(s.ctx.db)
      }
    })

    it("reads a token name's whole hours from its token's buckets, unless the token carried another name", async () => {
      const bump = (by: number, key: number) =>
        sql`update quota_dims set quota = quota + ${by} where dim = 'token' and key_id = ${key} and created_at = ${T0 + 3 * H}`.execute(
          s.ctx.db,
        )
      await bump(1_000_000, ann.id * 10)
      await bump(1_000_000, 777)
      try {
        const range = `start_timestamp=${T0 + 10}&end_timestamp=${T0 + 5 * H}`
        const f = { start: T0 + 10, end: T0 + 5 * H }
        const named = (await root.get(`/api/log/stat?token_name=ann-key&${range}`)).body.data
        assert.equal(named.quota, (await raw({ ...f, tokenName: 'ann-key' })).quota + 1_000_000, 'the bucket answered')
        const own = (await ann.get(`/api/log/self/stat?token_name=ann-key&${range}`)).body.data
        assert.equal(own.quota, (await raw({ ...f, tokenName: 'ann-key', userId: ann.id })).quota + 1_000_000, 'own: the bucket answered')
        const others = (await root.get(`/api/log/stat?token_name=ann-key&username=ann&${range}`)).body.data
        assert.deepEqual(others, await raw({ ...f, tokenName: 'ann-key', username: 'ann' }), 'with a username: the rows')
        for (const name of ['first-name', 'second-name']) {
          const renamed = (await root.get(`/api/log/stat?token_name=${name}&${range}`)).body.data
          assert.deepEqual(renamed, await raw({ ...f, tokenName: name }), `${name}: the rows`)
        }
      } finally {
        await bump(-1_000_000, ann.id * 10)
        await bump(-1_000_000, 777)
      }
    })

    it('sums the rows while the buckets are off, and from the rows before they were turned back on', async () => {
      await sql`update quota_models set quota = quota + 1000000`.execute(s.ctx.db)
      try {
        assert.equal((await root.put('/api/option/', { key: 'DataExportEnabled', value: 'false' })).body.success, true)
        assert.deepEqual((await root.get('/api/log/stat')).body.data, await raw({}), 'off: the rows')
        assert.equal((await root.put('/api/option/', { key: 'DataExportEnabled', value: 'true' })).body.success, true)
        assert.deepEqual((await root.get('/api/log/stat')).body.data, await raw({}), 'back on: every hour so far from the rows')
      } finally {
        await sql`update quota_models set quota = quota - 1000000`.execute(s.ctx.db)
      }
    })
  })
}
