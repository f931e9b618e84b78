/**
 * Why the server disabled a channel automatically (status 3). Background work writes it (a test of
 * all channels, the balances, a failed relay call, an account check), with no caller whose language
 * it could be written in. So it is kept as data in the channel's other_info, beside the family's
 * English sentence:
 *
 *   {"status_reason": "no balance left", "status_time": 1700000000,
 *    "status_reason_key": "channel.disabled.noBalance"}
 *
 * `status_reason` stays the English sentence (the family's clients read only that);
 * `status_reason_key` is a message of the catalogue and `status_reason_params` its parameters. A
 * parameter may itself be a message (`{key, params}`: the upstream's answer inside an account
 * check's failure); upstream text (an error message, a proxy's description) is a plain string,
 * shown as it came. The channel answers rewrite `status_reason` in the reader's language; a row
 * without a key (written before there was one) keeps its sentence.
 */
import { isMessageKey, say, type Locale, type MessageKey } from '../i18n/index.ts'

export type ReasonParam = string | number | Reason

export interface Reason {
  readonly key: MessageKey
  readonly params?: Readonly<Record<string, ReasonParam>>
}

/** The longest stored sentence, and the longest piece of upstream text kept in a parameter. */
export const REASON_MAX = 500

export function reason(key: MessageKey, params?: Readonly<Record<string, ReasonParam>>): Reason {
  return params ? { key, params } : { key }
}

/** The reason in words; nested messages first. */
export function sayReason(locale: Locale, r: Reason): string {
  if (!r.params) return say(locale, r.key)
  const params: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(r.params)) params[name] = typeof value === 'object' ? sayReason(locale, value) : value
  return say(locale, r.key, params)
}

/** The other_info of a channel disabled automatically now. */
export function disabledInfo(r: Reason, now: number): string {
  return JSON.stringify({
    status_reason: sayReason('en', r).slice(0, REASON_MAX),
    status_time: now,
    status_reason_key: r.key,
    ...(r.params ? { status_reason_params: r.params } : {}),
  })
}

/** A stored reason, or null when it is missing or not one this code can word (an unknown key, say). */
function readReason(key: unknown, params: unknown, depth = 0): Reason | null {
  if (typeof key !== 'string' || !isMessageKey(key) || depth > 3) return null
  if (params === undefined) return { key }
  if (!params || typeof params !== 'object' || Array.isArray(params)) return null
  const read: Record<string, ReasonParam> = {}
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number') read[name] = value
    else {
      const nested = value && typeof value === 'object' ? (value as { key?: unknown; params?: unknown }) : null
      const inner = nested ? readReason(nested.key, nested.params, depth + 1) : null
      if (!inner) return null
      read[name] = inner
    }
  }
  return { key, params: read }
}

/**
 * other_info as a reader sees it: `status_reason` in their language when the row carries the
 * reason as data; anything else unchanged (no key, an unknown one, not JSON).
 */
export function localizedInfo(otherInfo: string | null | undefined, locale: Locale): string | null | undefined {
  if (!otherInfo || !otherInfo.includes('status_reason_key')) return otherInfo
  let info: unknown
  try {
    info = JSON.parse(otherInfo)
  } catch {
    return otherInfo
  }
  if (!info || typeof info !== 'object' || Array.isArray(info)) return otherInfo
  const fields = info as Record<string, unknown>
  const r = readReason(fields.status_reason_key, fields.status_reason_params)
  if (!r) return otherInfo
  return JSON.stringify({ ...fields, status_reason: sayReason(locale, r) })
}
