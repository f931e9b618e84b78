const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds as the value of a datetime-local input (local time, to the minute). */
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A datetime-local input's value as unix seconds, or null when it is empty or not a date. */
export function fromLocalInput(value: string): number | null {
  if (!value) return null
  const ms = new Date(value).getTime()
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null
}

/** Unix seconds as 'YYYY-MM-DD HH:mm:ss' in local time: exact and sortable, the same in every language. */
export function formatTimestamp(seconds: number): string {
  if (!seconds) return '—'
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}
