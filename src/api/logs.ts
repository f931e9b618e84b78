import { call, download, get } from './client.ts'
import type { Log, LogStat, User } from './types.ts'

/** The filters of the log list and its statistics (spec section 7). */
export interface LogFilters {
  type: number
  token_name: string
  model_name: string
  /** unix seconds */
  start_timestamp: number
  end_timestamp: number
  /** administrators only */
  username?: string
  channel?: number | ''
}

function query(filters: LogFilters, admin: boolean) {
  return {
    type: filters.type,
    token_name: filters.token_name,
    model_name: filters.model_name,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
    ...(admin ? { username: filters.username ?? '', channel: filters.channel ?? '' } : {}),
  }
}

/** One page of logs: administrators read everyone's (GET /api/log/), users their own (GET /api/log/self/). */
export async function list(admin: boolean, filters: LogFilters, p: number, pageSize: number): Promise<Log[]> {
  const path = admin ? '/api/log/' : '/api/log/self/'
  return (await get<Log[]>(path, { ...query(filters, admin), p, page_size: pageSize })).data ?? []
}

/** Quota and tokens of the consumption rows that match (GET /api/log/stat or /api/log/self/stat). */
export async function stat(admin: boolean, filters: LogFilters): Promise<LogStat> {
  const path = admin ? '/api/log/stat' : '/api/log/self/stat'
  return (await get<LogStat>(path, query(filters, admin))).data
}

/** The filter's rows as a CSV file (GET /api/log/export or /api/log/self/export), streamed: `onProgress` gets the bytes so far. */
export function exportCsv(admin: boolean, filters: LogFilters, onProgress: (bytes: number) => void) {
  return download(admin ? '/api/log/export' : '/api/log/self/export', query(filters, admin), onProgress)
}

/**
 * Deletes the logs older than the timestamp (DELETE /api/log/); returns the count cleaned.
 * Quiet: the caller reports 'log cleaning failed'.
 */
export async function clean(targetTimestamp: number): Promise<number> {
  return Number((await call<number>('DELETE', '/api/log/', { query: { target_timestamp: targetTimestamp }, quiet: true })).data ?? 0)
}

/** A user as an administrator sees it, for the user-info dialog (GET /api/user/{id}). */
export async function userInfo(id: number): Promise<User> {
  return (await get<User>(`/api/user/${id}`, undefined, { quiet: true })).data
}
