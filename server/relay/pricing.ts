import type { OptionStore } from '../options.ts'
import { UNKNOWN_MODEL_RATIO } from '../lib/ratios.ts'

/** The prices that apply to one request (also what the log's `other` records). */
export interface Price {
  modelRatio: number
  completionRatio: number
  groupRatio: number
  /** USD per call; -1 when the model is priced by tokens */
  modelPrice: number
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

interface ModelPrice {
  modelRatio: number
  completionRatio: number
  modelPrice: number
}

const DATED = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/

/** Completion ratios by family, for dated or new names the CompletionRatio option does not list. */
function completionRatioByName(model: string): number {
  const m = model.toLowerCase()
  if (m.startsWith('gpt-4o') || m.startsWith('gpt-4.1') || m.startsWith('chatgpt-4o') || /^o\d/.test(m)) return 4
  if (m.startsWith('gpt-4-turbo') || m.startsWith('gpt-4-1106') || m.startsWith('gpt-4-0125') || m.includes('preview')) return 3
  if (m.startsWith('gpt-4')) return 2
  if (m.startsWith('gpt-3.5')) return 3
  if (m.startsWith('claude')) return 5
  if (m.startsWith('gemini')) return 4
  return 1
}

/**
 * Model ratio, completion ratio, per-call price and group ratio from the options (ModelRatio,
 * CompletionRatio, ModelPrice, GroupRatio), cached per model until one of them changes.
 */
export class Pricing {
  private cache = new Map<string, ModelPrice>()
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

  private table(key: string): Record<string, unknown> {
    const v = this.options.json<Record<string, unknown>>(key, {})
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {}
  }

  private lookup(table: Record<string, unknown>, model: string): number | undefined {
    const direct = table[model]
    if (typeof direct === 'number' && Number.isFinite(direct)) return direct
    if (model.startsWith('gpt-4-gizmo') || model.startsWith('gpt-4o-gizmo')) {
      const g = table[model.startsWith('gpt-4o') ? 'gpt-4o-gizmo-*' : 'gpt-4-gizmo-*']
      if (typeof g === 'number') return g
    }
    const base = model.replace(DATED, '')
    if (base !== model) {
      const b = table[base]
      if (typeof b === 'number' && Number.isFinite(b)) return b
    }
    return undefined
  }

  model(model: string): ModelPrice {
    let p = this.cache.get(model)
    if (p) return p
    const price = this.lookup(this.table('ModelPrice'), model)
    const ratio = this.lookup(this.table('ModelRatio'), model)
    const completion = this.lookup(this.table('CompletionRatio'), model)
    p = {
      modelPrice: price !== undefined && price >= 0 ? price : -1,
      modelRatio: ratio !== undefined && ratio >= 0 ? ratio : UNKNOWN_MODEL_RATIO,
      completionRatio: completion !== undefined && completion >= 0 ? completion : completionRatioByName(model),
    }
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(model, p)
    return p
  }

  groupRatio(group: string): number {
    const v = this.table('GroupRatio')[group]
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 1
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

/**
 * Spec section 9. Per call: price x QuotaPerUnit x group ratio. Per token:
 * round((prompt + round(completion x completion ratio)) x model ratio x group ratio), at least 1
 * when the ratio is not zero and tokens were used; 0 when no token was used at all.
 */
export function quotaOf(p: Price, usage: Usage, quotaPerUnit: number): number {
  if (p.modelPrice >= 0) return Math.round(p.modelPrice * quotaPerUnit * p.groupRatio)
  const tokens = usage.prompt_tokens + usage.completion_tokens
  if (tokens <= 0) return 0
  const ratio = p.modelRatio * p.groupRatio
  const q = Math.round((usage.prompt_tokens + Math.round(usage.completion_tokens * p.completionRatio)) * ratio)
  return ratio !== 0 && q <= 0 ? 1 : q
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
