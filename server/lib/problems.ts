/**
 * The server's words for the problems the domain rules report (domain/problem.ts), in one place.
 * A problem refused as a 400 names its field first ("password must be at least 8 characters"),
 * so the texts of field rules read after a field name; the others are whole sentences.
 */
import { z } from 'zod'
import { fillParams, type Problem, type ProblemId } from '../../domain/problem.ts'

const TEXT: Record<ProblemId, string> = {
  'account.credentialsMissing': 'please enter username and password',
  'account.passwordTooShort': 'must be at least {min} characters',
  'account.passwordsDiffer': 'the two passwords differ',
  'account.transferTooSmall': 'the transfer amount is at least {min}',
  'token.nameMissing': 'is required',
  'token.nameTooLong': 'must be at most {max} characters',
  'token.expiryInvalid': 'must be -1 (never) or a time in unix seconds',
  'token.quotaInvalid': 'must be a whole number from 0 to {max}',
  'token.modelLimitsTooLong': 'must be at most {max} characters',
  'redemption.nameMissing': 'is required',
  'redemption.nameTooLong': 'must be at most {max} characters',
  'redemption.quotaInvalid': 'must be a whole number from 1 to {max}',
  'redemption.countOutOfRange': 'must be a whole number from {min} to {max}',
  'channel.nameAndKey': 'please fill in the channel name and key',
  'channel.oneModel': 'choose at least one model',
  'channel.modelMappingJson': 'must be empty or a valid JSON object',
  'channel.modelMappingValue': 'maps {name} to something other than a model name',
  'channel.statusMappingJson': 'must be empty or a valid JSON object',
  'channel.statusMappingCode': 'has {code}, which is not an HTTP status code',
  'channel.baseUrlInvalid': 'must be an http or https address',
  'topup.codeMissing': 'please enter redemption code',
  'topup.belowMinimum': 'top-up amount cannot be less than {min}',
  'option.tooLong': '{key} is longer than 1 MB',
  'option.notSwitch': '{key} must be true or false',
  'option.needsOther': '{key} cannot be turned on before {other} is filled in',
  'option.integerMin': '{key} must be an integer of at least {min}',
  'option.numberMin': '{key} must be a number of at least {min}',
  'option.numberAbove': '{key} must be a number greater than {min}',
  'option.numberMax': '{key} must be at most {max}',
  'option.notJson': '{key} is not a legal JSON string',
  'option.topupRatioNotJson': 'top-up group ratio is not a legal JSON string',
  'option.notJsonObject': '{key} is not a legal JSON string: it must be a JSON object',
  'option.ratioNotNumber': '{key} is not a legal JSON string: the value of {name} must be a number of at least 0',
  'option.notChoice': '{key} must be one of {choices}',
}

/** A problem in the server's words. */
export function problemText(p: Problem): string {
  return fillParams(TEXT[p.id], p.params)
}

/**
 * A domain rule as a zod refinement: the value the wire shape let through is refused as an issue
 * of its field, in the server's words (readBody answers it as a 400 naming the field).
 */
export function rule<T>(check: (value: T) => Problem | null) {
  return (value: T, ctx: z.RefinementCtx) => {
    const p = check(value)
    if (p) ctx.addIssue({ code: 'custom', message: problemText(p) })
  }
}
