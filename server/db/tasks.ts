/** The tasks table: one row per image, music or video task of any provider kind, told apart by platform. */
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { DB, TasksTable } from './schema.ts'
import { onIndexes } from './dialect.ts'
import type { Dialect } from './index.ts'
import { addQuota } from './users.ts'
import { writeAccountLogs, type AccountLog } from './account-logs.ts'

export type TaskRow = Selectable<TasksTable>

export interface TaskFilter {
  platform?: string
  /** every platform but this one (the family's /api/task/ leaves Midjourney out) */
  otherThan?: string
  status?: string
  action?: string
  /** only this user's tasks (the /self lists) */
  userId?: number
  channelId?: number
  /** the provider's task id */
  taskId?: string
  subPlatform?: string
  /** submit_time bounds in milliseconds, both inclusive */
  submittedFrom?: number
  submittedTo?: number
  /** only tasks with a lower id (the CSV export reads in keyset batches) */
  beforeId?: number
}

/**
 * One page of tasks, newest first: the page's ids first, on an index in id order where the filters
 * allow, then only those rows read whole (a late page no longer reads every task it skips, their
 * prompts, images and properties).
 */
export function listTasks(db: Kysely<DB>, dialect: Dialect, f: TaskFilter, page: number, size: number): Promise<TaskRow[]> {
  return onIndexes(db, dialect, false, async (tx) => {
    await inIdOrder(tx, dialect, f)
    const ids = (await taskIdsQuery(tx, f, page, size).execute()).map((r) => r.id)
    if (!ids.length) return []
    const rows = await tx.selectFrom('tasks').selectAll().where('id', 'in', ids).execute()
    return rows.sort((a, b) => b.id - a.id)
  })
}

/**
 * PostgreSQL, inside onIndexes' transaction: the page's ids are read from an index in id order,
 * not sorted. Without statistics its planner took every task of a platform (a bitmap of 23,000 of
 * Midjourney's, or another index of the platform) and sorted them for a late page, where the
 * (platform, id) index gives the page in order (60-90 ms against 10). There is always such an
 * index (the primary key at least); only a submit time window keeps the planner's choice, which
 * may read the window on its own index.
 */
export async function inIdOrder(tx: Kysely<DB>, dialect: Dialect, f: TaskFilter): Promise<void> {
  if (dialect === 'postgres' && f.submittedFrom === undefined && f.submittedTo === undefined)
    await sql`select set_config('enable_sort', 'off', true)`.execute(tx)
}

/** The ids of one page of tasks, highest first. */
export function taskIdsQuery(db: Kysely<DB>, f: TaskFilter, page: number, size: number) {
  let query = db.selectFrom('tasks').select('id')
  if (f.platform) query = query.where('platform', '=', f.platform)
  if (f.otherThan) query = query.where('platform', '!=', f.otherThan)
  if (f.status) query = query.where('status', '=', f.status)
  if (f.action) query = query.where('action', '=', f.action)
  if (f.userId !== undefined) query = query.where('user_id', '=', f.userId)
  if (f.channelId !== undefined) query = query.where('channel_id', '=', f.channelId)
  if (f.taskId) query = query.where('task_id', '=', f.taskId)
  if (f.subPlatform) query = query.where('sub_platform', '=', f.subPlatform)
  if (f.submittedFrom !== undefined) query = query.where('submit_time', '>=', f.submittedFrom)
  if (f.submittedTo !== undefined) query = query.where('submit_time', '<=', f.submittedTo)
  if (f.beforeId !== undefined) query = query.where('id', '<', f.beforeId)
  return query
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
}

export type NewTask = Insertable<TasksTable>
export type TaskChanges = Updateable<TasksTable>

/** Records a task the upstream accepted. */
export async function insertTask(db: Kysely<DB>, task: NewTask): Promise<TaskRow> {
  return db.insertInto('tasks').values(task).returningAll().executeTakeFirstOrThrow()
}

