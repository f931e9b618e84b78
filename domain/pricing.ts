/**
 * Model pricing (spec section 9, server-semantics section 4): how a model's ratios and price are
 * found in the ModelPrice, ModelRatio, CompletionRatio and GroupRatio options, what the pricing page
 * shows, and the quota the relay charges. The page and the relay read the same functions, so the
 * price a visitor reads is the price a request pays.
 */

/** The ratio of a model that neither ModelRatio nor ModelPrice names. */
export const UNKNOWN_MODEL_RATIO = 30

/** A ratio of 1 costs $0.002 per 1K tokens: $2 per million. */
const USD_PER_MILLION_AT_RATIO_ONE = 2

/** The JSON options that price models, each a map from a name to a number. */
export interface PriceTables {
  ModelPrice: unknown
  ModelRatio: unknown
  CompletionRatio: unknown
}

/** What one model costs: USD per call (-1 when priced by tokens), its ratio and its completion ratio. */
export interface ModelPricing {
  modelPrice: number
  modelRatio: number
  completionRatio: number
}

/** The prices of one request: the model's, and the group ratio of the caller. */
export interface Price extends ModelPricing {
  groupRatio: number
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

const DATED = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function entry(table: unknown, name: string): unknown {
  return table !== null && typeof table === 'object' && !Array.isArray(table) && Object.hasOwn(table, name)
    ? (table as Record<string, unknown>)[name]
    : undefined
}

/**
 * A model's number in one of the tables: its own entry, else the gizmo wildcard of its family,
 * else the entry of its name without a date suffix (gpt-4o-2024-08-06 reads gpt-4o).
 */
export function lookupRatio(table: unknown, model: string): number | undefined {
  const direct = entry(table, model)
  if (finite(direct)) return direct
  if (model.startsWith('gpt-4-gizmo') || model.startsWith('gpt-4o-gizmo')) {
    const g = entry(table, model.startsWith('gpt-4o') ? 'gpt-4o-gizmo-*' : 'gpt-4-gizmo-*')
    if (finite(g)) return g
  }
  const base = model.replace(DATED, '')
  if (base !== model) {
    const b = entry(table, base)
    if (finite(b)) return b
  }
  return undefined
}

/** Completion ratios by family, for dated or new names the CompletionRatio option does not list. */
export function completionRatioByName(model: string): number {
  const m = model.toLowerCase()
  if (m.startsWith('gpt-4o') || m.startsWith('gpt-4.1') || m.startsWith('chatgpt-4o') || /^o\d/.test(m)) return 4
  if (m.startsWith('gpt-4-turbo') || m.startsWith('gpt-4-1106') || m.startsWith('gpt-4-0125') || m.includes('preview')) return 3
  if (m.startsWith('gpt-4')) return 2
  if (m.startsWith('gpt-3.5')) return 3
  if (m.startsWith('claude')) return 5
  if (m.startsWith('gemini')) return 4
  return 1
}

/** A model's prices from the options; a negative entry counts as none. */
export function modelPricing(model: string, tables: PriceTables): ModelPricing {
  const price = lookupRatio(tables.ModelPrice, model)
  const ratio = lookupRatio(tables.ModelRatio, model)
  const completion = lookupRatio(tables.CompletionRatio, model)
  return {
    modelPrice: price !== undefined && price >= 0 ? price : -1,
    modelRatio: ratio !== undefined && ratio >= 0 ? ratio : UNKNOWN_MODEL_RATIO,
    completionRatio: completion !== undefined && completion >= 0 ? completion : completionRatioByName(model),
  }
}

/** A group's ratio from GroupRatio; 1 for a group it does not name. */
export function groupRatioOf(table: unknown, group: string): number {
  const v = entry(table, group)
  return finite(v) && v >= 0 ? v : 1
}

export const isPerCall = (p: Pick<ModelPricing, 'modelPrice'>): boolean => p.modelPrice >= 0

/** Dollars per 1M prompt tokens, as the pricing page shows them: model ratio x 2 x group ratio. */
export const promptPricePerMillion = (modelRatio: number, groupRatio: number): number =>
  modelRatio * USD_PER_MILLION_AT_RATIO_ONE * groupRatio

/** Dollars per 1M completion tokens: the prompt price times the completion ratio. */
export const completionPricePerMillion = (modelRatio: number, completionRatio: number, groupRatio: number): number =>
  promptPricePerMillion(modelRatio, groupRatio) * completionRatio

/** Dollars per call: model price x group ratio. */
export const callPrice = (modelPrice: number, groupRatio: number): number => modelPrice * groupRatio

/**
 * The quota a request is charged. Per call: price x QuotaPerUnit x group ratio. Per token, the
 * spec's pay-per-usage cost (group ratio x model ratio x (prompt + completion x completion ratio)
 * dollars per 500000) counted in quota and rounded as the reference gateways do:
 * round((prompt + round(completion x completion ratio)) x model ratio x group ratio), at least 1
 * when the ratio is not zero and tokens were used, 0 when no token was used at all.
 */
export function relayQuota(p: Price, usage: Usage, quotaPerUnit: number): number {
  // this order of the factors is the one quota has always been computed in (rounding at .5 depends on it)
  if (isPerCall(p)) return Math.round(p.modelPrice * quotaPerUnit * p.groupRatio)
  const tokens = usage.prompt_tokens + usage.completion_tokens
  if (tokens <= 0) return 0
  const ratio = p.modelRatio * p.groupRatio
  const q = Math.round((usage.prompt_tokens + Math.round(usage.completion_tokens * p.completionRatio)) * ratio)
  return ratio !== 0 && q <= 0 ? 1 : q
}

/**
 * The quota of an image generation (server-semantics section 4): per call, the model's price (or
 * 0.0025 USD times its ratio) times a size factor, a quality factor for dall-e-3 hd, the number of
 * images and the group ratio.
 */
export function imageQuota(
  json: { n?: unknown; size?: unknown; quality?: unknown },
  model: string,
  price: Price,
  quotaPerUnit: number,
): number {
  const n = Math.max(1, Math.min(10, Number(json.n) || 1))
  const size = String(json.size ?? '1024x1024')
  const base = price.modelPrice >= 0 ? price.modelPrice : 0.0025 * price.modelRatio
  let sizeRatio = 1
  if (size === '256x256') sizeRatio = 0.4
  else if (size === '512x512') sizeRatio = 0.45
  else if (size.startsWith('1792') || size.endsWith('1792')) sizeRatio = 2
  let quality = 1
  if (model === 'dall-e-3' && json.quality === 'hd') quality = size.includes('1792') ? 1.5 : 2
  return Math.round(base * sizeRatio * quality * n * price.groupRatio * quotaPerUnit)
}
