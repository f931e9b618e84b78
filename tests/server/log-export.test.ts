/**
 * The usage log's CSV export (issue 15): GET /api/log/export (admin) and /api/log/self/export
 * (the caller's rows only) stream the current filter as CSV, in keyset batches read only as the
 * client reads, in the reader's language, quota in the display unit, the file named after the filter.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, downloadCsv, startServer, Client, type TestServer } from './helpers.ts'
import { logBatch } from '../../server/db/logs.ts'
import { CSV_BATCH, csvCell, csvStream } from '../../server/lib/csv-stream.ts'
import { logColumns } from '../../server/lib/log-csv.ts'

const T0 = 1_700_000_000
const SHOP = 'https://shop.example'
const BIG = 100_000

/** Inserts `n` logs of `user` in chunks (ids ascend with time). */
async function insertLogs(s: TestServer, n: number, user: { id: number; username: string }, from = 0) {
  for (let i = 0; i < n; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({
      user_id: user.id,
      username: user.username,
      created_at: T0 + from + i + k,
      type: 2,
      content: `bulk ${i + k}`,
      token_name: 'bulk-key',
      model_name: 'bulk-model',
      quota: 7,
      prompt_tokens: 1,
      completion_tokens: 2,
      channel: 9,
      other: '',
    }))
    await s.ctx.db.insertInto('logs').values(rows).execute()
  }
}

