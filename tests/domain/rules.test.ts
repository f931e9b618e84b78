import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { credentialsProblem, passwordProblem, passwordsDifferProblem, transferProblem } from '../../domain/account-rules.ts'
import {
  baseUrlProblem,
  boundedNumber,
  channelKeys,
  clampWeight,
  modelMappingProblem,
  modelsProblem,
  nameAndKeyProblem,
  statusMappingProblem,
  trimTrailingSlash,
} from '../../domain/channel-rules.ts'
import { fillParams, firstProblem, problem, type Problem } from '../../domain/problem.ts'
import { compactNumber, QUOTA_PRESETS, quotaPerUnitOr, quotaText } from '../../domain/quota.ts'
import {
  canEditRedemption,
  canEnableRedemption,
  redemptionCountProblem,
  redemptionNameProblem,
  redemptionQuotaProblem,
} from '../../domain/redemption-rules.ts'
import { isAdmin, isRoot, roleTier, userState } from '../../domain/roles.ts'
import { parseInteger, splitList } from '../../domain/text.ts'
import { minTopUpOr, redeemCodeProblem, topUpProblem } from '../../domain/wallet-rules.ts'
import { problemText } from '../../server/lib/problems.ts'
import { render } from '../../server/i18n/index.ts'

const id = (p: Problem | null) => p?.id ?? null

describe('account rules (spec section 5)', () => {
  it('need a username and a password, a password of at least 8, and the same password twice', () => {
    assert.equal(id(credentialsProblem(' ', 'password')), 'account.credentialsMissing')
    assert.equal(id(credentialsProblem('bob', '')), 'account.credentialsMissing')
    assert.equal(credentialsProblem('bob', 'x'), null)
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (pw) => (passwordProblem(pw) === null) === pw.length >= 8))
    assert.equal(id(passwordsDifferProblem('abcdefgh', 'abcdefgi')), 'account.passwordsDiffer')
  })

  it('transfer invite quota in amounts of at least one quota unit', () => {
    assert.deepEqual(transferProblem(499999, 500000), { id: 'account.transferTooSmall', params: { min: 500000 } })
    assert.equal(transferProblem(500000, 500000), null)
    assert.equal(id(transferProblem(Number.NaN, 500000)), 'account.transferTooSmall')
  })
})

describe('redemption and wallet rules', () => {
  it('need a name of at most 20, a whole positive quota and 1 to 100 codes', () => {
    assert.equal(id(redemptionNameProblem('  ')), 'redemption.nameMissing')
    assert.equal(id(redemptionNameProblem('x'.repeat(21))), 'redemption.nameTooLong')
    assert.equal(id(redemptionQuotaProblem(0)), 'redemption.quotaInvalid')
    assert.equal(redemptionQuotaProblem(100000), null)
    fc.assert(fc.property(fc.integer({ min: -5, max: 200 }), (n) => (redemptionCountProblem(n) === null) === (n >= 1 && n <= 100)))
    assert.equal(id(redemptionCountProblem(2.5)), 'redemption.countOutOfRange')
    assert.equal(id(redeemCodeProblem(' ')), 'topup.codeMissing')
  })

  it('edit only an unused code and never enable a used one (spec section 4)', () => {
    assert.deepEqual([1, 2, 3].map(canEditRedemption), [true, false, false])
    assert.deepEqual([1, 2, 3].map(canEnableRedemption), [true, true, false])
  })

  it("refuse a top-up under the site's minimum, 1 when none is set", () => {
    assert.deepEqual(topUpProblem(4, 5), { id: 'topup.belowMinimum', params: { min: 5 } })
    assert.equal(topUpProblem(5, 5), null)
    assert.equal(minTopUpOr(0), 1)
    assert.equal(minTopUpOr(undefined), 1)
  })
})

