import type { MessageKey } from '../../i18n/t.ts'
import type { Token } from '../../api/types.ts'
import { TOKEN_STATUS } from '../../../domain/statuses.ts'
import { NEVER_EXPIRES } from '../../../domain/token-rules.ts'
import { localDateTime, parseLocalDateTime } from '../../ui/datetime.ts'
import '../../i18n/en/tokens.ts'

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

/** An expiry as the form shows it: '' for never (-1), else local 'YYYY-MM-DD HH:mm:ss'. */
export const expiryToInput = (expiredTime: number): string => (expiredTime === NEVER_EXPIRES ? '' : localDateTime(expiredTime))

/** The form value of an expiry shortcut taken at `now`. */
export function shortcutInput(seconds: number, now: Date): string {
  return seconds === NEVER_EXPIRES ? '' : expiryToInput(Math.floor(now.getTime() / 1000) + seconds)
}

/**
 * Reads the expiry the user typed: empty means never (-1); a local date, optionally with a time,
 * gives unix seconds; anything else is null: the form says the format is wrong and does not save.
 */
export function parseExpiry(text: string): number | null {
  const value = text.trim()
  if (value === '' || value === String(NEVER_EXPIRES)) return NEVER_EXPIRES
  return parseLocalDateTime(value)
}

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Six random letters and digits. */
function randomSuffix(length = 6): string {
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
