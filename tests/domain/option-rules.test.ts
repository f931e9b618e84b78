import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { emailDomains, normaliseOption, OPTION_VALUE_MAX, optionProblem, optionRule, switchProblem } from '../../domain/option-rules.ts'
import { GRANULARITIES } from '../../domain/time.ts'
import { DEFAULT_OPTIONS } from '../../server/options.ts'
import { checkOption, isSwitchOption } from '../../server/lib/option-rules.ts'

const keys = Object.keys(DEFAULT_OPTIONS)

describe('option rules', () => {
  it('know only options that exist, and none of the switches (the options whose default is true or false)', () => {
    for (const key of keys) if (isSwitchOption(key)) assert.equal(optionRule(key), undefined, key)
    for (const key of ['NoSuchKey', '__proto__', 'constructor', 'toString']) assert.equal(optionRule(key), undefined)
    for (const key of ['GitHubOAuthEnabled', 'WeChatAuthEnabled', 'TurnstileCheckEnabled', 'EmailDomainRestrictionEnabled']) {
      assert.ok(isSwitchOption(key), key)
      assert.ok(
        Object.hasOwn(DEFAULT_OPTIONS, switchProblem(key, 'true', () => '')!.params!.other as string),
        `${key} needs an option that exists`,
      )
    }
  })

  it("accept every option's own default, as the server checks it", () => {
    for (const key of keys)
      assert.deepEqual(
        checkOption(key, DEFAULT_OPTIONS[key]!, () => 'set'),
        { ok: true, value: normaliseOption(key, DEFAULT_OPTIONS[key]!).trim() },
        key,
      )
  })

  it('normalise a value once and for all (normalising again changes nothing)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.string({ maxLength: 40 }), (key, raw) => {
        const once = normaliseOption(key, raw)
        return normaliseOption(key, once) === once
      }),
      { seed: 3, numRuns: 500 },
    )
  })

  it('hold numbers to their bounds (spec section 5)', () => {
    assert.deepEqual(optionProblem('RetryTimes', '1.5'), { id: 'option.integerMin', params: { key: 'RetryTimes', min: 0 } })
    assert.equal(optionProblem('RetryTimes', '-1')?.id, 'option.integerMin')
    assert.equal(optionProblem('RetryTimes', '101')?.id, 'option.numberMax')
    assert.equal(optionProblem('QuotaPerUnit', '0')?.id, 'option.numberAbove')
    assert.equal(optionProblem('MinTopUp', '0.5')?.id, 'option.numberMin')
    assert.equal(optionProblem('MinTopUp', '1'), null)
    assert.equal(optionProblem('DataExportInterval', '0')?.id, 'option.integerMin')
    assert.equal(optionProblem('Price', 'cheap')?.id, 'option.numberMin')
    assert.equal(normaliseOption('Price', ' 7.30 '), '7.3')
  })

  it('want JSON objects of numbers for the ratios; the top-up group ratio in its own words', () => {
    assert.equal(optionProblem('ModelRatio', '{')?.id, 'option.notJson')
    assert.equal(optionProblem('ModelRatio', '[]')?.id, 'option.notJsonObject')
    assert.deepEqual(optionProblem('ModelRatio', '{"a":"b"}'), { id: 'option.ratioNotNumber', params: { key: 'ModelRatio', name: '"a"' } })
    assert.equal(optionProblem('ModelRatio', '{"a":-1}')?.id, 'option.ratioNotNumber')
    assert.equal(optionProblem('VmodelMap', '{"a":"b"}'), null, 'not a ratio map')
    for (const bad of ['nope', '[1]', '{"vip":"1"}'])
      assert.deepEqual(optionProblem('TopupGroupRatio', bad), { id: 'option.topupRatioNotJson' })
  })

  it('check switches, choices, the 1 MB limit, and a switch that needs another value first', () => {
    assert.equal(switchProblem('RegisterEnabled', 'yes')?.id, 'option.notSwitch')
    assert.deepEqual(
      switchProblem('GitHubOAuthEnabled', 'true', () => ''),
      {
        id: 'option.needsOther',
        params: { key: 'GitHubOAuthEnabled', other: 'GitHubClientId' },
      },
    )
    assert.equal(
      switchProblem('GitHubOAuthEnabled', 'true', () => 'id'),
      null,
    )
    assert.equal(switchProblem('GitHubOAuthEnabled', 'true'), null, 'without the other options that check is left to the server')
    assert.deepEqual(
      checkOption('RegisterEnabled', ' true ', () => ''),
      { ok: true, value: 'true' },
    )
    assert.deepEqual(GRANULARITIES, ['hour', 'day', 'week'])
    assert.equal(optionProblem('DataExportDefaultTime', 'month')?.id, 'option.notChoice')
    assert.equal(optionProblem('Notice', 'x'.repeat(OPTION_VALUE_MAX + 1))?.id, 'option.tooLong')
  })

  it('strip the trailing slashes of the addresses and de-duplicate the domain whitelist', () => {
    assert.equal(normaliseOption('ServerAddress', ' https://a.example// '), 'https://a.example')
    assert.equal(normaliseOption('CustomCallbackAddress', 'https://a.example/'), 'https://a.example/', 'not one of the four')
    assert.deepEqual(emailDomains('A.com, b.com  a.com,,'), ['a.com', 'b.com'])
    assert.equal(normaliseOption('EmailDomainWhitelist', 'A.com b.com,a.com'), 'a.com,b.com')
  })
})

describe('EmbedOrigins', () => {
  it('keeps origins (scheme, host, port) one a line, and names the first entry that is not one', () => {
    assert.equal(
      normaliseOption('EmbedOrigins', 'https://Shop.example/, http://127.0.0.1:8080\nhttps://shop.example'),
      'https://shop.example\nhttp://127.0.0.1:8080',
    )
    assert.equal(optionProblem('EmbedOrigins', 'https://shop.example\nhttp://127.0.0.1:8080'), null)
    for (const bad of [
      'https://shop.example/path',
      'shop.example',
      'ftp://shop.example',
      'https://u:p@shop.example',
      'https://a.example?x=1',
    ]) {
      assert.deepEqual(
        optionProblem('EmbedOrigins', `https://ok.example\n${bad}`),
        { id: 'option.notOrigin', params: { key: 'EmbedOrigins', entry: bad } },
        bad,
      )
    }
  })
})
