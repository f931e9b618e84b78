import type { MessageKey } from '../../i18n/t.ts'
import type { Token } from '../../api/types.ts'

/** Token statuses (spec section 4). */
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const

/** The label and colour of a token status; anything but 1-4 is unknown. */
export function statusInfo(status: number): { label: MessageKey; variant: 'success' | 'neutral' | 'warning' | 'danger' } {
  switch (status) {
    case TOKEN_STATUS.enabled:
      return { label: 'token.status.enabled', variant: 'success' }
    case TOKEN_STATUS.disabled:
      return { label: 'token.status.disabled', variant: 'danger' }
    case TOKEN_STATUS.expired:
      return { label: 'token.status.expired', variant: 'warning' }
    case TOKEN_STATUS.exhausted:
      return { label: 'token.status.exhausted', variant: 'warning' }
    default:
      return { label: 'token.status.unknown', variant: 'neutral' }
  }
}

/** The toggle of a row: 'disable' while enabled, 'enable' otherwise (spec section 4). */
export const toggleAction = (status: number): { action: 'disable' | 'enable'; next: 1 | 2 } =>
  status === TOKEN_STATUS.enabled ? { action: 'disable', next: TOKEN_STATUS.disabled } : { action: 'enable', next: TOKEN_STATUS.enabled }

/** New-token default quota; an edited token starts at 0 until it has loaded (spec section 9). */
export const NEW_TOKEN_QUOTA = 500000
export const EDIT_TOKEN_QUOTA = 0

/** Quota presets: 1, 10, 50, 100, 500 and 1000 dollars at 500000 quota per dollar (spec section 9). */
export const QUOTA_PRESETS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000] as const

/** How many tokens a batch creates at once (spec section 9). */
export const BATCH_PRESETS = [10, 20, 30, 100] as const
export const BATCH_MAX = 100

/** Expiry shortcuts in seconds from now; -1 is never (a month is 30 days). */
export const EXPIRY_SHORTCUTS = [
  { key: 'never', label: 'token.expiry.never', seconds: -1 },
  { key: 'hour', label: 'token.expiry.hour', seconds: 3600 },
  { key: 'day', label: 'token.expiry.day', seconds: 86400 },
  { key: 'month', label: 'token.expiry.month', seconds: 30 * 86400 },
] as const satisfies ReadonlyArray<{ key: string; label: MessageKey; seconds: number }>

const pad = (n: number) => String(n).padStart(2, '0')

/** An expiry as the form shows it: '' for never (-1), else local 'YYYY-MM-DD HH:mm:ss'. */
export function expiryToInput(expiredTime: number): string {
  if (expiredTime === -1) return ''
  const d = new Date(expiredTime * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** The form value of an expiry shortcut taken at `now`. */
export function shortcutInput(seconds: number, now: Date): string {
  return seconds === -1 ? '' : expiryToInput(Math.floor(now.getTime() / 1000) + seconds)
}

const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/

/**
 * Reads the expiry the user typed: empty means never (-1); a local date, optionally with a time,
 * gives unix seconds (rounded up); anything else is null: the form says the format is wrong and
 * does not save.
 */
export function parseExpiry(text: string): number | null {
  const value = text.trim()
  if (value === '' || value === '-1') return -1
  const m = DATE_TIME.exec(value)
  if (!m) return null
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[]
  const d = new Date(year!, month! - 1, day!, hour, minute, second)
  // Date rolls 2024-02-31 over into March: such a date does not exist
  if (d.getFullYear() !== year || d.getMonth() !== month! - 1 || d.getDate() !== day || d.getHours() !== hour || d.getMinutes() !== minute)
    return null
  return Math.ceil(d.getTime() / 1000)
}

/** remain_quota is parsed as an integer (spec section 5); null when the field holds no number. */
export function parseQuota(text: string): number | null {
  const n = Number.parseInt(text.trim(), 10)
  return Number.isFinite(n) && n >= 0 ? n : null
}

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Six random letters and digits. */
export function randomSuffix(length = 6): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  return [...bytes].map((b) => SUFFIX_CHARS[b % SUFFIX_CHARS.length]).join('')
}

/** Names of a batch: the first keeps the name, later ones get the name plus a random suffix. */
export function batchNames(name: string, count: number, suffix: () => string = randomSuffix): string[] {
  return Array.from({ length: count }, (_, i) => (i === 0 ? name : `${name}-${suffix()}`))
}

/** The key as the user copies it. */
export const fullKey = (t: Pick<Token, 'key'>) => `sk-${t.key}`

/** A key shown masked in the list. */
export const maskedKey = (t: Pick<Token, 'key'>) => (t.key.length > 8 ? `sk-${t.key.slice(0, 4)}…${t.key.slice(-4)}` : fullKey(t))

/** What "copy selected" puts on the clipboard: one line per token, its name and its key. */
export const selectedText = (tokens: Array<Pick<Token, 'name' | 'key'>>) => tokens.map((t) => `${t.name}    ${fullKey(t)}`).join('\n')

/** Model limits between the form (a list) and the wire (a comma-joined string). */
export const limitsToList = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  ),
]
export const limitsToWire = (list: string[]) => list.join(',')

/** A time in the list: date and minutes, short enough to stay on one line. */
export function formatTime(unixSeconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(unixSeconds * 1000))
}
