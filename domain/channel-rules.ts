/** Channels: the channel form's rules (spec section 5), applied by the form and by the server alike. */
import { problem, type Problem } from './problem.ts'

export const PRIORITY_MIN = -999
export const WEIGHT_MIN = 0

/** A channel's name may not be blank, and a new channel needs a key as well. */
export function nameAndKeyProblem(name: string, key: string, isNew: boolean): Problem | null {
  return name.trim() === '' || (isNew && key.trim() === '') ? problem('channel.nameAndKey') : null
}

/** A channel serves at least one model. */
export function modelsProblem(models: readonly string[]): Problem | null {
  return models.length === 0 ? problem('channel.oneModel') : null
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text)
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** model_mapping: empty, or a JSON object from a requested model name to the name sent upstream. */
export function modelMappingProblem(text: string): Problem | null {
  if (text.trim() === '') return null
  const map = jsonObject(text)
  if (!map) return problem('channel.modelMappingJson')
  for (const [name, target] of Object.entries(map)) {
    if (typeof target !== 'string') return problem('channel.modelMappingValue', { name: JSON.stringify(name) })
  }
  return null
}

const HTTP_STATUS = /^[1-5][0-9][0-9]$/

/** status_code_mapping: empty, or a JSON object from an HTTP status to the status the caller sees. */
export function statusMappingProblem(text: string): Problem | null {
  if (text.trim() === '') return null
  const map = jsonObject(text)
  if (!map) return problem('channel.statusMappingJson')
  for (const [code, shown] of Object.entries(map)) {
    if (!HTTP_STATUS.test(code)) return problem('channel.statusMappingCode', { code: JSON.stringify(code) })
    if (!HTTP_STATUS.test(String(shown))) return problem('channel.statusMappingCode', { code: JSON.stringify(String(shown)) })
  }
  return null
}

/** base_url loses its trailing slashes (spec section 5). */
export const trimTrailingSlash = (url: string): string => url.replace(/\/+$/, '')

/** base_url, once trimmed: empty, or an http or https address. */
export function baseUrlProblem(url: string): Problem | null {
  if (url === '') return null
  try {
    const { protocol } = new URL(url)
    if (protocol === 'http:' || protocol === 'https:') return null
  } catch {
    /* not a URL */
  }
  return problem('channel.baseUrlInvalid')
}

/** Batch create takes one key per line: the lines, trimmed, blanks dropped. */
export function channelKeys(text: string): string[] {
  return text
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
}

/**
 * A priority or weight as the form holds it: null when empty or not a number (the value is then
 * ignored), otherwise a whole number no lower than `min` (a lower one is raised to it).
 */
export function boundedNumber(raw: string, min: number): number | null {
  if (raw.trim() === '') return null
  const n = Number(raw)
  if (!Number.isFinite(n)) return null
  return Math.max(min, Math.trunc(n))
}

/** A weight below 0 counts as 0 (spec section 5). */
export const clampWeight = (weight: number): number => Math.max(WEIGHT_MIN, weight)
