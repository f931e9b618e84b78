import { addWords } from '../words.ts'

/** English words of the redemption codes screen. */
export const redemptionsWords = {
  'redemptions.created': 'redemption created successfully',
  'redemptions.updated': 'redemption updated successfully',
  'redemptions.selectAtLeastOne': 'please select at least one',
  'problem.redemption.nameMissing': 'please enter a name',
  'problem.redemption.nameTooLong': 'the name must be at most {max} characters',
  'problem.redemption.quotaInvalid': 'the quota must be a whole number of at least 1',
  'problem.redemption.countOutOfRange': 'the number of codes must be from {min} to {max}',
}

addWords('redemptions', redemptionsWords, () => import('../zh-CN/redemptions.ts'))
