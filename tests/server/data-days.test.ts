import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, type Client } from './helpers.ts'
import { relayFixture, type RelayFixture } from './relay-helpers.ts'
import { writePostgresBatch } from '../../server/relay/postgres-batch.ts'
import { DayJsonCache } from '../../server/db/dashboard-days.ts'

const H = 3600
const DAY = 24 * H

for (const dialect of dialects) {
  describe(`the dashboard's closed days (${dialect})`, () => {
    let f: RelayFixture
    let root: Client
    let ann: Client & { id: number; username: string }
    let key: string
    const now = Math.floor(Date.now() / 1000)
    const today = now - (now % DAY)
    // three days ago, at noon, and a range from the middle of the day before it until now
    const closed = today - 3 * DAY
    const noon = closed + 12 * H
    const range = `start_timestamp=${closed - DAY + 5 * H}&end_timestamp=${now}`

    before(async () => {
      f = await relayFixture(dialect)
      await f.channel({ key: 'days', models: 'gpt-3.5-turbo,gpt-4o' })
      root = await f.s.root()
      ann = await f.s.user({ username: 'ann', quota: 100_000_000 })
      await f.refresh()
      key = (await f.token(ann.id, { unlimited: true })).key
    })
    after(() => f.close())

    /** One chat call settled as if it were `at` (unix seconds): the ledger writes it into that hour's buckets. */
    async function callAt(at: number, model = 'gpt-3.5-turbo') {
      const realNow = Date.now
      Date.now = () => at * 1000
      try {
        const res = await f.call(key, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })
        assert.equal(res.status, 200)
        await res.arrayBuffer()
        await f.idle()
      } finally {
        Date.now = realNow
      }
    }

    /** The requests each view of the dashboard counts in `hour` for `model`: everyone's, ann's by name, ann's own. */
    async function counts(hour: number, model = 'gpt-3.5-turbo'): Promise<number[]> {
      const views = [
        await root.get(`/api/data/?${range}`),
        await root.get(`/api/data/?${range}&username=ann`),
        await ann.get(`/api/data/self?${range}`),
      ]
      return views.map((r) => {
        assert.equal(r.body.success, true, r.body.message)
        const rows = r.body.data as Array<{ created_at: number; model_name: string; count: number }>
        // in answer order: by hour, then model
        const order = rows.map((d) => [d.created_at, d.model_name] as const)
        assert.deepEqual(
          order,
          [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)),
        )
        return rows.filter((d) => d.created_at === hour && d.model_name === model).reduce((n, d) => n + d.count, 0)
      })
    }

    it('shows a late settle into a closed day at once, in every view, read again or not', async () => {
      await callAt(noon + 60)
      assert.deepEqual(await counts(noon), [1, 1, 1])
      assert.deepEqual(await counts(noon), [1, 1, 1], 'read a second time, from what was kept')
      // a request of that day settled late (or a task refunded there) writes into the closed day
      await callAt(noon + 120)
      assert.deepEqual(await counts(noon), [2, 2, 2])
      // another model in another hour of the same day, and a write into today (the range's open end)
      await callAt(noon + H + 5, 'gpt-4o')
      await callAt(now - (now % H) + 1)
      assert.deepEqual(await counts(noon + H, 'gpt-4o'), [1, 1, 1])
      assert.deepEqual(await counts(now - (now % H)), [1, 1, 1])
      assert.deepEqual(await counts(noon), [2, 2, 2])
    })

    it('answers a closed day it has read from memory until the ledger writes into that day', async () => {
      const day = closed - DAY
      const late = day + 20 * H
      const range2 = `start_timestamp=${day - 2 * H}&end_timestamp=${now}`
      await callAt(late)
      const own = async () =>
        ((await ann.get(`/api/data/self?${range2}`)).body.data as Array<{ created_at: number; count: number }>)
          .filter((d) => d.created_at === late)
          .map((d) => d.count)
      assert.deepEqual(await own(), [1])
      // the rows removed behind the ledger's back: the kept day does not know
      await f.s.ctx.db.deleteFrom('quota_data').where('user_id', '=', ann.id).where('created_at', '=', late).execute()
      assert.deepEqual(await own(), [1], 'the closed day came from memory')
      // a write by the ledger into that day: it is read again, as the database now holds it
      await callAt(late + 60)
      await callAt(late + 120)
      assert.deepEqual(await own(), [2], 'only the two new requests: the deleted bucket is gone')
    })

    if (dialect === 'postgres')
      it("reads a closed day again when another instance's ledger writes into it", async () => {
        const hour = closed + 6 * H
        assert.deepEqual(await counts(hour), [0, 0, 0])
        // what another gateway on the same database writes for a request it settled there
        const bucket = {
          user_id: ann.id,
          username: 'ann',
          model_name: 'gpt-3.5-turbo',
          created_at: hour,
          token_used: 3,
          count: 4,
          quota: 5,
        }
        await writePostgresBatch(f.s.ctx.db, {
          logs: [],
          users: [],
          tokens: [],
          channels: [],
          statuses: [],
          buckets: [bucket],
          dims: [],
          marks: [],
          now,
        })
        assert.deepEqual(await counts(hour), [4, 4, 4])
      })
  })
}

describe('DayJsonCache', () => {
  it('drops a day written since it was kept, and the least recently used beyond its bytes', () => {
    const cache = new DayJsonCache(10)
    const bytes = (s: string) => Buffer.from(s)
    cache.set('a', 1, bytes('aaaa'))
    cache.set('b', 1, bytes('bbbb'))
    assert.equal(cache.get('a', 2), undefined, 'written since: gone')
    assert.equal(cache.get('a', 1), undefined, 'and not kept under its old count either')
    cache.set('a', 2, bytes('aaaa'))
    assert.equal(cache.get('b', 1)?.toString(), 'bbbb')
    cache.set('c', 1, bytes('cccc'))
    // a was used least recently (b was read after it): the one dropped for c
    assert.deepEqual([cache.get('a', 2), cache.get('b', 1)?.toString(), cache.get('c', 1)?.toString()], [undefined, 'bbbb', 'cccc'])
    assert.equal(cache.bytes, 8)
    cache.set('huge', 1, bytes('x'.repeat(11)))
    assert.equal(cache.get('huge', 1), undefined, 'larger than the whole: never kept')
    assert.equal(cache.bytes, 8)
  })
})
