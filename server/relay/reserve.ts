import { imageQuota, relayQuota } from '../../domain/pricing.ts'
import type { RelayEngine } from './engine.ts'
import { RelayError } from './errors.ts'
import type { Reservation } from './ledger.ts'
import { type Price } from './pricing.ts'
import type { Caller } from './authenticate.ts'
import type { InFlight } from './in-flight.ts'
import { countPrompt, promptUpperBound } from './count.ts'
import type { Mode, RelayCall } from './adapters/index.ts'
import { usageOf } from './adapters/types.ts'

/** The endpoints that generate text, whose cost is bounded by the prompt and the output limit. */
const CHAT_LIKE: ReadonlySet<Mode> = new Set(['chat', 'completions', 'messages', 'responses', 'gemini'])

/** The output limit the client set, in whichever field its endpoint names it (0 when none). */
function maxTokens(call: RelayCall): number {
  const j = call.json
  if (call.mode === 'responses') return Number(j?.max_output_tokens ?? 0) || 0
  if (call.mode === 'gemini') return Number(j?.generationConfig?.maxOutputTokens ?? 0) || 0
  return Number(j?.max_tokens ?? j?.max_completion_tokens ?? 0) || 0
}

/**
 * Stage 3: prices the call for the caller's group and holds its estimated cost on the user and the
 * token. From here on the request is in flight: the returned object owns the hold and must end.
 */
export async function reserve(engine: RelayEngine, caller: Caller, call: RelayCall, t0: number): Promise<InFlight> {
  const price = engine.pricing.price(call.model, caller.group)
  const hold = await holdFor(engine, caller, call, price)
  return engine.flights.begin({ caller, call, price, hold, t0 })
}

/**
 * Holds the estimate, or refuses (403) when the balances cannot cover it. When a cheap upper bound
 * of the prompt does not fit, the prompt is counted for real and the hold tried once more.
 */
async function holdFor(engine: RelayEngine, caller: Caller, call: RelayCall, price: Price): Promise<Reservation> {
  const { ledger } = engine
  let r = await ledger.hold(caller.user, caller.token, estimate(engine, call, price, null))
  const bounded = call.mode === 'embeddings' || call.mode === 'moderations' || (maxTokens(call) > 0 && CHAT_LIKE.has(call.mode))
  if ('refused' in r && bounded && price.modelPrice < 0) {
    const amount = estimate(engine, call, price, await countPrompt(engine.tokenizer, call))
    r = await ledger.hold(caller.user, caller.token, amount)
  }
  if ('refused' in r) throw new RelayError(r.status, r.refused, r.code)
  return r
}

/** What to hold before forwarding: exact for per-call prices, images and speech; else an estimate. */
function estimate(engine: RelayEngine, call: RelayCall, price: Price, promptTokens: number | null): number {
  const qpu = engine.ctx.options.quotaPerUnit
  if (call.mode === 'images') return imageQuota(call.json ?? {}, call.model, price, qpu)
  if (price.modelPrice >= 0) return relayQuota(price, usageOf(0, 0), qpu)
  const ratio = price.modelRatio * price.groupRatio
  if (call.mode === 'speech') return Math.ceil(String(call.json?.input ?? '').length * ratio)
  if (call.mode === 'embeddings' || call.mode === 'moderations') return Math.ceil((promptTokens ?? promptUpperBound(call)) * ratio)
  const max = maxTokens(call)
  if (CHAT_LIKE.has(call.mode) && max > 0) {
    const prompt = promptTokens ?? promptUpperBound(call)
    return Math.ceil((prompt + max * price.completionRatio) * ratio)
  }
  return Math.ceil(engine.ctx.options.num('PreConsumedQuota', 500) * ratio)
}
