/**
 * Upstream faults (issue 10): timeouts, resets, streams cut short, 429 and 5xx storms from the fake
 * upstream. The client always gets a clean OpenAI-style error, retries and automatic disabling
 * follow the options, and a failed call is never charged, on both databases (on PostgreSQL the low
 * balance here makes every call hold its estimate in the database, and give it back).
 */
import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { ledgerOf, relayFixture, type RelayFixture } from './relay-helpers.ts'
import { Upstream } from '../../server/relay/upstream.ts'

const QUOTA = 1_000_000
const chat = (model: string, stream = false) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] })

for (const dialect of dialects) {
  describe(`upstream faults (${dialect})`, () => {
    let f: RelayFixture
    let m = 0
    const fresh = () => `fault-model-${++m}`

    before(async () => {
      f = await relayFixture(dialect)
      await f.engine.upstream.close()
      f.engine.upstream = new Upstream(0.3)
    })
    beforeEach(async () => {
      await f.s.ctx.options.set('RetryTimes', '0')
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
    })
    after(() => f.close())

    /** A user and token with a small balance (held in the database on PostgreSQL). */
    const account = async () => {
      const userId = await f.user({ quota: QUOTA })
      const token = await f.token(userId, { remain: QUOTA })
      return { userId, token }
    }

    /** `n` calls over HTTP at concurrency `c`; returns the statuses and bodies. */
    const storm = async (key: string, model: string, n: number, c: number, stream = false) => {
      const out: Array<{ status: number; text: string }> = []
      let i = 0
      const worker = async () => {
        while (i++ < n) {
          const res = await fetch(`${f.base}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(chat(model, stream)),
          })
          out.push({ status: res.status, text: await res.text() })
        }
      }
      await Promise.all(Array.from({ length: c }, worker))
      return out
    }

    const assertCleanError = (r: { status: number; text: string }) => {
      assert.ok(r.status >= 400, `status ${r.status}`)
      const body = JSON.parse(r.text) as { error: { message: string; type: string; code: unknown } }
      assert.equal(typeof body.error.message, 'string')
      assert.ok(body.error.message.length > 0)
      assert.equal(typeof body.error.type, 'string')
    }

    const assertNothingCharged = async (userId: number, tokenId: number) => {
      const l = await ledgerOf(f, userId, tokenId)
      assert.deepEqual([l.user.quota, l.user.used, l.user.count, l.token.remain, l.token.used, l.logCount], [QUOTA, 0, 0, QUOTA, 0, 0])
      assert.equal(f.engine.state.users.get(userId)!.reserved, 0)
      assert.equal(f.engine.state.tokensById.get(tokenId)!.reserved, 0)
    }

    it('answers a storm of 500s, 429s, resets and timeouts with clean errors, charges nothing, disables nothing', async () => {
      const model = fresh()
      f.fake.scenario('storm-500', { status: 500 })
      f.fake.scenario('storm-429', { status: 429 })
      f.fake.scenario('storm-reset', { destroy: true })
      f.fake.scenario('storm-slow', { latencyMs: 1500 })
      const ids = []
      for (const k of ['storm-500', 'storm-429', 'storm-reset', 'storm-slow']) ids.push(await f.channel({ key: k, models: model }))
      const { userId, token } = await account()
      const answers = await storm(token.key, model, 60, 12)
      for (const r of answers) assertCleanError(r)
      assert.deepEqual([...new Set(answers.map((r) => r.status))].sort(), [429, 500, 502])
      await assertNothingCharged(userId, token.id)
      for (const id of ids) assert.equal(f.engine.state.channels.get(id)!.status, 1, `channel ${id} stays enabled`)
    })

    it('retries as RetryTimes says and charges each answered call once', async () => {
      const model = fresh()
      f.fake.scenario('retry-500', { status: 503 })
      f.fake.scenario('retry-slow', { latencyMs: 1500 })
      f.fake.scenario('retry-reset', { destroy: true })
      await f.channel({ key: 'retry-500', models: model, priority: 3 })
      await f.channel({ key: 'retry-slow', models: model, priority: 2 })
      await f.channel({ key: 'retry-reset', models: model, priority: 1 })
      const good = await f.channel({ key: 'retry-good', models: model, priority: 0 })
      await f.s.ctx.options.set('RetryTimes', '3')
      const { userId, token } = await account()
      const answers = await storm(token.key, model, 20, 5)
      assert.deepEqual(
        answers.map((r) => r.status),
        answers.map(() => 200),
      )
      const l = await ledgerOf(f, userId, token.id)
      assert.equal(l.logCount, 20)
      assert.equal(l.user.count, 20)
      assert.equal(l.user.used, l.logSum)
      assert.equal(l.user.quota, QUOTA - l.logSum)
      assert.equal(l.token.remain, QUOTA - l.logSum)
      const logs = await f.s.ctx.db.selectFrom('logs').select('channel').where('token_id', '=', token.id).execute()
      assert.ok(logs.every((r) => Number(r.channel) === good))
    })

    it('disables a channel whose key the upstream rejects, only while the option is on', async () => {
      const model = fresh()
      f.fake.scenario('bad-key', {
        status: 401,
        error: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
      })
      const id = await f.channel({ key: 'bad-key', models: model })
      const { userId, token } = await account()
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'false')
      assertCleanError((await storm(token.key, model, 3, 3))[0])
      assert.equal(f.engine.state.channels.get(id)!.status, 1)
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      assertCleanError((await storm(token.key, model, 1, 1))[0])
      await f.idle()
      assert.equal(f.engine.state.channels.get(id)!.status, 3)
      const row = await f.s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()
      assert.equal(Number(row.status), 3)
      await assertNothingCharged(userId, token.id)
    })

    it('answers a stream cut before any content with a clean error, or an error event, and charges nothing', async () => {
      const model = fresh()
      f.fake.scenario('cut-first', { chunks: 5, breakAfterChunks: 0 })
      f.fake.scenario('cut-empty', { text: '', chunks: 1, chunkDelayMs: 20, breakAfterChunks: 1 })
      await f.channel({ key: 'cut-first', models: model, priority: 1 })
      const { userId, token } = await account()
      for (const r of await storm(token.key, model, 10, 5, true)) assertCleanError(r)
      await f.s.ctx.db.updateTable('channels').set({ priority: -1 }).where('key', '=', 'cut-first').execute()
      await f.channel({ key: 'cut-empty', models: model, priority: 2 })
      for (const r of await storm(token.key, model, 10, 5, true)) {
        assert.equal(r.status, 200, r.text)
        assert.match(r.text, /"error":\{"message":"the upstream stream broke off/)
      }
      await assertNothingCharged(userId, token.id)
    })
  })
}
