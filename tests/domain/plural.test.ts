import { before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { fillParams } from '../../domain/problem.ts'
import { en } from '../../src/i18n/en.ts'
import { zhCN } from '../../src/i18n/zh-CN.ts'
import { format, loadLocale } from '../../src/i18n/t.ts'

describe('plural forms (Intl.PluralRules)', () => {
  // the Chinese words are a lazy chunk: format('zh', …) speaks English until they are loaded
  before(() => loadLocale('zh'))

  const tokens = '{n, plural, one {# token created} other {# tokens created}}, copy it'

  it("chooses the case by the language's rules, # standing for the number", () => {
    assert.equal(fillParams(tokens, { n: 1 }), '1 token created, copy it')
    assert.equal(fillParams(tokens, { n: 0 }), '0 tokens created, copy it')
    assert.equal(fillParams(tokens, { n: 3 }), '3 tokens created, copy it')
    // Chinese has no singular: always the other case
    assert.equal(fillParams(tokens, { n: 1 }, 'zh-CN'), '1 tokens created, copy it')
  })

  it('prefers an exact =N case, fills the other placeholders, and leaves an unknown name alone', () => {
    assert.equal(fillParams('{n, plural, =0 {none} one {# row} other {# rows}} of {what}', { n: 0, what: 'logs' }), 'none of logs')
    assert.equal(fillParams('{n, plural, one {# row} other {# rows}}', { m: 1 }), '{n, plural, one {# row} other {# rows}}')
  })

  it('says 1 token, 1 channel, 1 log in the console messages, and the spec wording for many', () => {
    assert.equal(format('en', 'token.created', { count: 1 }), '1 token created successfully, click copy in the list to get the token')
    assert.equal(format('en', 'token.created', { count: 3 }), '3 tokens created successfully, click copy in the list to get the token')
    assert.equal(format('en', 'channels.deletedMany', { n: 1 }), '1 channel deleted')
    assert.equal(format('en', 'channels.created', { n: 1 }), 'channel created')
    assert.equal(format('en', 'channels.created', { n: 3 }), '3 channels created')
    assert.equal(format('zh', 'channels.created', { n: 3 }), '已创建 3 个渠道')
    assert.equal(format('en', 'logs.clean.done', { n: 1 }), '1 log cleaned')
    assert.equal(format('en', 'pricing.count', { n: 1, total: 1 }), '1 of 1 model')
  })

  it('leaves no plural block unfilled in either dictionary', () => {
    for (const dict of [en, zhCN] as Array<Record<string, string>>) {
      for (const [key, text] of Object.entries(dict)) {
        if (!text.includes(', plural,')) continue
        const name = /\{(\w+), plural,/.exec(text)![1]!
        for (const n of [0, 1, 2, 5]) assert.doesNotMatch(fillParams(text, { [name]: n }), /plural|#/, key)
      }
    }
  })
})