describe('channel rules (spec section 5)', () => {
  it('need a name, a key for a new channel, and a model', () => {
    assert.equal(id(nameAndKeyProblem('n', ' ', true)), 'channel.nameAndKey')
    assert.equal(nameAndKeyProblem('n', '', false), null, 'an edit keeps the stored key')
    assert.equal(id(nameAndKeyProblem(' ', 'k', false)), 'channel.nameAndKey')
    assert.equal(id(modelsProblem([])), 'channel.oneModel')
  })

  it('want the mappings as JSON objects: model names to names, status codes to status codes', () => {
    assert.equal(modelMappingProblem(''), null)
    assert.equal(modelMappingProblem('{"gpt-4-0314":"gpt-4"}'), null)
    assert.equal(id(modelMappingProblem('{')), 'channel.modelMappingJson')
    assert.equal(id(modelMappingProblem('["x"]')), 'channel.modelMappingJson')
    assert.equal(id(modelMappingProblem('{"a":1}')), 'channel.modelMappingValue')
    assert.equal(statusMappingProblem('{"400":"500"}'), null)
    assert.equal(id(statusMappingProblem('{"abc":"500"}')), 'channel.statusMappingCode')
    assert.equal(id(statusMappingProblem('{"400":"999"}')), 'channel.statusMappingCode')
  })

  it('take base_url without trailing slashes, and only http or https', () => {
    assert.equal(trimTrailingSlash('https://x.example/v1//'), 'https://x.example/v1')
    assert.equal(baseUrlProblem(''), null)
    assert.equal(baseUrlProblem('https://x.example/v1'), null)
    assert.equal(id(baseUrlProblem('ftp://x.example')), 'channel.baseUrlInvalid')
    assert.equal(id(baseUrlProblem('not a url')), 'channel.baseUrlInvalid')
  })

  it('read one key per line, raise priority to -999 and weight to 0, and ignore an empty box', () => {
    assert.deepEqual(channelKeys(' a \n\n b\r\n'), ['a', 'b'])
    assert.equal(boundedNumber('-5000', -999), -999)
    assert.equal(boundedNumber('7.9', 0), 7)
    assert.equal(boundedNumber(' ', 0), null)
    assert.equal(boundedNumber('x', 0), null)
    assert.equal(clampWeight(-4), 0)
  })
})

describe('lists, numbers, quota and roles', () => {
  it('clean a comma list: trimmed, no blanks, each entry once, first order kept', () => {
    assert.deepEqual(splitList(' b, a,,b , c'), ['b', 'a', 'c'])
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 5 })), (parts) => {
        const once = splitList(parts.join(','))
        return new Set(once).size === once.length && JSON.stringify(splitList(once.join(','))) === JSON.stringify(once)
      }),
    )
    assert.equal(parseInteger(' 12.7x'), 12)
    assert.ok(Number.isNaN(parseInteger('x')))
  })

  it('show quota as the spec says (section 9)', () => {
    assert.deepEqual(
      QUOTA_PRESETS.map((p) => [p.quota, p.dollars]),
      [
        [500000, 1],
        [5000000, 10],
        [25000000, 50],
        [50000000, 100],
        [250000000, 500],
        [500000000, 1000],
      ],
    )
    assert.deepEqual([9999, 10000, 1_500_000, 2_000_000_000].map(compactNumber), ['9999', '10k', '1.5M', '2B'])
    assert.equal(quotaText(1_250_000, { currency: true, quotaPerUnit: 500000 }), '$2.50')
    assert.equal(quotaText(1_250_000, { currency: false, quotaPerUnit: 500000 }), '1.3M')
    assert.equal(quotaPerUnitOr(0), 500000)
    assert.equal(quotaPerUnitOr(1000), 1000)
  })

  it('tell roles and user states apart (spec sections 4 and 6)', () => {
    assert.deepEqual([1, 10, 100, 50].map(roleTier), ['user', 'admin', 'root', 'admin'])
    assert.equal(isAdmin(9), false)
    assert.equal(isRoot(100), true)
    assert.deepEqual(
      [userState(1, false), userState(2, false), userState(3, false), userState(1, true)],
      ['activated', 'banned', 'unknown', 'cancelled'],
    )
  })
})

describe('problems', () => {
  it('take the first problem of several checks', () => {
    assert.equal(firstProblem(null, problem('channel.oneModel'), problem('channel.nameAndKey'))?.id, 'channel.oneModel')
    assert.equal(firstProblem(null, null), null)
  })

  it("are worded by the server in both languages with every parameter filled in, and by the console's templates the same way", () => {
    assert.equal(render('en', problemText(passwordProblem('short')!, 'password')), 'password must be at least 8 characters')
    assert.equal(render('zh-CN', problemText(passwordProblem('short')!, 'password')), 'password 至少需要 8 个字符')
    assert.equal(render('en', problemText(transferProblem(1, 500000)!)), 'the transfer amount is at least 500000')
    assert.equal(render('en', problemText(topUpProblem(0, 5)!)), 'top-up amount cannot be less than 5')
    assert.equal(fillParams('{a} and {b}', { a: 1 }), '1 and {b}')
  })
})
