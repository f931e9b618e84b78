/** A task list as CSV (issue 15): its columns in the reader's language, and the file's name from the filter. */
import type { TaskFilter, TaskRow } from '../db/tasks.ts'
import { say, type Locale, type MessageKey } from '../i18n/index.ts'
import type { Cell } from './csv-stream.ts'

/** Milliseconds as `YYYY-MM-DD HH:MM:SS` UTC, or blank when unset. */
const utcTime = (ms: number) => (ms > 0 ? new Date(ms).toISOString().slice(0, 19).replace('T', ' ') : '')
const seconds = (from: number, to: number) => (from > 0 && to >= from ? Math.round((to - from) / 1000) : '')

/** The header and the cells of a task export; `admin` adds the user and channel columns. */
export function taskColumns(locale: Locale, admin: boolean, subPlatform: boolean) {
  const w = (key: MessageKey) => say(locale, key)
  const header = [
    w('task.csv.submitted'),
    w('task.csv.finished'),
    w('task.csv.platform'),
    w('task.csv.action'),
    w('task.csv.taskId'),
    ...(admin ? [w('task.csv.user'), w('task.csv.channel')] : []),
    w('task.csv.status'),
    w('task.csv.progress'),
    w('task.csv.quota'),
    w('task.csv.queued'),
    w('task.csv.duration'),
    w('task.csv.prompt'),
    w('task.csv.result'),
    w('task.csv.failReason'),
  ]
  const cells = (r: TaskRow): Cell[] => [
    utcTime(r.submit_time),
    utcTime(r.finish_time),
    subPlatform && r.sub_platform ? `${r.platform}/${r.sub_platform}` : r.platform,
    r.action,
    r.task_id,
    ...(admin ? [r.user_id, r.channel_id] : []),
    r.status,
    r.progress,
    Number(r.quota),
    seconds(r.submit_time, r.start_time),
    seconds(r.submit_time, r.finish_time),
    r.prompt,
    r.result || r.image_url || r.audio_url || r.url,
    r.fail_reason,
  ]
  return { header, cells }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40)

/** `tasks-<platform>[-self]-<from>-<to>[-<task id>][-<sub-platform>][-channel<n>].csv`, from the filter. */
export function taskFileName(f: TaskFilter, self: boolean): string {
  const parts = [`tasks-${safe(f.platform ?? 'all')}${self ? '-self' : ''}`]
  parts.push(f.submittedFrom ? day(f.submittedFrom) : 'start', f.submittedTo ? day(f.submittedTo) : 'now')
  for (const v of [f.taskId, f.subPlatform]) if (v) parts.push(safe(v))
  if (f.channelId) parts.push(`channel${f.channelId}`)
  return `${parts.join('-')}.csv`
}
