import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  callPrice,
  completionPricePerMillion,
  completionRatioByName,
  groupRatioOf,
  lookupRatio,
  modelPricing,
  promptPricePerMillion,
  relayQuota,
  UNKNOWN_MODEL_RATIO,
  type Price,
} from '../../domain/pricing.ts'
import { DEFAULT_QUOTA_PER_UNIT } from '../../domain/quota.ts'

const byTokens = (modelRatio: number, groupRatio = 1, completionRatio = 1): Price => ({
  modelPrice: -1,
  modelRatio,
  completionRatio,
  groupRatio,
})
const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
})

const ratio = fc.double({ min: 0, max: 100, noNaN: true })
const tokens = fc.integer({ min: 0, max: 2_000_000 })

describe('what the pricing page shows (spec section 9)', () => {
  it('prices 1M prompt tokens at model ratio x 2 x group ratio, completion at that x completion ratio', () => {
    assert.equal(promptPricePerMillion(1, 1), 2, 'ratio 1 is $0.002 per 1K tokens')
    assert.equal(promptPricePerMillion(2.5, 1.5), 7.5)
    assert.equal(completionPricePerMillion(2.5, 4, 1.5), 30)
    assert.ok(Math.abs(callPrice(0.04, 1.5) - 0.06) < 1e-12)
  })

  it('shows the price the relay charges: 1M prompt tokens cost the page price in quota, to the rounding', () => {
    fc.assert(
      fc.property(ratio, fc.double({ min: 0, max: 10, noNaN: true }), (modelRatio, groupRatio) => {
        const charged = relayQuota(byTokens(modelRatio, groupRatio), usage(1_000_000, 0), DEFAULT_QUOTA_PER_UNIT) / DEFAULT_QUOTA_PER_UNIT
        return Math.abs(charged - promptPricePerMillion(modelRatio, groupRatio)) <= 1 / DEFAULT_QUOTA_PER_UNIT
      }),
      { seed: 7 },
    )
  })
})

describe('the quota the relay charges', () => {
  it('charges a per-call model its price x QuotaPerUnit x group ratio, whatever the tokens', () => {
    const p: Price = { modelPrice: 0.1, modelRatio: 30, completionRatio: 1, groupRatio: 0.8 }
    assert.equal(relayQuota(p, usage(0, 0), 500000), 40000)
    assert.equal(relayQuota(p, usage(9999, 9999), 500000), 40000)
    assert.equal(relayQuota({ ...p, modelPrice: 0 }, usage(10, 10), 500000), 0, 'a free call (mj_inpaint) costs nothing')
  })

  it('charges tokens as round((prompt + round(completion x completion ratio)) x model ratio x group ratio)', () => {
    assert.equal(relayQuota(byTokens(2.5, 1, 4), usage(100, 50), 500000), 750)
    assert.equal(relayQuota(byTokens(0.075, 1, 4), usage(3, 1), 500000), 1, 'at least 1 when tokens were used and the ratio is not 0')
    assert.equal(relayQuota(byTokens(0.075), usage(0, 0), 500000), 0, 'nothing for no tokens')
    assert.equal(relayQuota(byTokens(0), usage(1000, 1000), 500000), 0, 'a free model')
  })

  it('is never negative, and never less for more tokens', () => {
    fc.assert(
      fc.property(ratio, ratio, ratio, tokens, tokens, tokens, tokens, (model, group, completion, p, c, dp, dc) => {
        const price = byTokens(model, group, completion)
        const less = relayQuota(price, usage(p, c), DEFAULT_QUOTA_PER_UNIT)
        const more = relayQuota(price, usage(p + dp, c + dc), DEFAULT_QUOTA_PER_UNIT)
        return less >= 0 && more >= less
      }),
      { seed: 11 },
    )
  })

  it("is the spec's pay-per-usage cost, counted in quota (500000 a dollar), to the rounding", () => {
    fc.assert(
      fc.property(ratio, fc.double({ min: 0, max: 10, noNaN: true }), ratio, tokens, tokens, (model, group, completion, p, c) => {
        const q = relayQuota(byTokens(model, group, completion), usage(p, c), DEFAULT_QUOTA_PER_UNIT)
        const costUsd = (group * model * (p + c * completion)) / 500000
        const slack = 0.5 + 0.5 * model * group + (q === 1 ? 1 : 0)
        return Math.abs(q - costUsd * 500000) <= slack + 1e-6 * costUsd * 500000
      }),
      { seed: 13 },
    )
  })
})

describe("a model's prices from the options", () => {
  const tables = {
    ModelPrice: { mj_imagine: 0.1, 'bad-price': -1 },
    ModelRatio: { 'gpt-4o': 1.25, 'gpt-4-gizmo-*': 15, 'gpt-4o-gizmo-*': 2.5, 'bad-ratio': -3 },
    CompletionRatio: { 'gpt-4o': 4 },
  }

  it('finds a dated name under its base name and a gizmo under its wildcard', () => {
    assert.equal(lookupRatio(tables.ModelRatio, 'gpt-4o-2024-08-06'), 1.25)
    assert.equal(lookupRatio(tables.ModelRatio, 'gpt-4o-20240806'), 1.25)
    assert.equal(lookupRatio(tables.ModelRatio, 'gpt-4-gizmo-g-abc'), 15)
    assert.equal(lookupRatio(tables.ModelRatio, 'gpt-4o-gizmo-g-abc'), 2.5)
    assert.equal(lookupRatio(tables.ModelRatio, 'claude-3'), undefined)
  })

  it('prices an unknown model at ratio 30, a negative entry as none, and never reads the prototype', () => {
    assert.deepEqual(modelPricing('mj_imagine', tables), { modelPrice: 0.1, modelRatio: UNKNOWN_MODEL_RATIO, completionRatio: 1 })
    assert.deepEqual(modelPricing('gpt-4o-2024-08-06', tables), { modelPrice: -1, modelRatio: 1.25, completionRatio: 4 })
    assert.equal(modelPricing('bad-price', tables).modelPrice, -1)
    assert.equal(modelPricing('bad-ratio', tables).modelRatio, UNKNOWN_MODEL_RATIO)
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      assert.deepEqual(modelPricing(name, tables), { modelPrice: -1, modelRatio: UNKNOWN_MODEL_RATIO, completionRatio: 1 })
    }
    assert.deepEqual(modelPricing('x', { ModelPrice: null, ModelRatio: [1], CompletionRatio: 'text' }), {
      modelPrice: -1,
      modelRatio: UNKNOWN_MODEL_RATIO,
      completionRatio: 1,
    })
  })

  it('takes completion ratios by family for names the option does not list', () => {
    assert.equal(completionRatioByName('gpt-4o-mini-2024-07-18'), 4)
    assert.equal(completionRatioByName('gpt-4-turbo-preview'), 3)
    assert.equal(completionRatioByName('gpt-4-0613'), 2)
    assert.equal(completionRatioByName('claude-3-opus'), 5)
    assert.equal(completionRatioByName('suno_music'), 1)
  })

  it('reads a group ratio, 1 for a group GroupRatio does not name', () => {
    assert.equal(groupRatioOf({ vip: 0.8 }, 'vip'), 0.8)
    assert.equal(groupRatioOf({ vip: 0.8 }, 'other'), 1)
    assert.equal(groupRatioOf({ bad: -1 }, 'bad'), 1)
    assert.equal(groupRatioOf(null, 'default'), 1)
  })
})
