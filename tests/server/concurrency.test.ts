import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, type TestServer } from './helpers.ts'

const CALLS = 200

for (const dialect of dialects) {
  describe(`concurrent quota changes (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
    })
    after(() => s.close())

    const balances = (id: number) =>
      s.ctx.db.selectFrom('users').select(['quota', 'aff_quota']).where('id', '=', id).executeTakeFirstOrThrow()

    it(`lets exactly one of ${CALLS} concurrent redemptions of one code succeed`, async () => {
      const root = await s.root()
      const [key] = (await root.post('/api/redemption/', { name: 'race', quota: 7777, count: 1 })).body.data as string[]
      const users = await Promise.all([s.user({ quota: 1000 }), s.user({ quota: 1000 })])
      const replies = await Promise.all(Array.from({ length: CALLS }, (_, i) => users[i % 2]!.post('/api/user/topup', { key })))
      assert.ok(
        replies.every((r) => r.status === 200),
        'no call fails with an error status',
      )
      const winners = replies.filter((r) => r.body.success)
      assert.equal(winners.length, 1)
      assert.equal(winners[0]!.body.data, 7777)
      const quotas = await Promise.all(users.map(async (u) => (await balances(u.id)).quota))
      assert.deepEqual(
        quotas.sort((a, b) => a - b),
        [1000, 8777],
        'the quota rose exactly once',
      )
      const logs = await s.ctx.db
        .selectFrom('logs')
        .select('id')
        .where('type', '=', 1)
        .where(
          'user_id',
          'in',
          users.map((u) => u.id),
        )
        .execute()
      assert.equal(logs.length, 1, 'one top-up log')
    })

    it(`keeps quota + aff_quota conserved and never negative over ${CALLS} concurrent aff transfers`, async () => {
      const unit = s.ctx.options.quotaPerUnit
      const u = await s.user({ quota: 3 })
      await s.ctx.db
        .updateTable('users')
        .set({ aff_quota: unit * 10 + 123 })
        .where('id', '=', u.id)
        .execute()
      const before = await balances(u.id)
      const replies = await Promise.all(Array.from({ length: CALLS }, () => u.post('/api/user/aff_transfer', { quota: unit })))
      assert.ok(replies.every((r) => r.status === 200))
      const done = replies.filter((r) => r.body.success).length
      assert.equal(done, 10, 'only as many transfers as the invite quota covers')
      const after = await balances(u.id)
      assert.ok(after.aff_quota >= 0)
      assert.ok(after.quota >= 0)
      assert.equal(after.aff_quota, 123)
      assert.equal(after.quota + after.aff_quota, before.quota + before.aff_quota)
    })
  })
}
