import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { dialects, startServer, type TestServer } from './helpers.ts'
import { chooseWalk, listLogs, listLogsQuery, type LogFilter } from '../../server/db/logs.ts'
import { HOUR } from '../../domain/time.ts'

// an hour's start, so that windows begin and end inside hours and on their edges
const T0 = 1_700_002_800

for (const dialect of dialects) {
  describe(`log list, the hours walk (${dialect})`, () => {
    let s: TestServer
    const rows: Array<{ id: number; created_at: number; type: number; username: string; model_name: string }> = []
    before(async () => {
      s = await startServer(dialect)
      // 600 rows over 50 hours whose times follow the ids only roughly: some written up to three
      // hours after their created_at (a long stream, a late batch), one on an hour's last second
      const values = Array.from({ length: 600 }, (_, i) => ({
        user_id: 1,
        username: i % 4 === 0 ? 'ann' : 'root',
        created_at: T0 + i * 300 - (i % 11 === 0 ? ((i * 7919) % 3) * HOUR + 17 : 0) - (i === 300 ? 1 : 0),
        type: i % 6 === 0 ? 1 : 2,
        content: `h${i}`,
        model_name: ['gpt-4o', 'o1', 'claude'][i % 3]!,
        channel: i % 5,
      }))
      await s.ctx.db.insertInto('logs').values(values).execute()
      rows.push(...(await s.ctx.db.selectFrom('logs').select(['id', 'created_at', 'type', 'username', 'model_name']).execute()))
    })
    after(() => s.close())

    it('gives the page the rows sorted by id give, over any window of hours', async () => {
      const { db, database } = s.ctx
      const time = fc.integer({ min: T0 - 4 * HOUR, max: T0 + 52 * HOUR })
      await fc.assert(
        fc.asyncProperty(
          time,
          fc.integer({ min: 0, max: 30 * HOUR }),
          fc.constantFrom(undefined, 1, 2),
          fc.integer({ min: 0, max: 4 }),
          fc.integer({ min: 1, max: 30 }),
          fc.constantFrom(undefined, 'ann', 'root'),
          fc.constantFrom(undefined, 'gpt', 'o1'),
          async (start, span, type, page, size, username, modelName) => {
            const f: LogFilter = { start, end: start + span, type, username, modelName }
            const want = rows
              .filter(
                (r) =>
                  r.created_at >= start &&
                  r.created_at <= start + span &&
                  (type === undefined || r.type === type) &&
                  (username === undefined || r.username === username) &&
                  (modelName === undefined || r.model_name.startsWith(modelName)),
              )
              .map((r) => r.id)
              .sort((a, b) => b - a)
              .slice(page * size, page * size + size)
            const got = (await listLogsQuery(db, database.dialect, f, page, size, 'hours').execute()).map((r) => r.id)
            assert.deepEqual(got, want, JSON.stringify({ f, page, size }))
          },
        ),
        { numRuns: 120, seed: 20261125 },
      )
    })

    it('is chosen for a wide window far behind the newest rows, and gives way to the time index beyond its reach', async () => {
      const { db, database } = s.ctx
      const limits = { wide: 20, skip: 40 }
      const far = { start: T0 + 2 * HOUR + 100, end: T0 + 12 * HOUR }
      assert.equal(await chooseWalk(db, far, limits, database.dialect), 'hours')
      const want = rows
        .filter((r) => r.created_at >= far.start && r.created_at <= far.end)
        .map((r) => r.id)
        .sort((a, b) => b - a)
      assert.deepEqual(
        (await listLogs(db, database.dialect, far, 1, 7)).map((r) => r.id),
        want.slice(7, 14),
        'through listLogs (on PostgreSQL inside the index-only transaction)',
      )
      // a page so deep that every hour would give thousands of ids: the time index sorts them instead
      const deep = { start: T0, end: T0 + 40 * HOUR }
      const page = (await listLogsQuery(db, database.dialect, deep, 400, 10, 'hours').compile()).sql
      assert.doesNotMatch(page, /union all/i, 'falls back to the window walk')
      const near = (await listLogsQuery(db, database.dialect, far, 0, 10, 'hours').compile()).sql
      assert.match(near, /union all/i)
    })
  })
}
