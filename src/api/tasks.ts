import { download, get } from './client.ts'
import type { TaskRecord } from './types.ts'

/** The provider kinds with a task list, by their console route (spec section 2). */
export type TaskPlatform = 'midjourney' | 'suno' | 'luma' | 'lumav2' | 'viggle' | 'runway' | 'pika' | 'kling' | 'ideo'

/** Where each list is served (spec section 7); the /self variant adds `self/`. */
const PATHS: Record<TaskPlatform, string> = {
  midjourney: '/api/mj/',
  suno: '/api/suno/',
  luma: '/api/luma/',
  lumav2: '/api/luma/v2/',
  viggle: '/api/viggle/',
  runway: '/api/runway/',
  pika: '/api/pika/',
  kling: '/api/kling/',
  ideo: '/api/ideo/',
}

/** Rows per page: the task lists answer a fixed 10. */
export const TASK_PAGE_SIZE = 10

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

export function taskPath(platform: TaskPlatform, admin: boolean): string {
  return admin ? PATHS[platform] : `${PATHS[platform]}self/`
}

/** One page of tasks: administrators read everyone's, users their own. */
export async function list(platform: TaskPlatform, admin: boolean, filters: TaskFilters, p: number): Promise<TaskRecord[]> {
  const query = {
    p,
    mj_id: filters.mj_id,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
    ...(admin ? { channel_id: filters.channel_id ?? '' } : {}),
    ...(platform === 'pika' && filters.platfrom ? { platfrom: filters.platfrom } : {}),
  }
  return (await get<TaskRecord[]>(taskPath(platform, admin), query)).data ?? []
}

/** The list's filter as a CSV file the server streams (GET …/export, users …/self/export). */
export function exportCsv(platform: TaskPlatform, admin: boolean, filters: TaskFilters, onProgress: (bytes: number) => void) {
  const query = {
    mj_id: filters.mj_id,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
    ...(admin ? { channel_id: filters.channel_id ?? '' } : {}),
    ...(platform === 'pika' && filters.platfrom ? { platfrom: filters.platfrom } : {}),
  }
  return download(`${taskPath(platform, admin)}export`, query, onProgress)
}
