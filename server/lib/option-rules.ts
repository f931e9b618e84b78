import { DEFAULT_OPTIONS } from '../options.ts'

/** Largest option value accepted (the request body limit is the same). */
export const OPTION_VALUE_MAX = 1024 * 1024

/** Options whose value is a JSON object. */
export const JSON_OPTIONS = new Set([
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'VmodelMap',
  'SunoLimit',
  'TopupGroupRatio',
])

/** JSON options that map a name to a non-negative number (ratios and prices the relay computes with). */
const NUMBER_MAPS = new Set(['ModelPrice', 'ModelRatio', 'CompletionRatio', 'GroupRatio', 'TopupGroupRatio'])

/** Options that lose their trailing slashes. */
const URL_OPTIONS = new Set(['ServerAddress', 'WorkerUrl', 'PayAddress', 'WeChatServerAddress'])

interface NumberRule {
  integer: boolean
  min: number
  /** the minimum is exclusive (QuotaPerUnit must be above 0) */
  above?: boolean
  max: number
}

const COUNT_MAX = 1e15

const NUMBER_OPTIONS: Record<string, NumberRule> = {
  Price: { integer: false, min: 0, max: 1e9 },
  MinTopUp: { integer: false, min: 1, max: 1e9 },
  QuotaPerUnit: { integer: false, min: 0, above: true, max: 1e12 },
  RetryTimes: { integer: true, min: 0, max: 100 },
  ChannelDisableThreshold: { integer: true, min: 0, max: COUNT_MAX },
  QuotaRemindThreshold: { integer: true, min: 0, max: COUNT_MAX },
  QuotaForNewUser: { integer: true, min: 0, max: COUNT_MAX },
  PreConsumedQuota: { integer: true, min: 0, max: COUNT_MAX },
  QuotaForInviter: { integer: true, min: 0, max: COUNT_MAX },
  QuotaForInvitee: { integer: true, min: 0, max: COUNT_MAX },
  DataExportInterval: { integer: true, min: 1, max: 525600 },
  SMTPPort: { integer: true, min: 1, max: 65535 },
}

const CHOICES: Record<string, string[]> = {
  DataExportDefaultTime: ['hour', 'day', 'week'],
}

/** Switching these on needs another option filled in first. */
const NEEDS: Record<string, { key: string; what: string }> = {
  GitHubOAuthEnabled: { key: 'GitHubClientId', what: 'GitHub OAuth' },
  WeChatAuthEnabled: { key: 'WeChatServerAddress', what: 'WeChat login' },
  TurnstileCheckEnabled: { key: 'TurnstileSiteKey', what: 'the Turnstile check' },
  EmailDomainRestrictionEnabled: { key: 'EmailDomainWhitelist', what: 'the e-mail domain restriction' },
}

export function isKnownOption(key: string): boolean {
  return Object.hasOwn(DEFAULT_OPTIONS, key)
}

export function isSwitchOption(key: string): boolean {
  const d = DEFAULT_OPTIONS[key]
  return d === 'true' || d === 'false'
}

export type Verdict = { ok: true; value: string } | { ok: false; message: string }

function number(key: string, raw: string, rule: NumberRule): Verdict {
  const text = raw.trim()
  const n = Number(text)
  if (text === '' || !Number.isFinite(n)) return { ok: false, message: `${key} must be a number` }
  if (rule.integer && !Number.isInteger(n)) return { ok: false, message: `${key} must be an integer` }
  if (rule.above ? n <= rule.min : n < rule.min)
    return { ok: false, message: `${key} must be ${rule.above ? 'greater than' : 'at least'} ${rule.min}` }
  if (n > rule.max) return { ok: false, message: `${key} must be at most ${rule.max}` }
  return { ok: true, value: String(n) }
}

function jsonObject(key: string, raw: string): Verdict {
  const illegal = key === 'TopupGroupRatio' ? 'top-up group ratio is not a legal JSON string' : `${key} is not a legal JSON string`
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { ok: false, message: illegal }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, message: `${illegal}: it must be a JSON object` }
  if (NUMBER_MAPS.has(key)) {
    for (const [name, v] of Object.entries(parsed)) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        return { ok: false, message: `${illegal}: the value of "${name.slice(0, 64)}" must be a number of at least 0` }
      }
    }
  }
  return { ok: true, value: raw }
}

/**
 * Checks and normalises one option value (already in string form) before it is saved.
 * `current` reads the other options, for switches that need one filled in first.
 */
export function checkOption(key: string, raw: string, current: (key: string) => string): Verdict {
  if (raw.length > OPTION_VALUE_MAX) return { ok: false, message: `${key} is longer than 1 MB` }
  if (isSwitchOption(key)) {
    const v = raw.trim()
    if (v !== 'true' && v !== 'false') return { ok: false, message: `${key} must be true or false` }
    const need = NEEDS[key]
    if (v === 'true' && need && current(need.key).trim() === '') {
      return { ok: false, message: `${key} cannot turn on ${need.what} before ${need.key} is filled in` }
    }
    return { ok: true, value: v }
  }
  const rule = NUMBER_OPTIONS[key]
  if (rule) return number(key, raw, rule)
  if (JSON_OPTIONS.has(key)) return jsonObject(key, raw)
  const choices = CHOICES[key]
  if (choices) {
    const v = raw.trim()
    return choices.includes(v) ? { ok: true, value: v } : { ok: false, message: `${key} must be one of ${choices.join(', ')}` }
  }
  if (URL_OPTIONS.has(key)) return { ok: true, value: raw.trim().replace(/\/+$/, '') }
  if (key === 'EmailDomainWhitelist') {
    const domains = [
      ...new Set(
        raw
          .split(',')
          .map((d) => d.trim().toLowerCase())
          .filter(Boolean),
      ),
    ]
    return { ok: true, value: domains.join(',') }
  }
  return { ok: true, value: raw }
}
