import type { LabelKey, Labels } from './option-labels.ts'
import { normaliseOption, optionRule } from '../../../domain/option-rules.ts'

/** Every option as the server sends it: key → string value (secrets as ''). */
export type Options = Record<string, string>

type FieldKind = 'text' | 'url' | 'secret' | 'number' | 'switch' | 'choice' | 'json' | 'textarea' | 'list'

/**
 * One field of an option form: how it is drawn. What a value may be (numbers and their bounds,
 * JSON, choices) is the option's rule in domain/option-rules.ts, which the server checks too.
 */
export interface FieldDef {
  key: string
  kind: FieldKind
  /** sent only when non-empty: secrets (the server never sends them back) and EpayId */
  sendIfSet?: boolean
  hint?: LabelKey
  placeholder?: string
  /** spans the whole row */
  wide?: boolean
  /** text areas holding code (JSON, HTML): monospace, no spell check */
  code?: boolean
}

/** A changed key with its normalised value, as it is saved. */
export type Change = [FieldDef, string]

/** The label of an option key (every key of spec section 3 has one: `opt.<Key>`). */
export const optionLabel = (labels: Labels, key: string) => labels(`opt.${key}` as LabelKey)

/** The value as it is sent and stored: what the form compares with the saved value. */
export function normalize(field: FieldDef, raw: string): string {
  switch (field.kind) {
    case 'switch':
      return raw === 'true' ? 'true' : 'false'
    case 'text':
    case 'secret':
      return raw.trim()
    default:
      // trailing slashes of addresses, numbers in plain form, the domain list de-duplicated
      return normaliseOption(field.key, raw)
  }
}

/** The values of a choice option, labelled `opt.<value>`. */
export const choicesOf = (key: string): readonly string[] => {
  const rule = optionRule(key)
  return rule?.kind === 'choice' ? rule.choices : []
}

export const isInteger = (key: string): boolean => {
  const rule = optionRule(key)
  return rule?.kind === 'number' && rule.integer
}

/** The edits that differ from the saved options, normalised, switches last (a switch may need a value of its form saved first). */
export function pendingChanges(fields: readonly FieldDef[], edits: Options, saved: Options): Change[] {
  const out: Change[] = []
  for (const field of fields) {
    if (!(field.key in edits)) continue
    const v = normalize(field, edits[field.key]!)
    if (field.sendIfSet && v === '') continue
    if (v !== (saved[field.key] ?? '')) out.push([field, v])
  }
  return [...out.filter(([f]) => f.kind !== 'switch'), ...out.filter(([f]) => f.kind === 'switch')]
}

/** The record without these keys (the same record when it has none of them). */
export function withoutKeys<V>(record: Record<string, V>, keys: readonly string[]): Record<string, V> {
  if (!keys.some((k) => k in record)) return record
  const rest = { ...record }
  for (const key of keys) delete rest[key]
  return rest
}
