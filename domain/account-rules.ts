/** Accounts: sign-in, registration, password changes and the invite-quota transfer (spec section 5). */
import { problem, type Problem } from './problem.ts'

/** The form placeholders promise a username of at most 12 characters and a password of 8 to 20; only the 8 is the spec's rule. */
export const USERNAME_MAX = 12
const PASSWORD_MIN = 8
export const PASSWORD_MAX = 20
export const DISPLAY_NAME_MAX = 20

/** Sign-in and registration need both a username and a password. */
export function credentialsProblem(username: string, password: string): Problem | null {
  return username.trim() === '' || password === '' ? problem('account.credentialsMissing') : null
}

/** A new password: at least 8 characters. */
export function passwordProblem(password: string): Problem | null {
  return password.length < PASSWORD_MIN ? problem('account.passwordTooShort', { min: PASSWORD_MIN }) : null
}

/** A password and its confirmation must be the same. */
export function passwordsDifferProblem(password: string, confirmation: string): Problem | null {
  return password !== confirmation ? problem('account.passwordsDiffer') : null
}

/** Invite earnings move to the balance in amounts of at least one quota unit (QuotaPerUnit). */
export function transferProblem(quota: number, quotaPerUnit: number): Problem | null {
  return quota >= quotaPerUnit ? null : problem('account.transferTooSmall', { min: quotaPerUnit })
}
