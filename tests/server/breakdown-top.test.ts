/**
 * The top users, tokens and channels of a long breakdown come from the daily rows (issue 15): for
 * usage skewed toward a few keys (as real gateways' is) and for usage spread evenly, over ranges
 * that start and end mid-day, the keys found and their figures are exactly those of summing every
 * hourly bucket.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, type Client, type TestServer } from './helpers.ts'
import { topFromDays, type KeySums } from '../../server/db/breakdown-top.ts'
import { refillRollups, type DimDelta } from '../../server/db/quota-data.ts'
import { rng } from '../../scripts/seed-data.ts'

const H = 3600
const DAY = 24 * H
// a Monday, 00:00 UTC
const T0 = Date.UTC(2024, 0, 1) / 1000
const DAYS = 12

type Bucket = DimDelta & { dim: 'token' | 'channel' }

/** Hourly buckets of `keys` keys over DAYS days; `skew` > 1 gives a few heavy keys and a long tail. */
function buckets(dim: 'token' | 'channel', keys: number, skew: number, seed: number): Bucket[] {
  const rand = rng(seed)
  const out = new Map<string, Bucket>()
  for (let h = 0; h < DAYS * 24; h++) {
    for (let i = 0; i < 60; i++) {
      const key = 1 + Math.floor(keys * rand() ** skew)
      const at = T0 + h * H
      const k = `${key}:${at}`
      const b = out.get(k) ?? { dim, key_id: key, user_id: 0, created_at: at, token_used: 0, count: 0, quota: 0 }
      b.count += 1
      b.quota += 1 + Math.floor(rand() * 1000)
      b.token_used += 10
      out.set(k, b)
    }
  }
  return [...out.values()]
}

/** The top keys by summing every bucket in the range, ordered as the breakdown orders them. */
function bruteTop(rows: Bucket[], start: number, end: number, top: number): KeySums[] {
  const sums = new Map<number, KeySums>()
  for (const r of rows) {
    if (r.created_at < start || r.created_at > end) continue
    const s = sums.get(r.key_id) ?? { key: r.key_id, count: 0, quota: 0, token_used: 0 }
    s.count += r.count
    s.quota += r.quota
    s.token_used += r.token_used
    sums.set(r.key_id, s)
  }
  return [...sums.values()].sort((a, b) => b.quota - a.quota || b.count - a.count || a.key - b.key).slice(0, top)
}

for (const dialect of dialects) {
  describe(`breakdown top keys from the daily rows (${dialect})`, () => {
    let s: TestServer
    let root: Client
    // tokens: 400 keys, skewed; channels: 300 keys, spread evenly
    const tokens = buckets('token', 400, 2.5, 7)
    const channels = buckets('channel', 300, 1, 11)

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      const rows = [...tokens, ...channels]
      for (let i = 0; i < rows.length; i += 500)
        await s.ctx.db
          .insertInto('quota_dims')
          .values(rows.slice(i, i + 500))
          .execute()
      await refillRollups(s.ctx.db)
      // everyone's hourly total, as the ledger writes it: here the tokens' usage (the channels' is other data)
      const all = new Map<number, Bucket>()
      for (const t of tokens) {
        const a = all.get(t.created_at) ?? { ...t, key_id: 0, quota: 0, count: 0, token_used: 0 }
        a.quota += t.quota
        a.count += t.count
        a.token_used += t.token_used
        all.set(t.created_at, a)
      }
      await s.ctx.db
        .insertInto('quota_dims')
        .values([...all.values()].map((a) => ({ ...a, dim: 'all' as const })))
        .execute()
    })
    after(() => s.close())

    const rand = rng(3)
    const ranges: Array<[number, number]> = [
      [T0, T0 + DAYS * DAY - 1],
      [T0 + 5 * H, T0 + 3 * DAY + 7 * H],
      [T0 + DAY + 13 * H, T0 + DAY + 20 * H],
      [T0 + 2 * DAY - 1, T0 + 2 * DAY + H],
    ]
    for (let i = 0; i < 6; i++) {
      const a = T0 + Math.floor(rand() * DAYS * DAY)
      const b = T0 + Math.floor(rand() * DAYS * DAY)
      ranges.push([Math.min(a, b), Math.max(a, b)])
    }

    it('proves the top of skewed usage from the lists alone, exactly as summing every bucket', async () => {
      for (const [start, end] of ranges) {
        for (const top of [1, 8, 20]) {
          const found = await topFromDays(s.ctx.db, dialect, 'token', start, end, top)
          assert.ok(found, `proven for ${start - T0}..${end - T0}, top ${top}`)
          assert.deepEqual(found, bruteTop(tokens, start, end, top), `${start - T0}..${end - T0}, top ${top}`)
        }
      }
    })

    it('reads deeper, or gives up, when usage is spread evenly, and is never wrong', async () => {
      for (const [start, end] of ranges) {
        const found = await topFromDays(s.ctx.db, dialect, 'channel', start, end, 8)
        if (found) assert.deepEqual(found, bruteTop(channels, start, end, 8), `${start - T0}..${end - T0}`)
      }
    })

    it("answers the breakdown route with the same top keys, and the others as everyone's total less theirs", async () => {
      const [start, end] = [T0 + 7 * H, T0 + 9 * DAY + 2 * H]
      const ask = (by: string) =>
        root.get(`/api/data/breakdown?by=${by}&granularity=day&top=5&start_timestamp=${start}&end_timestamp=${end}`)
      const figures = (keys: KeySums[]) => keys.map((k) => [k.key, k.count, k.quota, k.token_used])
      const byToken = await ask('token')
      assert.equal(byToken.body.success, true, byToken.body.message)
      const all = bruteTop(tokens, start, end, Infinity)
      assert.deepEqual(figures(byToken.body.data.top.map((k: any) => ({ ...k, key: Number(k.key) }))), figures(all.slice(0, 5)))
      const rest = all.slice(5)
      assert.deepEqual(byToken.body.data.others, {
        count: rest.reduce((n, k) => n + k.count, 0),
        quota: rest.reduce((n, k) => n + k.quota, 0),
        token_used: rest.reduce((n, k) => n + k.token_used, 0),
      })
      const byChannel = await ask('channel')
      assert.deepEqual(
        figures(byChannel.body.data.top.map((k: any) => ({ ...k, key: Number(k.key) }))),
        figures(bruteTop(channels, start, end, 5)),
      )
    })
  })
}
