import { imageQuota, relayQuota } from '../../domain/pricing.ts'
import type { Ledger, LogRow } from './ledger.ts'
import { priceContent, priceOther, type Usage } from './pricing.ts'
import type { InFlight } from './in-flight.ts'

/** What a settle adds to the log row: the stream's first-response time, and why it ended early. */
export interface ChargeNote {
  /** milliseconds from the request to the first bytes sent (streams) */
  frt?: number
  /** shown in the log content, e.g. "the client disconnected" */
  note?: string
}

/** The real cost of a request and the log content that explains it. */
export function costOf(flight: InFlight, usage: Usage, quotaPerUnit: number): { quota: number; content: string } {
  const { call, price } = flight
  let quota = call.mode === 'images' ? imageQuota(call.json ?? {}, call.model, price, quotaPerUnit) : relayQuota(price, usage, quotaPerUnit)
  let content = priceContent(price)
  if (price.modelPrice < 0 && call.mode !== 'images' && usage.prompt_tokens + usage.completion_tokens === 0) {
    quota = 0
    content += ' (the upstream may have timed out)'
  }
  return { quota, content }
}

/** The consumption log row of a finished request. */
export function logRowOf(flight: InFlight, usage: Usage, quota: number, content: string, now: number, note: ChargeNote = {}): LogRow {
  const { caller, call, price, channel, upstreamModel } = flight
  let extra: Record<string, string | number | boolean> | undefined
  if (note.frt !== undefined) extra = { frt: note.frt }
  if (upstreamModel !== call.model) extra = { ...extra, is_model_mapped: true, upstream_model_name: upstreamModel }
  return {
    user_id: caller.user.id,
    created_at: now,
    type: 2,
    content: note.note ? `${content} (${note.note})` : content,
    username: caller.user.username,
    token_name: caller.token.name,
    token_id: caller.token.id,
    model_name: call.model,
    quota,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    use_time: Math.floor((performance.now() - flight.t0) / 1000),
    is_stream: call.stream ? 1 : 0,
    channel: channel?.id ?? 0,
    other: priceOther(price, flight.tried, extra),
  }
}

/**
 * Settles a request in the ledger: ends its hold and charges the real cost to the user, the token
 * and the channel, with its log row (memory only; written with the next batch). Called by the
 * request's InFlight, which makes sure it happens at most once.
 */
export function charge(ledger: Ledger, quotaPerUnit: number, flight: InFlight, usage: Usage, note?: ChargeNote): void {
  const { quota, content } = costOf(flight, usage, quotaPerUnit)
  const now = Math.floor(Date.now() / 1000)
  ledger.settle(flight.hold, quota, flight.channel?.id ?? 0, logRowOf(flight, usage, quota, content, now, note), now)
}