for (const dialect of dialects) {
  describe(`log export (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let alice: Client & { id: number; username: string }
    let bob: Client & { id: number; username: string }

    before(async () => {
      s = await startServer(dialect, { corsOrigins: [SHOP] })
      // quota as plain quota, except in the test that shows it in dollars
      await s.ctx.options.set('DisplayInCurrencyEnabled', 'false')
      root = await s.root()
      alice = await s.user({ username: 'alice' })
      bob = await s.user({ username: 'bob' })
      const rows = []
      for (let i = 0; i < 12; i++) {
        const who = i % 3 === 0 ? bob : alice
        rows.push({
          user_id: who.id,
          username: who.username,
          created_at: T0 + i * 100,
          type: i % 4 === 0 ? 1 : 2,
          content: i === 5 ? 'said "hi", then\nleft' : `row ${i}`,
          token_name: i % 2 ? 'key-a' : '=cmd|x',
          model_name: ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku'][i % 3]!,
          quota: 250_000 * (i + 1),
          prompt_tokens: i,
          completion_tokens: 2 * i,
          channel: (i % 2) + 1,
          other: JSON.stringify({ admin_info: { use_channel: [3] } }),
        })
      }
      await s.ctx.db.insertInto('logs').values(rows).execute()
    })
    after(() => s.close())

    const range = `start_timestamp=${T0}&end_timestamp=${T0 + 1100}`

    it('exports the admin filter as CSV: English headers, every matching row newest first, the file named after the filter', async () => {
      const { res, text, lines } = await downloadCsv(s, root, `/api/log/export?${range}&model_name=gpt-4o`)
      assert.equal(res.status, 200)
      assert.match(res.headers.get('content-type')!, /^text\/csv; charset=utf-8/)
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="logs-20231114-20231114-gpt-4o.csv"')
      assert.ok(text.startsWith('\ufeff'))
      assert.equal(lines[0], 'Time,Type,User,Token,Model,Prompt tokens,Completion tokens,Quota,Time used (s),Stream,Channel,Details')
      // gpt-4o is a prefix: gpt-4o (i = 0, 3, 6, 9) and gpt-4o-mini (1, 4, 7, 10)
      const details = lines.slice(1).map((l) => l.split(',').at(-1))
      assert.deepEqual(details, ['row 10', 'row 9', 'row 7', 'row 6', 'row 4', 'row 3', 'row 1', 'row 0'])
      assert.equal(lines[1], `2023-11-14 22:30:00,Consumption,alice,'=cmd|x,gpt-4o-mini,10,20,2750000,0,no,1,row 10`)
      assert.equal(lines.at(-1), `2023-11-14 22:13:20,Top-up,bob,'=cmd|x,gpt-4o,0,0,250000,0,no,1,row 0`, 'a formula is made inert')
    })

    it('honours every filter: type, token, user, channel and time', async () => {
      const count = async (q: string) => (await downloadCsv(s, root, `/api/log/export?${q}`)).lines.length - 1
      assert.equal(await count(range), 12)
      assert.equal(await count(`${range}&type=1`), 3)
      assert.equal(await count(`${range}&token_name=key-a`), 6)
      assert.equal(await count(`${range}&username=bob`), 4)
      assert.equal(await count(`${range}&channel=2`), 6)
      assert.equal(await count(`start_timestamp=${T0 + 500}&end_timestamp=${T0 + 700}`), 3)
      const named = await downloadCsv(s, root, `/api/log/export?${range}&type=2&username=bob&channel=2&token_name=key-a`)
      assert.equal(
        named.res.headers.get('content-disposition'),
        'attachment; filename="logs-20231114-20231114-type2-key-a-bob-channel2.csv"',
      )
      assert.deepEqual(
        named.lines.slice(1).map((l) => l.split(',').at(-1)),
        ['row 9', 'row 3'],
      )
    })

    it('quotes cells that need it, in the reader language, with quota in dollars when the site shows currency', async () => {
      await s.ctx.options.set('DisplayInCurrencyEnabled', 'true')
      try {
        const { text, lines } = await downloadCsv(s, alice, `/api/log/self/export?${range}&model_name=claude`, {
          'accept-language': 'zh-CN,zh;q=0.9',
        })
        assert.equal(lines[0], '时间,类型,令牌,模型,提示 tokens,补全 tokens,额度（美元）,用时（秒）,流式,详情')
        assert.ok(text.includes(`,claude-3-haiku,5,10,3,0,否,"said ""hi"", then\nleft"\r\n`), text)
      } finally {
        await s.ctx.options.set('DisplayInCurrencyEnabled', 'false')
      }
    })

    it("never gives a user another user's rows, whatever they ask for", async () => {
      for (const q of [range, `${range}&username=bob`, `${range}&channel=1`, '']) {
        const { res, lines } = await downloadCsv(s, alice, `/api/log/self/export?${q}`)
        assert.equal(res.status, 200)
        assert.equal(lines[0]!.includes('User'), false, 'no user column')
        assert.ok(lines.length > 1)
        for (const l of lines.slice(1)) assert.doesNotMatch(l, /row (0|3|6|9)$/, `bob's row in alice's export: ${l}`)
      }
      assert.equal((await downloadCsv(s, alice, `/api/log/self/export?${range}`)).lines.length - 1, 8)
      assert.match(
        (await downloadCsv(s, alice, `/api/log/self/export?${range}`)).res.headers.get('content-disposition')!,
        /filename="logs-self-/,
      )
      assert.equal((await downloadCsv(s, alice, '/api/log/export')).res.status, 403, 'the admin export is an admin call')
      assert.equal((await downloadCsv(s, s.anon, '/api/log/self/export')).res.status, 401)
    })

    it('works with the embed credential from its own origin', async () => {
      const c = new Client(s)
      c.console = false
      const r = await c.call('POST', '/api/user/login', { username: 'alice', password: 'password123' }, { origin: SHOP })
      c.bearer = r.body.data.session.token
      const mine = await downloadCsv(s, c, `/api/log/self/export?${range}`, { origin: SHOP })
      assert.equal(mine.res.status, 200)
      assert.equal(mine.lines.length - 1, 8)
      assert.equal((await downloadCsv(s, c, `/api/log/self/export?${range}`, { origin: 'https://evil.example' })).res.status, 401)
    })

    it(`streams ${BIG} rows in batches of ${CSV_BATCH}, reading no batch before the client asks for it`, async () => {
      const heavy = await s.user({ username: 'heavy' })
      await insertLogs(s, BIG, heavy, 10_000)
      const f = { userId: heavy.id }
      let read = 0
      let batches = 0
      const { header, cells } = logColumns('en', false, { currency: false, quotaPerUnit: 500000 })
      const stream = csvStream({
        header,
        cells,
        batch: (beforeId, size) => logBatch(s.ctx.db, s.ctx.database.dialect, f, beforeId, size),
        onBatch: (n) => {
          read += n
          batches++
        },
      })
      const reader = stream.getReader()
      assert.equal((await reader.read()).done, false, 'the header')
      await new Promise((r) => setTimeout(r, 100))
      assert.equal(read, 0, 'nothing read while the client waits')
      let consumed = 0
      let ahead = 0
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        consumed += new TextDecoder().decode(chunk.value).split('\r\n').length - 1
        ahead = Math.max(ahead, read - consumed)
      }
      assert.equal(consumed, BIG)
      assert.equal(ahead, 0, 'the rows read are the rows the client took')
      assert.equal(batches, BIG / CSV_BATCH + 1, 'full batches, then the empty one that ends it')

      // through HTTP: the whole export, counting lines as they come; the server's memory stays flat
      const rss0 = process.memoryUsage().rss
      let peak = rss0
      const res = await s.app.request(`http://localhost/api/log/export?username=heavy`, { headers: { cookie: root.cookie } })
      let lines = 0
      let bytes = 0
      const body = res.body!.getReader()
      for (let c = await body.read(); !c.done; c = await body.read()) {
        bytes += c.value.length
        for (const b of c.value) if (b === 10) lines++
        peak = Math.max(peak, process.memoryUsage().rss)
      }
      assert.equal(lines, BIG + 1)
      const growth = (peak - rss0) / 2 ** 20
      console.log(`${dialect}: ${BIG} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV, RSS growth ${growth.toFixed(1)} MiB`)
      assert.ok(growth < 64, `RSS grew ${growth.toFixed(1)} MiB`)
    })

    it('writes cells as CSV', () => {
      assert.deepEqual(['a', 'a,b', 'say "x"', 'l1\nl2', '=1+1', '+x', '-x', '@x', 3, ''].map(csvCell), [
        'a',
        '"a,b"',
        '"say ""x"""',
        '"l1\nl2"',
        "'=1+1",
        "'+x",
        "'-x",
        "'@x",
        '3',
        '',
      ])
    })
  })
}
