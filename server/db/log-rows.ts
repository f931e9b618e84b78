/**
 * The log rows the relay's ledger writes: one definition of their columns for both of its writers,
 * PostgreSQL in-process and the SQLite writer thread, which imports this module (keep it free of
 * anything heavier than the dialect helpers).
 */
import { valueRows, type Placeholder } from './dialect.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'

/** A log row as the relay's ledger queues it (plain data: it crosses to the SQLite writer thread). */
export interface LedgerLog {
  user_id: number
  created_at: number
  type?: number
  content?: string
  username: string
  token_name?: string
  token_id?: number
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  use_time?: number
  is_stream?: number
  channel?: number
  other?: string
}

/** The columns both ledger writers insert, in the order of `logValues`. */
export const LEDGER_LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'token_id',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel',
  'other',
] as const satisfies ReadonlyArray<keyof LedgerLog>

/** A queued row's values in the order of LEDGER_LOG_COLUMNS, defaults filled. */
export function logValues(l: LedgerLog): Array<string | number> {
  return [
    l.user_id,
    l.created_at,
    l.type ?? LOG_TYPE.consume,
    l.content ?? '',
    l.username,
    l.token_name ?? '',
    l.token_id ?? 0,
    l.model_name,
    l.quota,
    l.prompt_tokens,
    l.completion_tokens,
    l.use_time ?? 0,
    l.is_stream ?? 0,
    l.channel ?? 0,
    l.other ?? '',
  ]
}

const insertText = new Map<string, string>()

/** `INSERT INTO logs (…) VALUES …` for `rows` rows, written once per size and placeholder style. */
export function insertLogsSql(rows: number, style: Placeholder): string {
  const k = `${style}:${rows}`
  let s = insertText.get(k)
  if (!s) {
    s = `INSERT INTO logs (${LEDGER_LOG_COLUMNS.join(', ')}) VALUES ${valueRows(rows, LEDGER_LOG_COLUMNS.length, style)}`
    insertText.set(k, s)
  }
  return s
}
