import type { OptionStore } from '../options.ts'
import { groupRatioOf, modelPricing, type ModelPricing, type Price, type PriceTables } from '../../domain/pricing.ts'

export type { Price, Usage } from '../../domain/pricing.ts'

/**
 * The prices of a model and a group from the options (ModelRatio, CompletionRatio, ModelPrice,
 * GroupRatio), looked up by the domain's rules and cached until one of those options changes.
 */
export class Pricing {
  private cache = new Map<string, ModelPricing>()
  private options: OptionStore

  constructor(options: OptionStore) {
    this.options = options
    options.onChange((key) => {
      if (key === 'ModelRatio' || key === 'CompletionRatio' || key === 'ModelPrice' || key === 'GroupRatio') this.clear()
    })
  }

  clear(): void {
    this.cache.clear()
    this.prices.clear()
  }

  private tables(): PriceTables {
    return {
      ModelPrice: this.options.json('ModelPrice', {}),
      ModelRatio: this.options.json('ModelRatio', {}),
      CompletionRatio: this.options.json('CompletionRatio', {}),
    }
  }

  model(model: string): ModelPricing {
    let p = this.cache.get(model)
    if (p) return p
    p = modelPricing(model, this.tables())
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(model, p)
    return p
  }

  groupRatio(group: string): number {
    return groupRatioOf(this.options.json('GroupRatio', {}), group)
  }

  private prices = new Map<string, Price>()

  /** The prices of (model, group), the same object until the options change. */
  price(model: string, group: string): Price {
    const k = `${group}\u0000${model}`
    let p = this.prices.get(k)
    if (p) return p
    const m = this.model(model)
    p = { modelRatio: m.modelRatio, completionRatio: m.completionRatio, modelPrice: m.modelPrice, groupRatio: this.groupRatio(group) }
    if (this.prices.size > 10_000) this.prices.clear()
    this.prices.set(k, p)
    return p
  }
}

const texts = new WeakMap<Price, { content: string; other: string }>()

function textsOf(p: Price): { content: string; other: string } {
  let t = texts.get(p)
  if (!t) {
    t = {
      content:
        p.modelPrice >= 0
          ? `model price ${p.modelPrice}, group ratio ${p.groupRatio}`
          : `model ratio ${p.modelRatio}, completion ratio ${p.completionRatio}, group ratio ${p.groupRatio}`,
      other: JSON.stringify({
        model_ratio: p.modelRatio,
        model_price: p.modelPrice,
        completion_ratio: p.completionRatio,
        group_ratio: p.groupRatio,
      }).slice(0, -1),
    }
    texts.set(p, t)
  }
  return t
}

/** The log's content line. */
export function priceContent(p: Price): string {
  return textsOf(p).content
}

/**
 * The log's `other` JSON: the prices, then admin_info.use_channel and any extra fields
 * (numbers, booleans, strings), built from a cached prefix.
 */
export function priceOther(p: Price, useChannel: readonly number[], extra?: Record<string, string | number | boolean>): string {
  let s = `${textsOf(p).other},"admin_info":{"use_channel":[${useChannel.join(',')}]}`
  if (extra) for (const k in extra) s += `,${JSON.stringify(k)}:${JSON.stringify(extra[k])}`
  return s + '}'
}
