/**
 * What a rule of the spec says about a value it refuses: a stable id and the numbers or names the
 * message needs. The domain holds no message wording: the server turns a problem into its own text
 * (server/lib/problems.ts) and the console into the reader's language (src/i18n/problems.ts); both
 * catalogues are typed against ProblemId, so a new rule cannot ship without its messages.
 */

import { fillPlurals } from './plural.ts'

export type ProblemId =
  // accounts (spec section 5, register and login, personal settings, admin user edit)
  | 'account.credentialsMissing'
  | 'account.passwordTooShort'
  | 'account.passwordsDiffer'
  | 'account.transferTooSmall'
  // tokens (spec section 5, token form)
  | 'token.nameMissing'
  | 'token.nameTooLong'
  | 'token.expiryInvalid'
  | 'token.quotaInvalid'
  | 'token.modelLimitsTooLong'
  | 'token.modelLimitsEmpty'
  // redemption codes (spec section 5, redemption form)
  | 'redemption.nameMissing'
  | 'redemption.nameTooLong'
  | 'redemption.quotaInvalid'
  | 'redemption.countOutOfRange'
  // channels (spec section 5, channel form)
  | 'channel.nameAndKey'
  | 'channel.oneModel'
  | 'channel.modelMappingJson'
  | 'channel.modelMappingValue'
  | 'channel.statusMappingJson'
  | 'channel.statusMappingCode'
  | 'channel.baseUrlInvalid'
  // wallet (spec section 5, redemption entry and top-up)
  | 'topup.codeMissing'
  | 'topup.belowMinimum'
  // options (spec section 5, system, ratio and option forms)
  | 'option.tooLong'
  | 'option.notSwitch'
  | 'option.needsOther'
  | 'option.integerMin'
  | 'option.numberMin'
  | 'option.numberAbove'
  | 'option.numberMax'
  | 'option.notJson'
  | 'option.topupRatioNotJson'
  | 'option.notJsonObject'
  | 'option.ratioNotNumber'
  | 'option.notChoice'
  | 'option.notOrigin'

export type ProblemParams = Readonly<Record<string, string | number>>

export interface Problem {
  readonly id: ProblemId
  readonly params?: ProblemParams
}

export function problem(id: ProblemId, params?: ProblemParams): Problem {
  return params ? { id, params } : { id }
}

/** The first problem of several checks, in the order given (null when every check passes). */
export function firstProblem(...checks: Array<Problem | null>): Problem | null {
  for (const p of checks) if (p) return p
  return null
}

/**
 * `{name}` placeholders of a message filled from the problem's params (unknown names stay as they
 * are), after its plural blocks (domain/plural.ts) are chosen by the rules of `locale`.
 */
export function fillParams(text: string, params?: ProblemParams, locale = 'en'): string {
  if (!params) return text
  return fillPlurals(text, params, locale).replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m))
}
