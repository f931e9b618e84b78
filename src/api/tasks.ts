import { download, get } from './client.ts'
import type { TaskRecord } from './types.ts'
import { TASK_LIST_PATHS, type TaskPlatform } from '../../domain/tasks.ts'

export { TASK_PAGE_SIZE, type TaskPlatform } from '../../domain/tasks.ts'

export interface TaskFilters {
  /** the provider task id */
  mj_id: string
  /** unix seconds */
  start_timestamp: number
  end_timestamp: number
  /** administrators only */
  channel_id?: number | ''
  /** the Pika list's sub-platform (the query name is spelled `platfrom`) */
  platfrom?: string
}

/** Where a list is served: everyone's for administrators, else the user's own (`self/`). */
export function taskPath(platform: TaskPlatform, admin: boolean): string {
  return `/api${TASK_LIST_PATHS[platform]}/${admin ? '' : 'self/'}`
}

/** The query of a list's filters: the channel for administrators only, the sub-platform for Pika only. */
function filterQuery(platform: TaskPlatform, admin: boolean, filters: TaskFilters) {
  return {
    mj_id: filters.mj_id,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
    ...(admin ? { channel_id: filters.channel_id ?? '' } : {}),
    ...(platform === 'pika' && filters.platfrom ? { platfrom: filters.platfrom } : {}),
  }
}

/** One page of tasks: administrators read everyone's, users their own. */
export async function list(platform: TaskPlatform, admin: boolean, filters: TaskFilters, p: number): Promise<TaskRecord[]> {
  return (await get<TaskRecord[]>(taskPath(platform, admin), { p, ...filterQuery(platform, admin, filters) })).data ?? []
}

/** The list's filter as a CSV file the server streams (GET …/export, users …/self/export). */
export function exportCsv(platform: TaskPlatform, admin: boolean, filters: TaskFilters, onProgress: (bytes: number) => void) {
  return download(`${taskPath(platform, admin)}export`, filterQuery(platform, admin, filters), onProgress)
}
