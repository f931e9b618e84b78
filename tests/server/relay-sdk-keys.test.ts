/**
 * Who may call the relay, through the openai SDK: bad, disabled, expired and exhausted keys, allowed
 * addresses, token and user changes from the bus, and quota refusals; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { dialects } from './helpers.ts'
import { waitFor, type RelayFixture } from './relay-helpers.ts'
import { sdkFixture } from './relay-sdk-fixture.ts'
import { randomKey } from '../../server/lib/users.ts'

for (const dialect of dialects) {
  describe(`relay through the openai SDK (${dialect})`, () => {
    let f: RelayFixture
    let userId: number

    before(async () => {
      ;({ f, userId } = await sdkFixture(dialect))
    })
    after(() => f.close())

    it('refuses bad, disabled, expired and exhausted keys with 401 and a clear message', async () => {
      const msg = [{ role: 'user' as const, content: 'x' }]
      const bad = new OpenAI({ apiKey: 'sk-notakey', baseURL: `${f.base}/v1`, maxRetries: 0 })
      await assert.rejects(
        bad.chat.completions.create({ model: 'gpt-4o', messages: msg }),
        (e: any) => e instanceof OpenAI.AuthenticationError && /invalid API key/.test(e.message),
      )
      const res = await fetch(`${f.base}/v1/chat/completions`, { method: 'POST', body: '{}' })
      assert.equal(res.status, 401)
      const body = (await res.json()) as any
      assert.match(body.error.message, /no API key provided/)
      assert.equal(body.error.type, 'tollgate_error')
      assert.equal(body.error.code, 'missing_api_key')

      const disabled = await f.token(userId, { status: 2 })
      await assert.rejects(
        new OpenAI({ apiKey: disabled.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /disabled/.test(e.message),
      )
      const expired = await f.token(userId, { expired: Math.floor(Date.now() / 1000) - 10 })
      await assert.rejects(
        new OpenAI({ apiKey: expired.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /expired/.test(e.message),
      )
      const exhausted = await f.token(userId, { remain: 0 })
      await assert.rejects(
        new OpenAI({ apiKey: exhausted.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /used up its quota/.test(e.message),
      )
      await f.idle()
      const statuses = await f.s.ctx.db
        .selectFrom('tokens')
        .select(['id', 'status'])
        .where('id', 'in', [expired.id, exhausted.id])
        .execute()
      assert.deepEqual(Object.fromEntries(statuses.map((t) => [Number(t.id), Number(t.status)])), { [expired.id]: 3, [exhausted.id]: 4 })
      // an unlimited token ignores its remaining quota
      const unlimited = await f.token(userId, { remain: 0, unlimited: true })
      const ok = await new OpenAI({ apiKey: unlimited.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: msg,
      })
      assert.equal(ok.object, 'chat.completion')
    })

    it('allows a key only from its allowed addresses', async () => {
      const elsewhere = await f.token(userId, { allowIps: '10.1.2.3' })
      await assert.rejects(
        new OpenAI({ apiKey: elsewhere.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && /may not be used from 127.0.0.1/.test(e.message),
      )
      const here = await f.token(userId, { allowIps: '10.1.2.3\n127.0.0.1' })
      const ok = await new OpenAI({ apiKey: here.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      })
      assert.equal(ok.object, 'chat.completion')
    })

    it('follows token and user changes announced on the bus', async () => {
      const t = await f.token(userId)
      const c2 = new OpenAI({ apiKey: t.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      await c2.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      await f.s.ctx.db.updateTable('tokens').set({ status: 2 }).where('id', '=', t.id).execute()
      f.s.ctx.bus.emit('tokens', t.id)
      await waitFor(() => f.engine.state.tokensById.get(t.id)?.status === 2, 'the token reload')
      await assert.rejects(
        c2.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
        (e: any) => e.status === 401,
      )
      // a key created after start (no bus event) is found in the database on first use
      const late = randomKey(48)
      await f.s.ctx.db.insertInto('tokens').values({ user_id: userId, key: late, name: 'late', remain_quota: 100_000, group: '' }).execute()
      const r = await f.call(`sk-${late}`, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      assert.equal(r.status, 200)
      // a banned owner
      const owner = await f.user({ quota: 1_000_000 })
      const ot = await f.token(owner)
      await f.s.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', owner).execute()
      f.s.ctx.bus.emit('users', owner)
      await waitFor(() => f.engine.state.users.get(owner)?.status === 2, 'the user reload')
      const banned = await f.call(ot.key, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      assert.equal(banned.status, 403)
    })

    it('refuses a user without quota, and a key above its remaining quota', async () => {
      const poor = await f.user({ quota: 0 })
      const t = await f.token(poor)
      await assert.rejects(
        new OpenAI({ apiKey: t.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && e.code === 'insufficient_user_quota',
      )
      const t2 = await f.token(userId, { remain: 10 })
      // gpt-4o without max_tokens holds PreConsumedQuota (500) x 1.25 = 625 > 10
      await assert.rejects(
        new OpenAI({ apiKey: t2.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && e.code === 'insufficient_token_quota',
      )
    })
  })
}
