/**
 * Tokens (API keys): when an enabled token counts as expired or exhausted, and the token form's
 * rules (spec sections 4, 5 and 9).
 */
import { problem, type Problem } from './problem.ts'
import { QUOTA_MAX } from './quota.ts'
import { TOKEN_STATUS } from './statuses.ts'
import { DAY, HOUR, MONTH, SECONDS_MAX } from './time.ts'

/** expired_time of a token that never expires. */
export const NEVER_EXPIRES = -1

export const TOKEN_NAME_MAX = 30
/** The comma-joined model limits of a token, at most this long. */
const MODEL_LIMITS_MAX = 1024

/** What the expiry and exhaustion rule reads of a token (as the wire and the table hold it). */
export interface TokenLimits {
  expired_time: number
  unlimited_quota: boolean | number
  remain_quota: number
}

/**
 * The status an enabled token has reached by `now` (unix seconds): expired once its expiry time
 * has passed (-1 never expires), else exhausted when it is limited and has no quota left; null
 * while it is still usable. Expiry is looked at first.
 */
export function tokenLimitStatus(t: TokenLimits, now: number): typeof TOKEN_STATUS.expired | typeof TOKEN_STATUS.exhausted | null {
  if (t.expired_time !== NEVER_EXPIRES && t.expired_time < now) return TOKEN_STATUS.expired
  if (!t.unlimited_quota && t.remain_quota <= 0) return TOKEN_STATUS.exhausted
  return null
}

/** What a token really is now: expiry and exhaustion are applied lazily, when the token is read or used. */
export function effectiveTokenStatus(t: TokenLimits & { status: number }, now: number): number {
  if (t.status !== TOKEN_STATUS.enabled) return t.status
  return tokenLimitStatus(t, now) ?? t.status
}

/**
 * The same rule as SQL conditions on the tokens table's own columns, for the writes that must
 * check it on the row as stored (a concurrent top-up or edit then wins over a stale reading).
 * `now` is the current unix second, or '?' where a prepared statement binds it.
 */
export function tokenLimitSql(now: number | '?'): { expired: string; exhausted: string } {
  if (now !== '?' && !Number.isSafeInteger(now)) throw new RangeError(`tokenLimitSql: ${now} is not a whole number of seconds`)
  return {
    expired: `expired_time <> ${NEVER_EXPIRES} AND expired_time < ${now}`,
    exhausted: 'unlimited_quota = 0 AND remain_quota <= 0',
  }
}

/** Spec section 4: the row's toggle disables an enabled token and enables any other. */
export const toggleTarget = (status: number): { action: 'disable' | 'enable'; next: 1 | 2 } =>
  status === TOKEN_STATUS.enabled ? { action: 'disable', next: TOKEN_STATUS.disabled } : { action: 'enable', next: TOKEN_STATUS.enabled }

/** Spec section 9: a new token starts with 500000 quota, an edited one with 0 until it has loaded. */
export const NEW_TOKEN_QUOTA = 500000
export const EDIT_TOKEN_QUOTA = 0

/** How many tokens a batch creates at once (spec section 9). */
export const BATCH_PRESETS = [10, 20, 30, 100] as const
export const BATCH_MAX = 100

/** Expiry shortcuts: never, an hour, a day, a month (spec section 9), in seconds from now. */
export const EXPIRY_SHORTCUTS = [
  { key: 'never', seconds: NEVER_EXPIRES },
  { key: 'hour', seconds: HOUR },
  { key: 'day', seconds: DAY },
  { key: 'month', seconds: MONTH },
] as const

/** A token's name: required (spec section 5 asks for it when creating; an edit may not blank it), at most 30 characters. */
export function tokenNameProblem(name: string): Problem | null {
  const trimmed = name.trim()
  if (trimmed === '') return problem('token.nameMissing')
  return trimmed.length > TOKEN_NAME_MAX ? problem('token.nameTooLong', { max: TOKEN_NAME_MAX }) : null
}

/** expired_time: -1 (never) or a time in unix seconds up to the year 9999. */
export function expiryProblem(expiredTime: number): Problem | null {
  const ok = expiredTime === NEVER_EXPIRES || (Number.isInteger(expiredTime) && expiredTime > 0 && expiredTime <= SECONDS_MAX)
  return ok ? null : problem('token.expiryInvalid')
}

/** remain_quota: a whole number from 0 (spec section 5 parses it as an integer). */
export function remainQuotaProblem(quota: number): Problem | null {
  return Number.isInteger(quota) && quota >= 0 && quota <= QUOTA_MAX ? null : problem('token.quotaInvalid', { max: QUOTA_MAX })
}

/** The model limits as the wire carries them (comma-joined), within 1024 characters. */
export function modelLimitsProblem(joined: string): Problem | null {
  return joined.length > MODEL_LIMITS_MAX ? problem('token.modelLimitsTooLong', { max: MODEL_LIMITS_MAX }) : null
}

/**
 * Model limits that are on must name at least one model: the relay refuses every call of a token
 * whose limit allows nothing, so such a token is refused before it is saved (issue 13, item 5).
 */
export function modelLimitsChosenProblem(enabled: boolean, joined: string): Problem | null {
  return enabled && joined.split(',').every((m) => m.trim() === '') ? problem('token.modelLimitsEmpty') : null
}
