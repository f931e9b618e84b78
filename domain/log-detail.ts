/**
 * What a log row the console shows as text says (top-up, admin and system rows, spec section 4),
 * as data rather than words: the server stores it in the row's `other` JSON under `detail`,
 * `{"detail": {"kind": "topup.redeemed", "quota": 25000000, "code_id": 10}}`, and the reader
 * renders it in their own language and display unit. The row's `content` keeps the English
 * sentence for the family's clients, which read only that.
 *
 * Amounts: `quota`, `from` and `to` are quota (shown in dollars when DisplayInCurrencyEnabled);
 * `amount` is US dollars; `money` is what was paid, in the payment platform's currency units.
 * The row's own user is the one the detail is about (the invitee of an invite, the user whose
 * quota an administrator changed).
 */
import { LOG_TYPE } from './statuses.ts'

export type LogDetail =
  /** a new account's bonus (QuotaForNewUser) */
  | { kind: 'user.newBonus'; quota: number }
  /** the invitee's bonus for registering with an invite code (QuotaForInvitee) */
  | { kind: 'user.inviteeBonus'; quota: number }
  /** the inviter's reward (QuotaForInviter), added to the invite quota, not to the balance */
  | { kind: 'user.inviterReward'; quota: number; invitee: string }
  /** an administrator set the quota of `user` (the row's user) from one amount to another */
  | { kind: 'admin.quotaChanged'; admin: string; user: string; from: number; to: number }
  /** a redemption code was redeemed */
  | { kind: 'topup.redeemed'; quota: number; code_id: number }
  /** an online payment succeeded: `amount` dollars bought `quota`, `money` paid by `method` */
  | { kind: 'topup.paid'; amount: number; quota: number; money: number; method: string; trade_no: string }
  /** an image, music or video task failed and its charge was given back */
  | { kind: 'task.refunded'; quota: number; platform: string; task_id: string }

export type LogDetailKind = LogDetail['kind']

/** The log type of the row each kind of detail is written on. */
export const LOG_DETAIL_TYPE: { readonly [K in LogDetailKind]: number } = {
  'user.newBonus': LOG_TYPE.system,
  'user.inviteeBonus': LOG_TYPE.system,
  'user.inviterReward': LOG_TYPE.system,
  'admin.quotaChanged': LOG_TYPE.manage,
  'topup.redeemed': LOG_TYPE.topup,
  'topup.paid': LOG_TYPE.topup,
  'task.refunded': LOG_TYPE.system,
}

/** The fields of a detail that hold quota, to be shown in the site's display unit. */
export const LOG_DETAIL_QUOTA_FIELDS: readonly string[] = ['quota', 'from', 'to']

/** The detail's fields other than its kind: the parameters of its sentence. */
export function logDetailParams(detail: LogDetail): Readonly<Record<string, string | number>> {
  const { kind: _kind, ...params } = detail
  return params
}

/** The `other` JSON of a row that carries only a detail. */
export function logDetailOther(detail: LogDetail): string {
  return JSON.stringify({ detail })
}

/** The detail stored in a row's `other`, or null when it has none (or one of a kind this code does not know). */
export function readLogDetail(other: string): LogDetail | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(other)
  } catch {
    return null
  }
  const detail = (parsed as { detail?: unknown } | null)?.detail as { kind?: unknown } | undefined
  if (!detail || typeof detail !== 'object' || typeof detail.kind !== 'string') return null
  return Object.hasOwn(LOG_DETAIL_TYPE, detail.kind) ? (detail as LogDetail) : null
}
