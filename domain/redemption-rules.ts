/** Redemption codes: the create and edit form's rules and defaults (spec sections 4, 5 and 9). */
import { problem, type Problem } from './problem.ts'
import { QUOTA_MAX } from './quota.ts'
import { REDEMPTION_STATUS } from './statuses.ts'

export const REDEMPTION_NAME_MAX = 20
export const REDEMPTION_COUNT_MAX = 100

/** A new code: no name yet, worth 100000 quota, one at a time. */
export const REDEMPTION_DEFAULTS = { name: '', quota: 100000, count: 1 } as const

/** A code's name: required, at most 20 characters (trimmed). */
export function redemptionNameProblem(name: string): Problem | null {
  const trimmed = name.trim()
  if (trimmed === '') return problem('redemption.nameMissing')
  return trimmed.length > REDEMPTION_NAME_MAX ? problem('redemption.nameTooLong', { max: REDEMPTION_NAME_MAX }) : null
}

/** A code is worth a whole, positive amount of quota. */
export function redemptionQuotaProblem(quota: number): Problem | null {
  return Number.isInteger(quota) && quota >= 1 && quota <= QUOTA_MAX ? null : problem('redemption.quotaInvalid', { max: QUOTA_MAX })
}

/** One create makes 1 to 100 codes. */
export function redemptionCountProblem(count: number): Problem | null {
  return Number.isInteger(count) && count >= 1 && count <= REDEMPTION_COUNT_MAX
    ? null
    : problem('redemption.countOutOfRange', { min: 1, max: REDEMPTION_COUNT_MAX })
}

/** Spec section 4: only an unused code can be edited; a used one cannot be enabled again. */
export const canEditRedemption = (status: number): boolean => status === REDEMPTION_STATUS.unused
export const canEnableRedemption = (status: number): boolean => status !== REDEMPTION_STATUS.used
