/**
 * The task lists' CSV export (issue 15): GET /api/<list>/export (admin) and /api/<list>/self/export
 * (the caller's tasks only) stream the list's current filter as CSV, newest first, in keyset
 * batches read only as the client reads, in the reader's language, the file named after the filter.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, downloadCsv, startServer, type Client, type TestServer } from './helpers.ts'
import { listTasks } from '../../server/db/tasks.ts'
import { CSV_BATCH, csvStream } from '../../server/lib/csv-stream.ts'
import { taskColumns } from '../../server/lib/task-csv.ts'

// 14 November 2023, in milliseconds (task times are milliseconds)
const T0 = 1_700_000_000_000
const BIG = 30_000

const task = (platform: string, user: number, i: number, extra: Record<string, unknown> = {}) => ({
  platform,
  user_id: user,
  channel_id: 1 + (i % 2),
  task_id: `${platform}-${i}`,
  action: 'IMAGINE',
  status: i % 4 === 0 ? 'FAILURE' : 'SUCCESS',
  progress: '100%',
  prompt: i === 3 ? 'a cat, "smiling"' : `prompt ${i}`,
  fail_reason: i % 4 === 0 ? 'upstream said no' : '',
  quota: 1000 + i,
  submit_time: T0 + i * 60_000,
  start_time: T0 + i * 60_000 + 2000,
  finish_time: T0 + i * 60_000 + 30_000,
  image_url: `https://img.example/${i}.png`,
  ...extra,
})

for (const dialect of dialects) {
  describe(`task export (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let alice: Client & { id: number; username: string }
    let bob: Client & { id: number; username: string }

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      alice = await s.user({ username: 'alice' })
      bob = await s.user({ username: 'bob' })
      const rows = Array.from({ length: 10 }, (_, i) => task('midjourney', i % 3 === 0 ? bob.id : alice.id, i))
      rows.push(task('suno', alice.id, 100, { action: 'MUSIC' }))
      await s.ctx.db
        .insertInto('tasks')
        .values(rows as never)
        .execute()
    })
    after(() => s.close())

    const range = `start_timestamp=${T0 / 1000}&end_timestamp=${T0 / 1000 + 3600}`

    it('exports the admin filter as CSV, newest first, with the user and channel, named after the filter', async () => {
      const { res, text, lines } = await downloadCsv(s, root, `/api/mj/export?${range}`)
      assert.equal(res.status, 200)
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8')
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="tasks-midjourney-20231114-20231114.csv"')
      assert.ok(text.startsWith('\ufeff'), 'a byte-order mark for spreadsheets')
      assert.equal(
        lines[0],
        'Submitted,Finished,Platform,Type,Task ID,User ID,Channel,Status,Progress,Quota,Queued (s),Duration (s),Prompt,Result,Fail reason',
      )
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(',')[4]),
        Array.from({ length: 10 }, (_, i) => `midjourney-${9 - i}`),
      )
      assert.equal(
        lines[1],
        `2023-11-14 22:22:20,2023-11-14 22:22:50,midjourney,IMAGINE,midjourney-9,${bob.id},2,SUCCESS,100%,1009,2,30,prompt 9,https://img.example/9.png,`,
      )
      assert.ok(text.includes(',"a cat, ""smiling""",'), 'quoted cells')
      const one = await downloadCsv(s, root, `/api/mj/export?${range}&mj_id=midjourney-4&channel_id=1`)
      assert.equal(one.lines.length, 2)
      assert.match(one.res.headers.get('content-disposition')!, /filename="tasks-midjourney-20231114-20231114-midjourney-4-channel1\.csv"/)
      const suno = await downloadCsv(s, root, '/api/suno/export')
      assert.deepEqual(
        suno.lines.slice(1).map((l) => l.split(',')[4]),
        ['suno-100'],
      )
    })

    it('gives a user only their own tasks, in their language, and the admin export is refused', async () => {
      const { res, lines } = await downloadCsv(s, alice, `/api/mj/self/export?${range}&channel_id=2`, { 'accept-language': 'zh-CN' })
      assert.equal(res.status, 200)
      assert.equal(lines[0], '提交时间,结束时间,平台,类型,任务 ID,状态,进度,额度,排队（秒）,耗时（秒）,提示词,结果,失败原因')
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(',')[4]),
        ['midjourney-8', 'midjourney-7', 'midjourney-5', 'midjourney-4', 'midjourney-2', 'midjourney-1'],
        'every own task (channel_id is an administrator filter), none of bob',
      )
      assert.match(res.headers.get('content-disposition')!, /filename="tasks-midjourney-self-/)
      assert.equal((await downloadCsv(s, alice, '/api/mj/export')).res.status, 403)
      assert.equal((await downloadCsv(s, s.anon, '/api/mj/self/export')).res.status, 401)
    })

    it(`streams ${BIG} tasks in batches of ${CSV_BATCH}, reading no batch before the client asks for it`, async () => {
      for (let i = 0; i < BIG; i += 1000) {
        const rows = Array.from({ length: 1000 }, (_, k) => task('kling', bob.id, i + k, { prompt: 'p', image_url: '' }))
        await s.ctx.db
          .insertInto('tasks')
          .values(rows as never)
          .execute()
      }
      let read = 0
      let batches = 0
      const { header, cells } = taskColumns('en', true, false)
      const stream = csvStream({
        header,
        cells,
        batch: (beforeId, size) => listTasks(s.ctx.db, s.ctx.database.dialect, { platform: 'kling', beforeId }, 0, size),
        onBatch: (n) => {
          read += n
          batches++
        },
      })
      const reader = stream.getReader()
      let consumed = -1
      let ahead = 0
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        consumed += new TextDecoder().decode(chunk.value).split('\r\n').length - 1
        ahead = Math.max(ahead, read - consumed)
      }
      assert.equal(consumed, BIG)
      assert.equal(ahead, 0, 'the rows read are the rows the client took')
      assert.equal(batches, BIG / CSV_BATCH + 1)

      const rss0 = process.memoryUsage().rss
      let peak = rss0
      const res = await s.app.request('http://localhost/api/kling/export', { headers: { cookie: root.cookie! } })
      let lines = 0
      const body = res.body!.getReader()
      for (let c = await body.read(); !c.done; c = await body.read()) {
        for (const b of c.value) if (b === 10) lines++
        peak = Math.max(peak, process.memoryUsage().rss)
      }
      assert.equal(lines, BIG + 1)
      const growth = (peak - rss0) / 2 ** 20
      console.log(`${dialect}: ${BIG} tasks exported, RSS growth ${growth.toFixed(1)} MiB`)
      assert.ok(growth < 64, `RSS grew ${growth.toFixed(1)} MiB`)
    })
  })
}
