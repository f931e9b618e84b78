import type { Locale } from '../stores/prefs.ts'

/**
 * Times as the console shows and reads them, in one place: unix seconds to local text and back.
 * One format in every language (issue 13, item 11): 'YYYY-MM-DD HH:mm' in lists, with ':ss' where
 * the second matters (logs, tasks, a token's expiry input).
 */

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds as 'YYYY-MM-DD HH:mm:ss' in local time: exact and sortable. */
export function localDateTime(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** An exact time in a table; '—' when it was never set (0). */
export const formatTimestamp = (seconds: number): string => (seconds ? localDateTime(seconds) : '—')

/** Unix seconds as the value of a datetime-local input (local time, to the minute). */
export const toLocalInput = (seconds: number): string => localDateTime(seconds).slice(0, 16).replace(' ', 'T')

const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/

/**
 * A local date, optionally with a time (a space or a T between them), as unix seconds; null when
 * the text is not one. Dates that do not exist (2024-02-31) are refused rather than rolled over.
 */
export function parseLocalDateTime(text: string): number | null {
  const m = DATE_TIME.exec(text.trim())
  if (!m) return null
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[]
  const d = new Date(year!, month! - 1, day!, hour, minute, second)
  if (d.getFullYear() !== year || d.getMonth() !== month! - 1 || d.getDate() !== day || d.getHours() !== hour || d.getMinutes() !== minute)
    return null
  return Math.floor(d.getTime() / 1000)
}

/** A datetime-local input's value as unix seconds, or null when it is empty or not a date. */
export const fromLocalInput = parseLocalDateTime

/**
 * A time in a list: 'YYYY-MM-DD HH:mm', the same in every language, short enough for one line;
 * '—' for 0. (The locale is kept for the callers: the format does not depend on it.)
 */
export function formatDateTime(seconds: number, _locale?: Locale): string {
  return seconds ? localDateTime(seconds).slice(0, 16) : '—'
}
