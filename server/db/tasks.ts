/** The tasks table: one row per image, music or video task of any provider kind, told apart by platform. */
import type { Kysely, Selectable } from 'kysely'
import type { DB, TasksTable } from './schema.ts'

export type TaskRow = Selectable<TasksTable>

export interface TaskFilter {
  platform: string
  /** only this user's tasks (the /self lists) */
  userId?: number
  channelId?: number
  /** the provider's task id */
  taskId?: string
  subPlatform?: string
  /** submit_time bounds in milliseconds, both inclusive */
  submittedFrom?: number
  submittedTo?: number
}

/** One page of tasks, newest first. */
export function listTasks(db: Kysely<DB>, f: TaskFilter, page: number, size: number): Promise<TaskRow[]> {
  let query = db.selectFrom('tasks').selectAll().where('platform', '=', f.platform)
  if (f.userId !== undefined) query = query.where('user_id', '=', f.userId)
  if (f.channelId !== undefined) query = query.where('channel_id', '=', f.channelId)
  if (f.taskId) query = query.where('task_id', '=', f.taskId)
  if (f.subPlatform) query = query.where('sub_platform', '=', f.subPlatform)
  if (f.submittedFrom !== undefined) query = query.where('submit_time', '>=', f.submittedFrom)
  if (f.submittedTo !== undefined) query = query.where('submit_time', '<=', f.submittedTo)
  return query
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
    .execute()
}
