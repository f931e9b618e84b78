/** The usage log as CSV (issue 15): its columns in the reader's language, quota in the display unit, the file's name. */
import type { LogFilter, LogRow } from '../db/logs.ts'
import { say, type Locale, type MessageKey } from '../i18n/index.ts'
import type { Cell } from './csv-stream.ts'
import { quotaPerUnitOr } from '../../domain/quota.ts'

export interface QuotaDisplay {
  currency: boolean
  quotaPerUnit: number
}

const TYPE_KEYS: Record<number, MessageKey> = {
  1: 'log.csv.type.1',
  2: 'log.csv.type.2',
  3: 'log.csv.type.3',
  4: 'log.csv.type.4',
}

/** Seconds as `YYYY-MM-DD HH:MM:SS` UTC. */
const utcTime = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ')

/** The header and the cells of a log export; `admin` adds the user and channel columns. */
export function logColumns(locale: Locale, admin: boolean, display: QuotaDisplay) {
  const w = (key: MessageKey) => say(locale, key)
  const quota = display.currency ? (q: number) => Number((q / quotaPerUnitOr(display.quotaPerUnit)).toFixed(6)) : (q: number) => q
  const header = [
    w('log.csv.time'),
    w('log.csv.type'),
    ...(admin ? [w('log.csv.username')] : []),
    w('log.csv.token'),
    w('log.csv.model'),
    w('log.csv.prompt'),
    w('log.csv.completion'),
    w(display.currency ? 'log.csv.quotaUsd' : 'log.csv.quota'),
    w('log.csv.useTime'),
    w('log.csv.stream'),
    ...(admin ? [w('log.csv.channel')] : []),
    w('log.csv.detail'),
  ]
  const cells = (r: LogRow): Cell[] => [
    utcTime(r.created_at),
    w(TYPE_KEYS[r.type] ?? 'log.csv.type.unknown'),
    ...(admin ? [r.username] : []),
    r.token_name,
    r.model_name,
    r.prompt_tokens,
    r.completion_tokens,
    quota(Number(r.quota)),
    r.use_time,
    w(r.is_stream ? 'log.csv.yes' : 'log.csv.no'),
    ...(admin ? [r.channel] : []),
    r.content,
  ]
  return { header, cells }
}

const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10).replaceAll('-', '')
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40)

/** `logs[-self]-<from>-<to>[-type<n>][-<model>][-<token>][-<user>][-channel<n>].csv`, from the filter. */
export function logFileName(f: LogFilter, self: boolean): string {
  const parts = [self ? 'logs-self' : 'logs', f.start ? day(f.start) : 'start', f.end ? day(f.end) : 'now']
  if (f.type) parts.push(`type${f.type}`)
  for (const v of [f.modelName, f.tokenName, f.username]) if (v) parts.push(safe(v))
  if (f.channel) parts.push(`channel${f.channel}`)
  return `${parts.join('-')}.csv`
}
