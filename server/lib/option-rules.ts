import { DEFAULT_OPTIONS } from '../options.ts'
import { normaliseOption, optionProblem, optionRule, switchProblem } from '../../domain/option-rules.ts'
import { problemText } from './problems.ts'
import type { Text } from '../i18n/index.ts'

export function isKnownOption(key: string): boolean {
  return Object.hasOwn(DEFAULT_OPTIONS, key)
}

/** A switch is an option whose default is true or false. */
export function isSwitchOption(key: string): boolean {
  const d = DEFAULT_OPTIONS[key]
  return d === 'true' || d === 'false'
}

/** Options whose value is a JSON object (a body may send it as an object rather than text). */
export const isJsonOption = (key: string): boolean => optionRule(key)?.kind === 'json'

export type Verdict = { ok: true; value: string } | { ok: false; message: Text }

/**
 * Checks and normalises one option value (already in string form) before it is saved, with the
 * rules the settings forms use. `current` reads the other options, for switches that need one
 * filled in first.
 */
export function checkOption(key: string, raw: string, current: (key: string) => string): Verdict {
  const value = isSwitchOption(key) ? raw.trim() : normaliseOption(key, raw)
  const p = optionProblem(key, value) ?? (isSwitchOption(key) ? switchProblem(key, value, current) : null)
  return p ? { ok: false, message: problemText(p) } : { ok: true, value }
}
