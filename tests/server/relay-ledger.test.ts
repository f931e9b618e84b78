import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { dialects } from './helpers.ts'
import { relayFixture, ledgerOf, waitFor, type RelayFixture } from './relay-helpers.ts'

interface Outcome {
  status: number
  kind: string
}

/** One of five request kinds, the body consumed to the end. */
async function mixed(f: RelayFixture, key: string, i: number): Promise<Outcome> {
  const kinds = ['chat', 'chat-max', 'stream-max', 'embed', 'broken'] as const
  const kind = kinds[i % kinds.length]
  const messages = [{ role: 'user', content: `request number ${i}` }]
  let path = '/v1/chat/completions'
  let body: Record<string, unknown>
  switch (kind) {
    case 'chat':
      body = { model: 'gpt-3.5-turbo', messages }
      break
    case 'chat-max':
      body = { model: 'gpt-3.5-turbo', messages, max_tokens: 50 }
      break
    case 'stream-max':
      body = { model: 'gpt-3.5-turbo', messages, max_tokens: 50, stream: true }
      break
    case 'embed':
      path = '/v1/embeddings'
      body = { model: 'text-embedding-3-small', input: `text ${i}` }
      break
    case 'broken':
      body = { model: 'gpt-3.5-turbo-0125', messages, max_tokens: 10 }
      break
  }
  const res = await fetch(`${f.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await res.arrayBuffer()
  return { status: res.status, kind }
}

for (const dialect of dialects) {
  describe(`relay ledger under concurrency (${dialect})`, () => {
    let f: RelayFixture

    before(async () => {
      f = await relayFixture(dialect)
      // every answer: 12 prompt + 40 completion tokens, after 30 ms, so all 500 overlap
      f.fake.defaults = { latencyMs: 30, completionTokens: 40, chunks: 4 }
      f.fake.scenario('broken-key', { status: 500, latencyMs: 5 })
      await f.channel({ key: 'ledger-ok', models: 'gpt-3.5-turbo,text-embedding-3-small' })
      await f.channel({ key: 'broken-key', models: 'gpt-3.5-turbo-0125' })
    })
    after(() => f.close())

    it('never lets 500 concurrent requests overspend a small token quota, and the books balance', async () => {
      const userQuota = 1_000_000
      const tokenQuota = 3_000
      const userId = await f.user({ quota: userQuota })
      const token = await f.token(userId, { remain: tokenQuota })
      const outcomes = await Promise.all(Array.from({ length: 500 }, (_, i) => mixed(f, token.key, i)))
      const l = await ledgerOf(f, userId, token.id)

      const ok = outcomes.filter((o) => o.status === 200)
      const refused = outcomes.filter((o) => o.status === 403 || o.status === 401)
      const failed = outcomes.filter((o) => o.status >= 500)
      assert.equal(ok.length + refused.length + failed.length, 500)
      assert.ok(ok.length > 10, `some requests went through (${ok.length})`)
      assert.ok(refused.length > 100, `the small quota refused many (${refused.length})`)
      assert.ok(failed.length > 0 && failed.every((o) => o.kind === 'broken'), `upstream failures (${failed.length})`)

      // no balance below what the rules allow: every request here has a bounded cost its hold covers
      assert.ok(l.token.remain >= 0, `token remain ${l.token.remain}`)
      assert.ok(l.user.quota >= 0)
      // the books balance exactly
      assert.equal(l.logCount, ok.length)
      assert.equal(l.logSum, l.token.used)
      assert.equal(l.logSum, l.user.used)
      assert.equal(l.token.remain, tokenQuota - l.token.used)
      assert.equal(l.user.quota, userQuota - l.user.used)
      assert.equal(l.user.count, ok.length)
      // nothing is held any more once everything settled
      assert.equal(f.engine.state.tokensById.get(token.id)!.reserved, 0)
      assert.equal(f.engine.state.users.get(userId)!.reserved, 0)
    })

    it('keeps a user quota exact while the console tops it up during the burst', async () => {
      const start = 20_000
      const userId = await f.user({ quota: start })
      const token = await f.token(userId, { unlimited: true })
      const burst = Promise.all(Array.from({ length: 500 }, (_, i) => mixed(f, token.key, i)))
      // the console's relative top-ups, announced on the bus, interleaved with settles and flushes
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 8))
        await f.s.ctx.db
          .updateTable('users')
          .set({ quota: sql`quota + 1000` })
          .where('id', '=', userId)
          .execute()
        f.s.ctx.bus.emit('users', userId)
        await f.engine.ledger.flush()
      }
      const outcomes = await burst
      const l = await ledgerOf(f, userId, token.id)
      const ok = outcomes.filter((o) => o.status === 200).length
      assert.equal(l.logCount, ok)
      assert.equal(l.logSum, l.user.used)
      assert.equal(l.user.quota, start + 5000 - l.user.used)
      assert.ok(l.user.quota >= 0)
      // and the relay's own view agrees with the database
      const u = f.engine.state.users.get(userId)!
      assert.equal(f.engine.ledger.userQuota(u), l.user.quota)
    })

    it('keeps holds right when the token is reloaded while requests are in flight', async () => {
      const userId = await f.user({ quota: 1_000_000 })
      const token = await f.token(userId, { remain: 200_000 })
      const burst = Promise.all(Array.from({ length: 40 }, (_, i) => mixed(f, token.key, i % 3)))
      // reload while holds are taken (answers come after 30 ms)
      await waitFor(() => f.engine.state.tokensById.get(token.id)!.reserved > 0, 'holds')
      await f.engine.ledger.reloadToken(token.id)
      await f.engine.ledger.reloadUser(userId)
      await burst
      await f.idle()
      assert.equal(f.engine.state.tokensById.get(token.id)!.reserved, 0)
      assert.equal(f.engine.state.users.get(userId)!.reserved, 0)
      const l = await ledgerOf(f, userId, token.id)
      assert.equal(l.token.remain, 200_000 - l.token.used)
      assert.equal(f.engine.ledger.tokenRemain(f.engine.state.tokensById.get(token.id)!), l.token.remain)
    })

    it('picks up what other instances spent at its next flush, without waiting for the resync', async () => {
      const userId = await f.user({ quota: 100_000 })
      const token = await f.token(userId, { remain: 50_000 })
      assert.equal((await mixed(f, token.key, 0)).status, 200)
      await f.idle()
      // another instance sharing the database settles its own batch: relative updates, no bus event here
      await f.s.ctx.db
        .updateTable('users')
        .set({ quota: sql`quota - 30000`, used_quota: sql`used_quota + 30000` })
        .where('id', '=', userId)
        .execute()
      await f.s.ctx.db
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - 20000` })
        .where('id', '=', token.id)
        .execute()
      assert.equal((await mixed(f, token.key, 0)).status, 200)
      await f.idle()
      const l = await ledgerOf(f, userId, token.id)
      const u = f.engine.state.users.get(userId)!
      const t = f.engine.state.tokensById.get(token.id)!
      assert.equal(f.engine.ledger.userQuota(u), l.user.quota)
      assert.equal(f.engine.ledger.tokenRemain(t), l.token.remain)
      assert.equal(l.user.quota, 100_000 - 30_000 - l.logSum)
    })

    it('returns the hold when the upstream fails, charging nothing', async () => {
      const userId = await f.user({ quota: 10_000 })
      const token = await f.token(userId, { remain: 10_000 })
      for (let i = 0; i < 10; i++) assert.equal((await mixed(f, token.key, 4)).status, 500)
      const l = await ledgerOf(f, userId, token.id)
      assert.deepEqual([l.user.quota, l.user.used, l.token.remain, l.logCount], [10_000, 0, 10_000, 0])
    })

    it('waits, when going idle, for a batch the writer is still committing', async () => {
      const userId = await f.user({ quota: 1_000_000 })
      const token = await f.token(userId, { unlimited: true })
      f.engine.ledger.stop()
      try {
        for (let i = 0; i < 30; i++) assert.equal((await mixed(f, token.key, 0)).status, 200)
        const writing = f.engine.ledger.flush()
        // let that flush take the batch and hand it to the writer, then go idle while it commits
        await new Promise((r) => setImmediate(r))
        await f.engine.idle()
        const n = await f.s.ctx.db
          .selectFrom('logs')
          .select(sql<number>`count(*)`.as('n'))
          .where('token_id', '=', token.id)
          .executeTakeFirstOrThrow()
        assert.equal(Number(n.n), 30)
        await writing
      } finally {
        f.engine.ledger.start()
      }
    })

    it('feeds the hourly dashboard buckets with the same totals', async () => {
      const userId = await f.user({ quota: 1_000_000 })
      const token = await f.token(userId, { unlimited: true })
      for (let i = 0; i < 6; i++) await mixed(f, token.key, i % 2)
      const l = await ledgerOf(f, userId, token.id)
      const rows = await f.s.ctx.db.selectFrom('quota_data').selectAll().where('user_id', '=', userId).execute()
      assert.equal(rows.length, 1)
      assert.equal(rows[0].model_name, 'gpt-3.5-turbo')
      assert.equal(Number(rows[0].count), 6)
      assert.equal(Number(rows[0].quota), l.logSum)
      assert.equal(Number(rows[0].created_at) % 3600, 0)
      assert.equal(Number(rows[0].token_used), 6 * (12 + 40))
      const models = await f.s.ctx.db.selectFrom('quota_models').selectAll().where('model_name', '=', 'gpt-3.5-turbo').execute()
      const all = await f.s.ctx.db.selectFrom('quota_data').selectAll().where('model_name', '=', 'gpt-3.5-turbo').execute()
      const sum = (r: Array<{ quota: number; count: number }>) => [
        r.reduce((a, b) => a + Number(b.quota), 0),
        r.reduce((a, b) => a + Number(b.count), 0),
      ]
      assert.deepEqual(sum(models), sum(all), "everyone's per-model buckets are written with the users' ones")
    })

    it('writes the dashboard buckets every DataExportInterval minutes, the charges and logs at once', async () => {
      const ledger = f.engine.ledger
      const userId = await f.user({ quota: 1_000_000 })
      const token = await f.token(userId, { unlimited: true })
      const buckets = () => f.s.ctx.db.selectFrom('quota_data').selectAll().where('user_id', '=', userId).execute()
      ledger.stop()
      const realNow = Date.now
      try {
        await f.s.ctx.options.set('DataExportInterval', '2')
        await ledger.flush()
        await mixed(f, token.key, 0)
        await waitFor(() => ledger.hasPending(), 'the settled call')
        await ledger.tick()
        const logs = await f.s.ctx.db.selectFrom('logs').select('quota').where('token_id', '=', token.id).execute()
        assert.equal(logs.length, 1, 'the log row is written with the batch')
        assert.deepEqual(await buckets(), [], 'the bucket waits for the interval')
        Date.now = () => realNow() + 61_000
        await ledger.tick()
        assert.deepEqual(await buckets(), [], 'one minute is not two')
        Date.now = () => realNow() + 121_000
        await ledger.tick()
        const rows = await buckets()
        assert.equal(rows.length, 1)
        assert.equal(Number(rows[0]!.quota), Number(logs[0]!.quota))
      } finally {
        Date.now = realNow
        await f.s.ctx.options.set('DataExportInterval', '5')
        ledger.start()
      }
    })
  })

  describe(`relay pricing and logging switches (${dialect})`, () => {
    let f: RelayFixture
    before(async () => {
      f = await relayFixture(dialect)
      await f.channel({ key: 'prices', models: 'per-call-model,gpt-3.5-turbo', group: 'default,vip' })
      await f.s.ctx.options.set('ModelPrice', JSON.stringify({ 'per-call-model': 0.02 }))
      await f.s.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 1.5 }))
    })
    after(() => f.close())

    const lastLog = async (token: number) => {
      await f.idle()
      return f.s.ctx.db.selectFrom('logs').selectAll().where('token_id', '=', token).orderBy('id', 'desc').executeTakeFirstOrThrow()
    }
    const chat = (key: string, model: string) =>
      f.call(key, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })

    it('charges a per-call price times the group ratio, whatever the tokens', async () => {
      const vip = await f.user({ quota: 1_000_000, group: 'vip' })
      const t = await f.token(vip, { unlimited: true })
      assert.equal((await chat(t.key, 'per-call-model')).status, 200)
      const log = await lastLog(t.id)
      // 0.02 USD x 500000 quota per USD x 1.5
      assert.equal(Number(log.quota), 15_000)
      assert.equal(log.content, 'model price 0.02, group ratio 1.5')
      assert.equal(JSON.parse(log.other).model_price, 0.02)
      // per-token models take the group ratio too: round((12 + 3 * 3) * 0.25 * 1.5) = 8
      assert.equal((await chat(t.key, 'gpt-3.5-turbo')).status, 200)
      assert.equal(Number((await lastLog(t.id)).quota), 8)
    })

    it('charges without a log row when LogConsumeEnabled is off, and skips buckets when DataExportEnabled is off', async () => {
      const u = await f.user({ quota: 1_000_000 })
      const t = await f.token(u, { remain: 1_000_000 })
      await f.s.ctx.options.set('LogConsumeEnabled', 'false')
      await f.s.ctx.options.set('DataExportEnabled', 'false')
      try {
        assert.equal((await chat(t.key, 'gpt-3.5-turbo')).status, 200)
        const l = await ledgerOf(f, u, t.id)
        assert.equal(l.logCount, 0)
        assert.equal(l.user.used, 5)
        assert.equal(l.token.used, 5)
        const buckets = await f.s.ctx.db.selectFrom('quota_data').selectAll().where('user_id', '=', u).execute()
        assert.equal(buckets.length, 0)
        await f.s.ctx.options.set('DataExportEnabled', 'true')
        assert.equal((await chat(t.key, 'gpt-3.5-turbo')).status, 200)
        await f.idle()
        const after = await f.s.ctx.db.selectFrom('quota_data').selectAll().where('user_id', '=', u).execute()
        assert.equal(after.length, 1, 'buckets follow DataExportEnabled even without log rows')
      } finally {
        await f.s.ctx.options.set('LogConsumeEnabled', 'true')
        await f.s.ctx.options.set('DataExportEnabled', 'true')
      }
    })
  })

  describe(`relay ledger on shutdown (${dialect})`, () => {
    it('writes every pending delta and log row when the server stops', async () => {
      const f = await relayFixture(dialect)
      await f.channel({ key: 'shutdown', models: 'gpt-3.5-turbo' })
      const userId = await f.user({ quota: 100_000 })
      const token = await f.token(userId, { remain: 100_000 })
      // a timer that never fires before the stop: only the close hook can write the batch
      f.engine.ledger.stop()
      for (let i = 0; i < 7; i++) assert.equal((await mixed(f, token.key, 0)).status, 200)
      const before = await f.s.ctx.db
        .selectFrom('logs')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
      assert.equal(Number(before.n), 0, 'nothing written on the request path')
      let seen: { logs: number; used: number } | null = null
      f.s.ctx.onClose.push(async () => {
        const logs = await f.s.ctx.db
          .selectFrom('logs')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
        const user = await f.s.ctx.db.selectFrom('users').select('used_quota').where('id', '=', userId).executeTakeFirstOrThrow()
        seen = { logs: Number(logs.n), used: Number(user.used_quota) }
      })
      await f.close()
      assert.deepEqual(seen, { logs: 7, used: 7 * Math.round((12 + 3 * 3) * 0.25) })
    })
  })
}
