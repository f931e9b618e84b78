import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'
import { waitFor } from './relay-helpers.ts'
import { createServer } from '../../server/app.ts'
import { pollerOf, TASK_POLLS } from '../../server/relay/tasks/index.ts'
import { refund } from '../../server/relay/tasks/refund.ts'
import { TIMEOUT_REASON, TaskPoller } from '../../server/relay/tasks/poll.ts'

const QPU = 500_000
const PRICE = 0.1 * QPU

for (const dialect of dialects) {
  describe(`task poller (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect)
      await f.channel({ type: 43, key: 'luma-fail', baseUrl: f.provider.url, models: 'luma_generate' })
    })
    after(() => f.close())

    it('refunds a failed task exactly once and gives the relay the quota back at once', async () => {
      const a = await f.account(PRICE)
      const r = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'x' })
      assert.equal(r.status, 200)
      const broke = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'y' })
      assert.equal(broke.status, 403, 'the whole balance is spent')
      await f.rounds(4)
      const row = await f.task(r.json.id)
      assert.equal(row.status, 'failed')
      assert.equal(row.fail_reason, 'the video could not be made')
      assert.equal(Number(row.refunded), 1)
      assert.equal(await refund(f.s.ctx, row), false, 'a second refund does nothing')
      const b = await balances(f, a.userId)
      assert.equal(b.quota, PRICE)
      assert.equal(b.used, 0)
      assert.equal(b.consumed - b.refunded, b.used)
      assert.equal(b.refunds.length, 1)
      assert.match(b.refunds[0].content, /failed: refunded 50000 quota/)
      const token = await f.s.ctx.db.selectFrom('tokens').select(['used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow()
      assert.equal(Number(token.used_quota), 0)
      await waitFor(() => f.engine.ledger.userQuota(f.engine.state.users.get(a.userId)!) === PRICE, 'the relay to see the refund')
      const again = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'z' })
      assert.equal(again.status, 200)
    })

    it('fails a task unfinished after TaskTimeout, and one the channel of which is gone, with a refund', async () => {
      const a = await f.account()
      const ok = await f.channel({ type: 43, key: 'luma-ok', baseUrl: f.provider.url, models: 'luma_generate', priority: 9 })
      const r = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'slow' })
      const r2 = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'orphan' })
      await f.s.ctx.db
        .updateTable('tasks')
        .set({ submit_time: Date.now() - 3601_000 })
        .where('task_id', '=', r.json.id)
        .execute()
      await f.s.ctx.db.updateTable('tasks').set({ channel_id: 99_999 }).where('task_id', '=', r2.json.id).execute()
      await f.rounds(1)
      const row = await f.task(r.json.id)
      assert.equal(row.status, 'FAILURE')
      assert.equal(row.fail_reason, TIMEOUT_REASON)
      assert.equal(Number(row.refunded), 1)
      assert.equal(Number((await f.task(r2.json.id)).refunded), 1)
      assert.equal((await balances(f, a.userId)).used, 0)
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', ok).execute()
      await f.refresh()
    })

    it('backs off from a channel whose polls fail', async () => {
      const a = await f.account()
      const down = await f.channel({ type: 43, key: 'luma-down', baseUrl: f.provider.url, models: 'luma_generate', priority: 9 })
      const r = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'x' })
      // a whole second, so that the waits (1, 2, 4 s) stand well above the time a round takes
      await f.s.ctx.options.set('TaskPollInterval', '1')
      const waits: number[] = []
      for (let i = 0; i < 3; i++) {
        await f.s.ctx.db.updateTable('tasks').set({ lease_until: 0 }).where('task_id', '=', r.json.id).execute()
        const t0 = Date.now()
        await f.rounds(1)
        const row = await f.task(r.json.id)
        assert.equal(Number(row.poll_errors), i + 1)
        waits.push(Number(row.lease_until) - t0)
      }
      await f.s.ctx.options.set('TaskPollInterval', '0.02')
      assert.ok(waits[0] >= 1000 && waits[1] >= 2000 && waits[2] >= 4000 && waits[2] < 5000, `growing waits: ${waits}`)
      assert.equal((await f.task(r.json.id)).progress, '0%')
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', down).execute()
      await f.refresh()
    })

    it('runs by itself every TaskPollInterval, a new interval applying at once', async () => {
      await f.s.ctx.options.set('TaskPollInterval', '3600')
      const own = new TaskPoller(f.engine, TASK_POLLS)
      own.start()
      try {
        const a = await f.account()
        const r = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'auto' })
        await new Promise((done) => setTimeout(done, 100))
        assert.equal((await f.task(r.json.id)).progress, '0%', 'not before the interval')
        await f.s.ctx.options.set('TaskPollInterval', '0.02')
        for (let i = 0; i < 100 && (await f.task(r.json.id)).progress !== '100%'; i++) await new Promise((done) => setTimeout(done, 50))
        assert.equal((await f.task(r.json.id)).progress, '100%', 'finished by the poller alone')
      } finally {
        await own.stop()
      }
    })

    it('shares the work between two instances on one database without a double refund', async () => {
      const second = await createServer(f.s.ctx.config)
      try {
        const a = await f.account(100 * PRICE)
        const ids: string[] = []
        for (let i = 0; i < 12; i++) ids.push((await f.send(a.key, 'POST', '/luma/generations', { user_prompt: `n${i}` })).json.id)
        await f.idle()
        const other = pollerOf(second.ctx)
        for (let i = 0; i < 4; i++) {
          await new Promise((r) => setTimeout(r, 30))
          await Promise.all([pollerOf(f.s.ctx).round(), other.round(), pollerOf(f.s.ctx).round()])
        }
        const rows = await f.s.ctx.db.selectFrom('tasks').select(['refunded', 'status']).where('task_id', 'in', ids).execute()
        assert.ok(rows.every((r) => Number(r.refunded) === 1 && r.status === 'failed'))
        const b = await balances(f, a.userId)
        assert.equal(b.refunds.length, 12)
        assert.equal(b.quota + b.used, 100 * PRICE)
        assert.equal(b.used, 0)
        const fetches = f.provider.requests.filter((q) => ids.some((id) => q.path.endsWith(id)))
        assert.equal(fetches.length, 12 * 2, 'each task polled once per stage (running, then failed), by one instance')
      } finally {
        await second.close()
      }
    })
  })
}
