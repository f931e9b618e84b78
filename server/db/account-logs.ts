/**
 * The log rows that account events write (bonuses, invites, an administrator's quota change,
 * top-ups): each with its structured detail in `other` (domain/log-detail.ts) and, for the
 * family's clients, the English sentence in `content`. The relay's consumption rows are written
 * by the ledger, not here.
 */
import type { Kysely } from 'kysely'
import type { DB } from './schema.ts'
import { say } from '../i18n/index.ts'
import { LOG_DETAIL_TYPE, logDetailOther, logDetailParams, type LogDetail } from '../../domain/log-detail.ts'

export interface AccountLog {
  userId: number
  username: string
  detail: LogDetail
  /** seconds */
  at: number
  /** the row's quota column, where the event moved quota the log list should show */
  quota?: number
}

/** The row of one account event. */
function logRow(log: AccountLog) {
  return {
    user_id: log.userId,
    username: log.username,
    created_at: log.at,
    type: LOG_DETAIL_TYPE[log.detail.kind],
    quota: log.quota ?? 0,
    content: say('en', `logDetail.${log.detail.kind}`, logDetailParams(log.detail)),
    other: logDetailOther(log.detail),
  }
}

/** Writes the rows of account events; pass the transaction that made the events. */
export async function writeAccountLogs(db: Kysely<DB>, logs: readonly AccountLog[]): Promise<void> {
  if (logs.length) await db.insertInto('logs').values(logs.map(logRow)).execute()
}
