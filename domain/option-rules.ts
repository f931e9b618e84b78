/**
 * Options (spec sections 3 and 5): what each key accepts and how its value is normalised before it
 * is compared and saved. The settings forms check a value with these rules before the PUT; the
 * server checks it again with the same rules before it stores it. A key with no rule here is free
 * text.
 */
import { problem, type Problem } from './problem.ts'
import { QUOTA_MAX } from './quota.ts'
import { GRANULARITIES } from './time.ts'
import { parseOrigins } from './origins.ts'

/** The largest option value accepted (the request body limit is the same). */
export const OPTION_VALUE_MAX = 1024 * 1024

/** SMTP: the port the settings suggest (SMTPPort's default), and the port that always means SSL (spec section 9). */
export const SMTP_PORT = 587
export const SMTPS_PORT = 465

export type OptionRule =
  | { kind: 'number'; integer: boolean; min: number; above?: boolean; max: number }
  | { kind: 'json'; numberMap: boolean }
  | { kind: 'choice'; choices: readonly string[] }
  | { kind: 'url' }
  | { kind: 'list' }
  | { kind: 'origins' }

const real = (min: number, max: number, above?: true): OptionRule => ({ kind: 'number', integer: false, min, max, ...(above && { above }) })
/** monitoring and quota numbers: whole numbers of at least 0 (spec section 5) */
const count = (min = 0, max = QUOTA_MAX): OptionRule => ({ kind: 'number', integer: true, min, max })
const json = (numberMap: boolean): OptionRule => ({ kind: 'json', numberMap })
const url: OptionRule = { kind: 'url' }

/** The options with a rule beyond free text. The switches are apart: see switchProblem. */
const RULES: Readonly<Record<string, OptionRule>> = {
  Price: real(0, 1e9),
  MinTopUp: real(1, 1e9),
  QuotaPerUnit: real(0, 1e12, true),
  RetryTimes: count(0, 100),
  ChannelDisableThreshold: count(),
  QuotaRemindThreshold: count(),
  QuotaForNewUser: count(),
  PreConsumedQuota: count(),
  QuotaForInviter: count(),
  QuotaForInvitee: count(),
  DataExportInterval: count(1, 525600),
  SMTPPort: count(1, 65535),
  StreamCacheQueueLength: count(0, 100_000),

  // ratio and price maps: a name to a number of at least 0 (the relay computes with them)
  ModelPrice: json(true),
  ModelRatio: json(true),
  CompletionRatio: json(true),
  GroupRatio: json(true),
  TopupGroupRatio: json(true),
  VmodelMap: json(false),
  SunoLimit: json(false),

  DataExportDefaultTime: { kind: 'choice', choices: GRANULARITIES },

  // these lose their trailing slashes
  ServerAddress: url,
  WorkerUrl: url,
  PayAddress: url,
  WeChatServerAddress: url,

  EmailDomainWhitelist: { kind: 'list' },
  // sites allowed to sign in from an embedding page: origins, one a line
  EmbedOrigins: { kind: 'origins' },
}

/** Switches that turn on only once another option is filled in. */
const SWITCH_NEEDS: Readonly<Record<string, string>> = {
  GitHubOAuthEnabled: 'GitHubClientId',
  WeChatAuthEnabled: 'WeChatServerAddress',
  TurnstileCheckEnabled: 'TurnstileSiteKey',
  EmailDomainRestrictionEnabled: 'EmailDomainWhitelist',
}

/**
 * A switch option's value: 'true' or 'false', and not 'true' before the option it needs is filled
 * in (`current` reads the other options; without it that check is left to the server). The forms
 * draw switches that can hold nothing else, so only the server asks.
 */
export function switchProblem(key: string, value: string, current?: (key: string) => string): Problem | null {
  if (value !== 'true' && value !== 'false') return problem('option.notSwitch', { key })
  const needs = Object.hasOwn(SWITCH_NEEDS, key) ? SWITCH_NEEDS[key] : undefined
  if (value === 'true' && needs && current && current(needs).trim() === '') return problem('option.needsOther', { key, other: needs })
  return null
}

export function optionRule(key: string): OptionRule | undefined {
  return Object.hasOwn(RULES, key) ? RULES[key] : undefined
}

/** The e-mail domain whitelist as a list: lower case, each domain once (spec section 5), commas or spaces between. */
export const emailDomains = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
  ),
]

/** The value as it is saved and compared: trimmed where spaces mean nothing, numbers in their plain form. */
export function normaliseOption(key: string, raw: string): string {
  const rule = optionRule(key)
  switch (rule?.kind) {
    case 'choice':
      return raw.trim()
    case 'number': {
      const text = raw.trim()
      return text !== '' && Number.isFinite(Number(text)) ? String(Number(text)) : text
    }
    case 'url':
      return raw.trim().replace(/\/+$/, '')
    case 'list':
      return emailDomains(raw).join(',')
    case 'origins': {
      const { origins, bad } = parseOrigins(raw)
      return bad === null ? [...new Set(origins)].join('\n') : raw.trim()
    }
    default:
      return raw
  }
}

function numberProblem(key: string, value: string, rule: Extract<OptionRule, { kind: 'number' }>): Problem | null {
  const n = Number(value)
  const bad = value === '' || !Number.isFinite(n) || (rule.integer && !Number.isInteger(n)) || (rule.above ? n <= rule.min : n < rule.min)
  if (bad) {
    const id = rule.above ? 'option.numberAbove' : rule.integer ? 'option.integerMin' : 'option.numberMin'
    return problem(id, { key, min: rule.min })
  }
  return n > rule.max ? problem('option.numberMax', { key, max: rule.max }) : null
}

function jsonProblem(key: string, value: string, numberMap: boolean): Problem | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    parsed = undefined
  }
  let found: Problem | null = null
  if (parsed === undefined) found = problem('option.notJson', { key })
  else if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) found = problem('option.notJsonObject', { key })
  else if (numberMap) {
    for (const [name, v] of Object.entries(parsed)) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        found = problem('option.ratioNotNumber', { key, name: JSON.stringify(name.slice(0, 64)) })
        break
      }
    }
  }
  // the spec words the top-up group ratio's refusal on its own
  return found && key === 'TopupGroupRatio' ? problem('option.topupRatioNotJson') : found
}

/** What is wrong with a normalised option value (not a switch's), or null. */
export function optionProblem(key: string, value: string): Problem | null {
  if (value.length > OPTION_VALUE_MAX) return problem('option.tooLong', { key })
  const rule = optionRule(key)
  switch (rule?.kind) {
    case 'number':
      return numberProblem(key, value, rule)
    case 'json':
      return jsonProblem(key, value, rule.numberMap)
    case 'choice':
      return rule.choices.includes(value) ? null : problem('option.notChoice', { key, choices: rule.choices.join(', ') })
    case 'origins': {
      const { bad } = parseOrigins(value)
      return bad === null ? null : problem('option.notOrigin', { key, entry: bad.slice(0, 100) })
    }
    default:
      return null
  }
}
