import * as tasksApi from '../api/tasks.ts'
import type { TaskFilters, TaskPlatform } from '../api/tasks.ts'
import type { TaskRecord } from '../api/types.ts'
import { createPagedList, type PagedList } from './paged-list.ts'

export type { TaskFilters, TaskPlatform } from '../api/tasks.ts'

export interface TaskQuery extends TaskFilters {
  /** administrators read everyone's tasks, users their own */
  admin: boolean
  /** whose session asks (another user signing in starts again) */
  user: number
}

const lists = new Map<TaskPlatform, PagedList<TaskRecord, TaskQuery>>()

/** The task list of one platform (10 per call), shared by every element of the page showing it. */
export function taskList(platform: TaskPlatform): PagedList<TaskRecord, TaskQuery> {
  let list = lists.get(platform)
  if (!list) {
    list = createPagedList<TaskRecord, TaskQuery>({
      pageSize: tasksApi.TASK_PAGE_SIZE,
      filters: { admin: false, user: 0, mj_id: '', start_timestamp: 0, end_timestamp: 0 },
      idOf: (t) => t.id,
      fetchPage: (p, _size, f) => tasksApi.list(platform, f.admin, f, p),
    })
    lists.set(platform, list)
  }
  return list
}

/** The filters a platform's list shows now as a CSV file; `onProgress` gets the bytes received so far. */
export function exportTasks(platform: TaskPlatform, onProgress: (bytes: number) => void) {
  const f = taskList(platform).$state.get().filters
  return tasksApi.exportCsv(platform, f.admin, f, onProgress)
}
