import { atom } from 'nanostores'
import * as logsApi from '../api/logs.ts'
import type { LogFilters } from '../api/logs.ts'
import type { Log, LogStat, User } from '../api/types.ts'
import { createPagedList } from './paged-list.ts'
import { PAGE_SIZES } from './prefs.ts'

export type { LogFilters } from '../api/logs.ts'

export interface LogQuery extends LogFilters {
  /** administrators read everyone's logs, users their own */
  admin: boolean
  /** whose session asks (another user signing in starts again) */
  user: number
}

/** The usage logs, shared by every element of the page. */
export const logList = createPagedList<Log, LogQuery>({
  pageSize: PAGE_SIZES[0],
  filters: { admin: false, user: 0, type: 0, token_name: '', model_name: '', start_timestamp: 0, end_timestamp: 0 },
  idOf: (l) => l.id,
  fetchPage: (p, size, f) => logsApi.list(f.admin, f, p, size),
})

/** The statistics line of the filters applied: null while it loads. */
export const $logStat = atom<LogStat | null | 'error'>(null)

let statRequest = 0

/** Loads the statistics of the filters the list shows now. */
export async function refreshLogStat(): Promise<void> {
  const mine = ++statRequest
  const f = logList.$state.get().filters
  $logStat.set(null)
  try {
    const stat = await logsApi.stat(f.admin, f)
    if (mine === statRequest) $logStat.set(stat)
  } catch {
    if (mine === statRequest) $logStat.set('error')
  }
}

/** Applies the filters: the list and its statistics start again. */
export function searchLogs(filters: LogFilters): void {
  logList.setFilter(filters)
  void refreshLogStat()
}

/** Deletes the logs older than the timestamp; the list starts again. The count cleaned. */
export async function cleanLogs(targetTimestamp: number): Promise<number> {
  const count = await logsApi.clean(targetTimestamp)
  searchLogs(logList.$state.get().filters)
  return count
}

export const loadLogUser = (id: number): Promise<User> => logsApi.userInfo(id)

/** The filters the list shows now as a CSV file; `onProgress` gets the bytes received so far. */
export function exportLogs(onProgress: (bytes: number) => void) {
  const f = logList.$state.get().filters
  return logsApi.exportCsv(f.admin, f, onProgress)
}
