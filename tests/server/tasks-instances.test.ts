/**
 * Two real server processes (`node server/main.ts`) on one PostgreSQL database, each running its
 * own task poller on its own timer: every task is polled by one instance at a time and a failed
 * task is refunded exactly once (issue 14). The tasks are submitted through both instances.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dialects, freshPostgres } from './helpers.ts'
import { startFakeTaskUpstream, type FakeTaskUpstream } from '../fake-task-upstream.ts'
import { seed, sleep, spawnServers, type ServerProcess } from './processes.ts'
import { openDatabase } from '../../server/db/index.ts'

const PORTS = [3331, 3332]
const TASKS = 20
const PRICE = 0.1 * 500_000
const QUOTA = 100 * PRICE

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe(`two server instances polling one database (${dialect})`, () => {
    let provider: FakeTaskUpstream
    let dirs: string[]
    let databaseUrl: string
    let drop: () => Promise<void>
    let servers: ServerProcess[] = []

    before(async () => {
      provider = await startFakeTaskUpstream()
      dirs = PORTS.map(() => mkdtempSync(join(tmpdir(), 'tollgate-tasks-')))
      ;({ url: databaseUrl, drop } = await freshPostgres())
    })
    after(async () => {
      for (const s of servers) await s.kill()
      await provider.close()
      await drop()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    })

    it('polls each task by one instance at a time and refunds each failure exactly once', async () => {
      const s = await seed(dirs[0], databaseUrl, { name: 'tasks', quota: QUOTA, remain: QUOTA })
      const database = await openDatabase({ databaseUrl, dataDir: dirs[0] })
      const db = database.db
      try {
        await db
          .insertInto('channels')
          .values({
            type: 43,
            key: 'luma-fail',
            name: 'luma',
            models: 'luma_generate',
            group: 'default',
            base_url: provider.url,
            created_time: 0,
          })
          .execute()
        await db.insertInto('options').values({ key: 'TaskPollInterval', value: '0.2' }).execute()
        servers = await spawnServers(PORTS, (i) => ({ DATA_DIR: dirs[i], DATABASE_URL: databaseUrl }))

        const ids: string[] = []
        for (let i = 0; i < TASKS; i++) {
          const r = await fetch(`${servers[i % 2].base}/luma/generations`, {
            method: 'POST',
            headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ user_prompt: `task ${i}` }),
          })
          const json = (await r.json()) as { id: string }
          assert.equal(r.status, 200, JSON.stringify(json))
          ids.push(json.id)
        }
        const finished = async () =>
          (await db.selectFrom('tasks').select('id').where('progress', '=', '100%').where('task_id', 'in', ids).execute()).length
        for (let i = 0; i < 200 && (await finished()) < TASKS; i++) await sleep(100)
        assert.equal(await finished(), TASKS, 'every task failed in the end')
        // a few more rounds on both: a finished task is never asked about or refunded again
        await sleep(1000)
        await Promise.all(servers.map((x) => x.stop()))

        const rows = await db.selectFrom('tasks').select(['refunded', 'status']).where('task_id', 'in', ids).execute()
        assert.ok(rows.every((r) => Number(r.refunded) === 1 && r.status === 'failed'))
        const refunds = await db.selectFrom('logs').select('quota').where('user_id', '=', s.userId).where('type', '=', 4).execute()
        assert.equal(refunds.length, TASKS, 'one refund log per task')
        const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', s.userId).executeTakeFirstOrThrow()
        assert.equal(Number(user.quota) + Number(user.used_quota), QUOTA)
        assert.equal(Number(user.used_quota), 0, 'every charge came back')
        const token = await db
          .selectFrom('tokens')
          .select(['remain_quota', 'used_quota'])
          .where('id', '=', s.tokenId)
          .executeTakeFirstOrThrow()
        assert.equal(Number(token.remain_quota), QUOTA)
        assert.equal(Number(token.used_quota), 0)
        const polls = ids.map((id) => provider.requests.filter((q) => q.method === 'GET' && q.path.endsWith(`/${id}`)).length)
        assert.deepEqual(polls, Array(TASKS).fill(2), 'each task asked about once per stage (running, failed), by one instance')
      } finally {
        await database.close()
      }
    })
  })
}
