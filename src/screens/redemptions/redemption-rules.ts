import type { Redemption } from '../../api/types.ts'
import { firstProblem, type Problem } from '../../../domain/problem.ts'
import {
  canEditRedemption,
  canEnableRedemption,
  REDEMPTION_DEFAULTS,
  redemptionCountProblem,
  redemptionNameProblem,
  redemptionQuotaProblem,
} from '../../../domain/redemption-rules.ts'
import { parseInteger } from '../../../domain/text.ts'

/** The create form's starting values (spec sections 5 and 9), as the inputs hold them. */
export const DEFAULT_REDEMPTION = {
  name: REDEMPTION_DEFAULTS.name,
  quota: String(REDEMPTION_DEFAULTS.quota),
  count: String(REDEMPTION_DEFAULTS.count),
} as const

export interface RedemptionForm {
  name: string
  quota: string
  count: string
}

/** Quota and count are parsed as integers (spec section 5); no number reads as 0. */
export const int = (text: string) => {
  const n = parseInteger(text)
  return Number.isNaN(n) ? 0 : n
}

/** The create body, or null when the name is empty (the form then does nothing, spec section 5). */
export function createBody(form: RedemptionForm): { name: string; quota: number; count: number } | null {
  const name = form.name.trim()
  if (redemptionNameProblem(name)?.id === 'redemption.nameMissing') return null
  return { name, quota: int(form.quota), count: int(form.count) }
}

/** What the server would refuse in a create or edit body, by the same rules. */
export function bodyProblem(body: { name: string; quota: number; count?: number }): Problem | null {
  return firstProblem(
    redemptionNameProblem(body.name),
    redemptionQuotaProblem(body.quota),
    body.count === undefined ? null : redemptionCountProblem(body.count),
  )
}

/** Spec section 4: edit only an unused code; enable is off for a used one. */
export const canEdit = (r: Pick<Redemption, 'status'>) => canEditRedemption(r.status)
export const canEnable = (r: Pick<Redemption, 'status'>) => canEnableRedemption(r.status)

/** The generated codes as the text file the create offers: one per line, named after the name. */
export function codesFile(name: string, codes: readonly string[]): { fileName: string; blob: Blob } {
  return { fileName: `${name}.txt`, blob: new Blob([codes.join('\n')], { type: 'text/plain;charset=utf-8' }) }
}
