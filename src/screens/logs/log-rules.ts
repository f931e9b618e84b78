import type { MessageKey } from '../../i18n/t.ts'
import type { LogLabel } from './logs-labels.ts'
import type { Log } from '../../api/types.ts'
import { LOG_TYPE } from '../../../domain/statuses.ts'

/** The label of a log type (spec section 4): 1 top-up, 2 consumption, 3 admin, 4 system, other unknown. */
export function logTypeLabel(type: number): {
  key: LogLabel | MessageKey
  variant: 'success' | 'primary' | 'warning' | 'neutral' | 'danger'
} {
  switch (type) {
    case LOG_TYPE.topup:
      return { key: 'logs.type.topup', variant: 'success' }
    case LOG_TYPE.consume:
      return { key: 'logs.type.consume', variant: 'primary' }
    case LOG_TYPE.manage:
      return { key: 'logs.type.manage', variant: 'warning' }
    case LOG_TYPE.system:
      return { key: 'logs.type.system', variant: 'neutral' }
    default:
      return { key: 'logs.type.unknown', variant: 'danger' }
  }
}

export type Tone = 'green' | 'orange' | 'red'

/** Duration colour of a log (spec section 4): under 101 s green, under 300 s orange, otherwise red. */
export function logDurationTone(seconds: number): Tone {
  if (seconds < 101) return 'green'
  if (seconds < 300) return 'orange'
  return 'red'
}

export const TONE_VARIANT: Record<Tone, 'success' | 'warning' | 'danger'> = { green: 'success', orange: 'warning', red: 'danger' }

/** What `other` carries (spec section 3), every field optional. */
interface LogOther {
  model_ratio?: number
  model_price?: number
  completion_ratio?: number
  group_ratio?: number
  admin_info?: { use_channel?: Array<number | string> }
}

export function parseOther(text: string): LogOther | null {
  if (!text) return null
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : null
  } catch {
    return null
  }
}

/** The channels a request went through, in order (administrators only; the /self answer has no admin_info). */
export function retryChain(other: LogOther | null): string[] {
  const chain = other?.admin_info?.use_channel
  return Array.isArray(chain) ? chain.map((c) => String(c)).filter(Boolean) : []
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/**
 * The pricing that produced a consumption row: a per-call price (model_price set and not -1) or
 * the ratios. Null when `other` says nothing about it.
 */
export function pricing(
  other: LogOther | null,
): { kind: 'price'; price: number; group: number } | { kind: 'ratio'; model: number; completion: number; group: number } | null {
  if (!other) return null
  const price = num(other.model_price)
  const group = num(other.group_ratio) ?? 1
  if (price !== undefined && price !== -1) return { kind: 'price', price, group }
  const model = num(other.model_ratio)
  if (model === undefined) return null
  return { kind: 'ratio', model, completion: num(other.completion_ratio) ?? 1, group }
}

/**
 * The English sentence the relay writes as a consumption row's content (server/relay/pricing.ts):
 * the same figures as its `other`, which the details show in the reader's language instead.
 */
export function relaySentence(p: ReturnType<typeof pricing>): string {
  if (!p) return ''
  if (p.kind === 'price') return `model price ${p.price}, group ratio ${p.group}`
  return `model ratio ${p.model}, completion ratio ${p.completion}, group ratio ${p.group}`
}

export const isStream = (log: Log) => log.is_stream === true || log.is_stream === 1
