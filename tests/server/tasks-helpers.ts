/** Fixtures for the task relay tests: the relay fixture, the fake task provider, poll rounds. */
import { relayFixture, type RelayFixture } from './relay-helpers.ts'
import type { Dialect } from './helpers.ts'
import { startFakeTaskUpstream, type FakeTaskUpstream } from '../fake-task-upstream.ts'
import { pollerOf } from '../../server/relay/tasks/index.ts'

export interface TaskFixture extends RelayFixture {
  provider: FakeTaskUpstream
  /** runs n poll rounds, each after the tasks' lease (TaskPollInterval 0.02 s) has run out */
  rounds(n: number): Promise<void>
  /** a user with a token and the given quota */
  account(quota?: number): Promise<{ userId: number; tokenId: number; key: string }>
  /** POSTs JSON with a bearer key and reads the JSON answer */
  send(key: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>
  task(taskId: string): Promise<any>
}

export async function taskFixture(dialect: Dialect, options: Record<string, string> = {}): Promise<TaskFixture> {
  const f = await relayFixture(dialect, { TaskPollInterval: '0.02', ...options })
  // the tests run the rounds themselves
  await pollerOf(f.s.ctx).stop()
  const provider = await startFakeTaskUpstream()
  const close = f.close
  return Object.assign(f, {
    provider,
    async rounds(n: number) {
      for (let i = 0; i < n; i++) {
        await new Promise((r) => setTimeout(r, 30))
        await pollerOf(f.s.ctx).round()
      }
    },
    async account(quota = 1_000_000) {
      const userId = await f.user({ quota })
      const t = await f.token(userId, { unlimited: true })
      return { userId, tokenId: t.id, key: t.key }
    },
    async send(key: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      const res = await f.call(key, method, path, body, headers)
      const text = await res.text()
      let json: any = null
      try {
        json = JSON.parse(text)
      } catch {
        json = text
      }
      return { status: res.status, json }
    },
    task: (taskId: string) => f.s.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow(),
    async close() {
      await close()
      await provider.close()
    },
  })
}

/** The user's balance and used counters, the consumption log sum and the task refund rows. */
export async function balances(f: TaskFixture, userId: number) {
  await f.idle()
  const db = f.s.ctx.db
  const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow()
  const consumed = await db.selectFrom('logs').select('quota').where('user_id', '=', userId).where('type', '=', 2).execute()
  const refunds = await db
    .selectFrom('logs')
    .select(['quota', 'other', 'content'])
    .where('user_id', '=', userId)
    .where('type', '=', 4)
    .execute()
  const sum = (rows: Array<{ quota: number }>) => rows.reduce((a, r) => a + Number(r.quota), 0)
  return { quota: Number(user.quota), used: Number(user.used_quota), consumed: sum(consumed), refunded: sum(refunds), refunds }
}