/** One task of a platform by the provider's id, the caller's own when userId is given. */
export function findTask(db: Kysely<DB>, platform: string, taskId: string, userId?: number): Promise<TaskRow | undefined> {
  let q = db.selectFrom('tasks').selectAll().where('platform', '=', platform).where('task_id', '=', taskId)
  if (userId !== undefined) q = q.where('user_id', '=', userId)
  return q.orderBy('id', 'desc').executeTakeFirst()
}

/** The tasks of a platform with these provider ids (at most 500), the caller's own when userId is given. */
export function findTasks(db: Kysely<DB>, platform: string, taskIds: readonly string[], userId?: number): Promise<TaskRow[]> {
  if (taskIds.length === 0) return Promise.resolve([])
  let q = db.selectFrom('tasks').selectAll().where('platform', '=', platform).where('task_id', 'in', taskIds.slice(0, 500))
  if (userId !== undefined) q = q.where('user_id', '=', userId)
  return q.orderBy('id', 'desc').execute()
}

/**
 * Claims up to `limit` unfinished tasks whose lease has run out, oldest first, by setting their
 * lease to `until`. The update re-checks the lease, so when instances race for the same rows each
 * row goes to one of them; the rows returned are the ones this caller won.
 */
export async function claimDueTasks(db: Kysely<DB>, now: number, until: number, limit: number): Promise<TaskRow[]> {
  const due = await db
    .selectFrom('tasks')
    .select('id')
    .where('progress', '!=', '100%')
    .where('lease_until', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute()
  if (due.length === 0) return []
  return db
    .updateTable('tasks')
    .set({ lease_until: until })
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .where('lease_until', '<=', now)
    .returningAll()
    .execute()
}

/** Writes what a poll learned about a task; it is due again at `dueAt` (milliseconds). */
export async function updateTask(db: Kysely<DB>, id: number, changes: TaskChanges, dueAt: number): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ ...changes, poll_errors: 0, lease_until: dueAt, updated_at: Math.floor(Date.now() / 1000) })
    .where('id', '=', id)
    .execute()
}

/** A poll of these tasks failed: count it and keep them leased until `until` (the back-off). */
export async function delayTasks(db: Kysely<DB>, ids: readonly number[], until: number): Promise<void> {
  if (ids.length === 0) return
  await db
    .updateTable('tasks')
    .set({ poll_errors: sql`poll_errors + 1`, lease_until: until })
    .where('id', 'in', ids)
    .execute()
}

/**
 * Gives a failed task's charge back, at most once whatever the number of instances: the flag
 * flips in the same transaction that returns the quota to the user and the token, takes it off
 * their used counters, and writes the system log row. False when it was already refunded.
 */
export async function refundTask(db: Kysely<DB>, task: TaskRow, log: AccountLog): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const flipped = await tx
      .updateTable('tasks')
      .set({ refunded: 1 })
      .where('id', '=', task.id)
      .where('refunded', '=', 0)
      .executeTakeFirst()
    if (Number(flipped.numUpdatedRows) !== 1 || task.quota <= 0) return Number(flipped.numUpdatedRows) === 1
    await addQuota(tx, task.user_id, task.quota)
    await tx
      .updateTable('users')
      .set({ used_quota: sql`used_quota - ${task.quota}` })
      .where('id', '=', task.user_id)
      .execute()
    if (task.token_id > 0)
      await tx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${task.quota}`, used_quota: sql`used_quota - ${task.quota}` })
        .where('id', '=', task.token_id)
        .execute()
    if (task.channel_id > 0)
      await tx
        .updateTable('channels')
        .set({ used_quota: sql`used_quota - ${task.quota}` })
        .where('id', '=', task.channel_id)
        .execute()
    await writeAccountLogs(tx, [log])
    return true
  })
}

/** How many of a user's tasks of a platform are unfinished. */
export async function countUnfinished(db: Kysely<DB>, platform: string, userId: number): Promise<number> {
  const r = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('platform', '=', platform)
    .where('user_id', '=', userId)
    .where('progress', '!=', '100%')
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}
