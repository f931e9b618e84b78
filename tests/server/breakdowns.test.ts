import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { dialects, startServer, assertRefused, type Client, type TestServer } from './helpers.ts'
import { relayFixture, type RelayFixture } from './relay-helpers.ts'
import { refillModelTotals, refillRollups } from '../../server/db/quota-data.ts'

const H = 3600
const DAY = 24 * H
// a Monday, 00:00 UTC
const T0 = Date.UTC(2024, 0, 1) / 1000

type Named = Client & { id: number; username: string }

async function seed(s: TestServer, ann: Named, ben: Named) {
  const t = await s.ctx.db
    .insertInto('tokens')
    .values([
      { user_id: ann.id, key: 'breakdown-ann-1', name: 'laptop', group: '' },
      { user_id: ann.id, key: 'breakdown-ann-2', name: 'server', group: '' },
      { user_id: ben.id, key: 'breakdown-ben-1', name: 'ben-key', group: '' },
    ])
    .returning('id')
    .execute()
  const [a1, a2, b1] = t.map((r) => Number(r.id))
  const bucket = (u: Named, model: string, at: number, count: number) => ({
    user_id: u.id,
    username: u.username,
    model_name: model,
    created_at: at,
    count,
    quota: count * 100,
    token_used: count * 10,
  })
  await s.ctx.db
    .insertInto('quota_data')
    .values([
      bucket(ann, 'gpt-4o', T0, 1),
      bucket(ann, 'claude', T0 + H, 2),
      bucket(ann, 'gemini', T0 + 30 * H, 3),
      bucket(ben, 'gpt-4o', T0 + 2 * H, 4),
      bucket(ben, 'o1', T0 + 8 * DAY, 5),
      bucket(ben, 'gpt-4o', T0 + 89 * DAY, 6),
    ])
    .execute()
  await refillModelTotals(s.ctx.db)
  const dim = (d: 'token' | 'channel', key: number, user: number, at: number, count: number) => ({
    dim: d,
    key_id: key,
    user_id: user,
    created_at: at,
    count,
    quota: count * 100,
    token_used: count * 10,
  })
  await s.ctx.db
    .insertInto('quota_dims')
    .values([
      dim('token', a1!, ann.id, T0, 1),
      dim('token', a2!, ann.id, T0 + H, 2),
      dim('token', b1!, ben.id, T0 + 2 * H, 4),
      dim('channel', 7, 0, T0, 3),
      dim('channel', 8, 0, T0 + 2 * H, 4),
    ])
    .execute()
  await refillRollups(s.ctx.db)
  return { a1: a1!, a2: a2!, b1: b1! }
}

