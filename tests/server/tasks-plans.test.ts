/**
 * How the task lists find a page (issue 15): on an index in the page's order, never by reading
 * every task of a platform, or every task, and sorting them. Checked on the plans themselves, as
 * each database makes them for 40,000 tasks it has no statistics of (as after a bulk load).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { CompiledQuery, sql } from 'kysely'
import { dialects, startServer, type TestServer } from './helpers.ts'
import { inIdOrder, taskIdsQuery, type TaskFilter } from '../../server/db/tasks.ts'
import { onIndexes } from '../../server/db/dialect.ts'

for (const dialect of dialects) {
  describe(`task list plans (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
      // a quarter of them Midjourney's, the users' tasks spread over 500 users
      await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < 40000)
        insert into tasks (platform, user_id, task_id, progress)
        select case when n % 4 = 0 then 'midjourney' else 'suno' end, n % 500, 'plan-' || n, '100%' from g`.execute(s.ctx.db)
    })
    after(() => s.close())

    /** The plan of a page's ids, one line a step, as listTasks reads them. */
    const plan = async (f: TaskFilter, page: number) => {
      const q = taskIdsQuery(s.ctx.db, f, page, 10).compile()
      if (dialect === 'sqlite') {
        const rows = s.ctx.database.sqlite!.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as never[]))
        return rows.map((r) => String(r.detail)).join('\n')
      }
      // PostgreSQL's plan under the settings listTasks reads with
      return onIndexes(s.ctx.db, dialect, false, async (tx) => {
        await inIdOrder(tx, dialect, f)
        const r = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]))
        return r.rows.map((row) => row['QUERY PLAN']).join('\n')
      })
    }

    it("finds a user's own tasks of every platform but Midjourney on their (user_id, id) index", async () => {
      const p = await plan({ otherThan: 'midjourney', userId: 7 }, 0)
      assert.match(p, /tasks_user_id/, p)
      assert.doesNotMatch(p, /SCAN tasks$|Seq Scan|Bitmap|TEMP B-TREE|Sort/m, p)
    })

    it("finds a late page of a platform's tasks on its (platform, id) index, in order", async () => {
      const p = await plan({ platform: 'midjourney' }, 300)
      assert.match(p, /tasks_platform_id/, p)
      assert.doesNotMatch(p, /SCAN tasks$|Seq Scan|Bitmap|TEMP B-TREE|Sort/m, p)
    })
  })
}
