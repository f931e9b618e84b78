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
 * shown as it came; a name the catalogue does not hold but that has both languages (a channel
 * type's) is `{en, zh}`. The channel answers rewrite `status_reason` in the reader's language; a
 * row without a key (written before there was one) keeps its sentence.
 *
 * Why the channel's last test failed is kept the same way: `test_error` (the English sentence),
 * `test_error_key` and `test_error_params` (see withTestReason).
 */
import { withTestError } from '../../domain/channel-test.ts'
import { isMessageKey, say, type Locale, type MessageKey, type Words } from '../i18n/index.ts'

export type ReasonParam = string | number | Words | Reason

export interface Reason {
  readonly key: MessageKey
  readonly params?: Readonly<Record<string, ReasonParam>>
}

/** The longest stored sentence, and the longest piece of upstream text kept in a parameter. */
export const REASON_MAX = 500

export function reason(key: MessageKey, params?: Readonly<Record<string, ReasonParam>>): Reason {
  return params ? { key, params } : { key }
}

/**
 * An error whose message the server wrote: thrown where the words cannot be chosen yet, its
 * message the English sentence (for the relay's clients), its reason for a reader's language.
 */
export class ReasonError extends Error {
  readonly reason: Reason
  constructor(r: Reason) {
    super(sayReason('en', r))
    this.reason = r
  }
}

/** The HTTP client's error codes (Node's and undici's) in the reader's words. */
const NETWORK: Readonly<Record<string, MessageKey>> = {
  ECONNREFUSED: 'net.refused',
  ECONNRESET: 'net.reset',
  EPIPE: 'net.reset',
  UND_ERR_SOCKET: 'net.reset',
  ENOTFOUND: 'net.noHost',
  EAI_AGAIN: 'net.noHost',
  ETIMEDOUT: 'net.timeout',
  UND_ERR_CONNECT_TIMEOUT: 'net.timeout',
  UND_ERR_HEADERS_TIMEOUT: 'net.timeout',
  UND_ERR_BODY_TIMEOUT: 'net.timeout',
  EHOSTUNREACH: 'net.unreachable',
  ENETUNREACH: 'net.unreachable',
}

/**
 * What the HTTP client reported (a refused or reset connection, an unknown host, a timeout, a
 * certificate, a body that is not JSON) as a message in the reader's words, with the client's own
 * text kept in brackets for the administrator; null for any other error.
 */
export function networkReason(err: unknown): { key: MessageKey; params: { detail: string } } | null {
  if (!(err instanceof Error)) return null
  const cause = (err as { cause?: unknown }).cause
  // fetch's own message ("fetch failed") says less than its cause's
  const detail = (cause instanceof Error ? cause.message : err.message).slice(0, REASON_MAX)
  const code = String((err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code ?? '')
  // some clients (nodemailer: ESOCKET) wrap the system's code, which their message still names
  const named = /\b(E[A-Z_]{3,})\b/.exec(detail)?.[1] ?? ''
  let key: MessageKey | undefined = NETWORK[code] ?? NETWORK[named]
  if (!key && /CERT|TLS|SSL/.test(code)) key = 'net.tls'
  if (!key && (err.name === 'TimeoutError' || (err.name === 'AbortError' && /time/i.test(err.message)))) key = 'net.timeout'
  if (!key && err instanceof SyntaxError && /JSON/.test(err.message)) key = 'net.badJson'
  return key ? { key, params: { detail } } : null
}

/**
 * An error as a reason parameter: its reason when the server wrote it or the HTTP client's code
 * names it, else its text as it came.
 */
export function errorParam(err: unknown): ReasonParam {
  if (err instanceof ReasonError) return err.reason
  return networkReason(err) ?? (err instanceof Error ? err.message : String(err)).slice(0, REASON_MAX)
}

function sayParam(locale: Locale, value: ReasonParam): string | number {
  if (typeof value !== 'object') return value
  if ('key' in value) return sayReason(locale, value)
  return locale === 'zh-CN' ? value.zh : value.en
}

/** The reason in words; nested messages first. */
export function sayReason(locale: Locale, r: Reason): string {
  if (!r.params) return say(locale, r.key)
  const params: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(r.params)) params[name] = sayParam(locale, value)
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

/**
 * other_info with the channel's last test recorded: failed (why, as the English sentence and as
 * data) or passed (null: removed).
 */
export function withTestReason(otherInfo: string | null | undefined, r: Reason | null): string {
  if (!r) return withTestError(otherInfo, null)
  return withTestError(otherInfo, sayReason('en', r).slice(0, REASON_MAX), {
    test_error_key: r.key,
    ...(r.params ? { test_error_params: r.params } : {}),
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
      const nested = value && typeof value === 'object' ? (value as { key?: unknown; params?: unknown; en?: unknown; zh?: unknown }) : null
      if (nested && typeof nested.en === 'string' && typeof nested.zh === 'string') {
        read[name] = { en: nested.en, zh: nested.zh }
        continue
      }
      const inner = nested ? readReason(nested.key, nested.params, depth + 1) : null
      if (!inner) return null
      read[name] = inner
    }
  }
  return { key, params: read }
}

/** The sentences of other_info kept with their reason as data: the sentence, its key, its params. */
const WORDED = [
  ['status_reason', 'status_reason_key', 'status_reason_params'],
  ['test_error', 'test_error_key', 'test_error_params'],
] as const

/**
 * other_info as a reader sees it: `status_reason` and `test_error` in their language when the
 * row carries them as data; anything else unchanged (no key, an unknown one, not JSON).
 */
export function localizedInfo(otherInfo: string | null | undefined, locale: Locale): string | null | undefined {
  if (!otherInfo || !WORDED.some(([, key]) => otherInfo.includes(key))) return otherInfo
  let info: unknown
  try {
    info = JSON.parse(otherInfo)
  } catch {
    return otherInfo
  }
  if (!info || typeof info !== 'object' || Array.isArray(info)) return otherInfo
  const fields = info as Record<string, unknown>
  const worded: Record<string, string> = {}
  for (const [sentence, key, params] of WORDED) {
    const r = readReason(fields[key], fields[params])
    if (r) worded[sentence] = sayReason(locale, r)
  }
  return Object.keys(worded).length ? JSON.stringify({ ...fields, ...worded }) : otherInfo
}