for (const dialect of dialects) {
  describe(`dashboard breakdowns (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let ann: Named
    let ben: Named
    let ids: { a1: number; a2: number; b1: number }
    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      ann = await s.user({ username: 'ann' })
      ben = await s.user({ username: 'ben' })
      ids = await seed(s, ann, ben)
    })
    after(() => s.close())

    const range = (days: number) => `start_timestamp=${T0}&end_timestamp=${T0 + days * DAY - 1}`

    it('gives an admin the top models per hour and sums the rest as others', async () => {
      const r = await root.get(`/api/data/breakdown?by=model&granularity=hour&top=2&${range(2)}`)
      assert.equal(r.body.success, true, r.body.message)
      const d = r.body.data
      assert.deepEqual(
        d.top.map((k: any) => [k.key, k.label, k.count, k.quota, k.token_used]),
        [
          ['gpt-4o', 'gpt-4o', 5, 500, 50],
          ['gemini', 'gemini', 3, 300, 30],
        ],
      )
      assert.deepEqual(d.others, { count: 2, quota: 200, token_used: 20 })
      assert.deepEqual(
        d.rows.map((x: any) => [x.period - T0, x.key, x.count]),
        [
          [0, 'gpt-4o', 1],
          [H, null, 2],
          [2 * H, 'gpt-4o', 4],
          [30 * H, 'gemini', 3],
        ],
      )
    })

    it('by model: the top, the others and each period are the buckets summed, for everyone and for one user', async () => {
      // random usage far from the other tests' buckets: 9 models, two users, ten days
      const from = T0 + 200 * DAY
      let seed = 7
      const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
      const cells = new Map<string, { user: Named; model: string; at: number; count: number; quota: number }>()
      for (let i = 0; i < 400; i++) {
        const user = random(3) ? ann : ben
        const model = `m${random(9)}`
        const at = from + random(10 * 24) * H
        const k = `${user.id}:${model}:${at}`
        const c = cells.get(k) ?? { user, model, at, count: 0, quota: 0 }
        c.count += 1 + random(3)
        c.quota += random(5) * 1000
        cells.set(k, c)
      }
      const buckets = [...cells.values()]
      await s.ctx.db
        .insertInto('quota_data')
        .values(
          buckets.map((b) => ({
            user_id: b.user.id,
            username: b.user.username,
            model_name: b.model,
            created_at: b.at,
            count: b.count,
            quota: b.quota,
            token_used: b.count * 7,
          })),
        )
        .execute()
      await refillModelTotals(s.ctx.db)
      const offset = 5 * H
      const expect = (mine: typeof buckets, top: number) => {
        const day = (at: number) => Math.floor((at + offset) / DAY) * DAY - offset
        const sum = (xs: typeof buckets) => ({ count: xs.reduce((n, b) => n + b.count, 0), quota: xs.reduce((n, b) => n + b.quota, 0) })
        const models = [...new Set(mine.map((b) => b.model))]
        const ranked = models
          .map((m) => ({ key: m, ...sum(mine.filter((b) => b.model === m)) }))
          .sort((a, b) => b.quota - a.quota || b.count - a.count || (a.key < b.key ? -1 : 1))
          .slice(0, top)
        const inTop = new Set(ranked.map((k) => k.key))
        const periods = [...new Set(mine.map((b) => day(b.at)))].sort((a, b) => a - b)
        const rows: Array<[number, string | null, number, number]> = []
        for (const p of periods) {
          const here = mine.filter((b) => day(b.at) === p)
          for (const m of [...inTop].sort()) {
            const x = here.filter((b) => b.model === m)
            if (x.length) rows.push([p, m, sum(x).count, sum(x).quota])
          }
          const rest = sum(here.filter((b) => !inTop.has(b.model)))
          if (rest.count || rest.quota) rows.push([p, null, rest.count, rest.quota])
        }
        const rest = sum(mine.filter((b) => !inTop.has(b.model)))
        return { top: ranked.map((k) => [k.key, k.count, k.quota]), others: rest.count ? [rest.count, rest.quota] : null, rows }
      }
      const got = (d: any) => ({
        top: d.top.map((k: any) => [k.key, k.count, k.quota]),
        others: d.others ? [d.others.count, d.others.quota] : null,
        rows: d.rows.map((x: any) => [x.period, x.key, x.count, x.quota]),
      })
      const q = `granularity=day&tz_offset=${offset}&start_timestamp=${from}&end_timestamp=${from + 10 * DAY - 1}`
      const all = await root.get(`/api/data/breakdown?by=model&top=4&${q}`)
      assert.equal(all.body.success, true, all.body.message)
      assert.deepEqual(got(all.body.data), expect(buckets, 4))
      const own = await ann.get(`/api/data/self/breakdown?by=model&top=3&${q}`)
      assert.equal(own.body.success, true, own.body.message)
      assert.deepEqual(
        got(own.body.data),
        expect(
          buckets.filter((b) => b.user === ann),
          3,
        ),
      )
      const byName = await root.get(`/api/data/breakdown?by=model&top=3&username=ben&${q}`)
      assert.deepEqual(
        got(byName.body.data),
        expect(
          buckets.filter((b) => b.user === ben),
          3,
        ),
      )
      await s.ctx.db.deleteFrom('quota_data').where('created_at', '>=', from).execute()
      await refillModelTotals(s.ctx.db)
    })

    it('groups days and weeks where the viewer days begin', async () => {
      // eight hours east of UTC: T0 + 30 h is 14:00 on the second local day, T0 + 2 h the first
      const day = await root.get(`/api/data/breakdown?by=user&granularity=day&tz_offset=${8 * H}&${range(2)}`)
      assert.deepEqual(
        day.body.data.rows.map((x: any) => [x.period - T0, x.key === String(ann.id) ? 'ann' : 'ben', x.count]),
        [
          [-8 * H, 'ann', 3],
          [-8 * H, 'ben', 4],
          [DAY - 8 * H, 'ann', 3],
        ],
      )
      assert.deepEqual(
        day.body.data.top.map((k: any) => k.label),
        ['ann', 'ben'],
      )
      const week = await root.get(`/api/data/breakdown?by=model&granularity=week&${range(90)}`)
      const periods = [...new Set(week.body.data.rows.map((x: any) => x.period - T0))]
      assert.deepEqual(periods, [0, 7 * DAY, 84 * DAY], 'weeks start on Mondays; a 90-day range answers')
    })

    it('breaks down by token and channel with their names', async () => {
      const tokens = await root.get(`/api/data/breakdown?by=token&${range(1)}`)
      assert.deepEqual(
        tokens.body.data.top.map((k: any) => [k.label, k.count]),
        [
          [`ben-key #${ids.b1}`, 4],
          [`server #${ids.a2}`, 2],
          [`laptop #${ids.a1}`, 1],
        ],
      )
      const channels = await root.get(`/api/data/breakdown?by=channel&top=1&${range(1)}`)
      assert.deepEqual(
        channels.body.data.top.map((k: any) => [k.label, k.count]),
        [['#8', 4]],
      )
      assert.equal(channels.body.data.others.count, 3)
      const one = await root.get(`/api/data/breakdown?by=token&username=ann&${range(1)}`)
      assert.deepEqual(
        one.body.data.top.map((k: any) => k.key),
        [String(ids.a2), String(ids.a1)],
      )
    })

    it('shows a user only their own models and tokens', async () => {
      const models = await ann.get(`/api/data/self/breakdown?by=model&${range(2)}`)
      assert.deepEqual(
        models.body.data.top.map((k: any) => k.key),
        ['gemini', 'claude', 'gpt-4o'],
      )
      assert.equal(models.body.data.others, null)
      const tokens = await ann.get(`/api/data/self/breakdown?by=token&${range(2)}`)
      assert.deepEqual(
        tokens.body.data.top.map((k: any) => k.key),
        [String(ids.a2), String(ids.a1)],
      )
      assertRefused(await ann.get(`/api/data/self/breakdown?by=user&${range(1)}`), 'by user', 'by')
      assertRefused(await ann.get(`/api/data/self/breakdown?by=channel&${range(1)}`), 'by channel', 'by')
      assert.equal((await ann.get(`/api/data/breakdown?by=model&${range(1)}`)).status, 403)
    })

    it('refuses more than 92 days and a bad granularity', async () => {
      assertRefused(await root.get(`/api/data/breakdown?${range(93)}`), 'span')
      const bad = await root.get(`/api/data/breakdown?granularity=month&${range(1)}`)
      assert.equal(bad.body.success, false)
    })
  })

  describe(`ledger user, token, channel and daily buckets (${dialect})`, () => {
    let f: RelayFixture
    before(async () => {
      f = await relayFixture(dialect)
    })
    after(() => f.close())

    it('adds every settled request to its user, token, channel, total and daily buckets, exactly as the logs', async () => {
      const channel = await f.channel({ key: 'dims', models: 'gpt-3.5-turbo' })
      const userId = await f.user({ quota: 1_000_000 })
      const one = await f.token(userId, { unlimited: true })
      const two = await f.token(userId, { unlimited: true })
      const chat = (key: string) =>
        f.call(key, 'POST', '/v1/chat/completions', { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })
      for (let i = 0; i < 5; i++) assert.equal((await chat(i < 3 ? one.key : two.key)).status, 200)
      await f.idle()
      const db = f.s.ctx.db
      const logs = await db
        .selectFrom('logs')
        .select([
          'token_id',
          sql<number>`count(*)`.as('n'),
          sql<number>`sum(quota)`.as('q'),
          sql<number>`sum(prompt_tokens + completion_tokens)`.as('t'),
        ])
        .where('user_id', '=', userId)
        .groupBy('token_id')
        .execute()
      const dims = await db.selectFrom('quota_dims').selectAll().where('user_id', '=', userId).where('dim', '=', 'token').execute()
      const sum = (rows: any[], key: string) => rows.reduce((a, r) => a + Number(r[key]), 0)
      for (const l of logs) {
        const mine = dims.filter((d) => Number(d.key_id) === Number(l.token_id))
        assert.equal(sum(mine, 'count'), Number(l.n))
        assert.equal(sum(mine, 'quota'), Number(l.q))
        assert.equal(sum(mine, 'token_used'), Number(l.t))
      }
      assert.equal(sum(dims, 'count'), 5)
      const ch = await db.selectFrom('quota_dims').selectAll().where('dim', '=', 'channel').where('key_id', '=', channel).execute()
      assert.equal(sum(ch, 'count'), 5)
      assert.equal(sum(ch, 'quota'), sum(logs, 'q'))
      for (const d of [...dims, ...ch]) assert.equal(Number(d.created_at) % H, 0)
      // the user's and everyone's hourly buckets, and every key's daily row, hold the same figures
      const mine = await db.selectFrom('quota_dims').selectAll().where('dim', '=', 'user').where('key_id', '=', userId).execute()
      assert.deepEqual([sum(mine, 'count'), sum(mine, 'quota'), sum(mine, 'token_used')], [5, sum(logs, 'q'), sum(logs, 't')])
      const all = await db.selectFrom('quota_dims').selectAll().where('dim', '=', 'all').execute()
      assert.deepEqual([sum(all, 'count'), sum(all, 'quota')], [5, sum(logs, 'q')])
      for (const [dim, key, hourly] of [
        ['user', userId, mine],
        ['token', one.id, dims.filter((d) => Number(d.key_id) === one.id)],
        ['channel', channel, ch],
      ] as const) {
        const days = await db.selectFrom('quota_days').selectAll().where('dim', '=', dim).where('key_id', '=', key).execute()
        assert.ok(days.length > 0, `${dim} has its daily row`)
        for (const d of days) assert.equal(Number(d.created_at) % DAY, 0)
        assert.deepEqual(
          [sum(days, 'count'), sum(days, 'quota'), sum(days, 'token_used')],
          [sum(hourly, 'count'), sum(hourly, 'quota'), sum(hourly, 'token_used')],
          dim,
        )
      }
    })
  })
}
