import type { Channel } from '../../api/types.ts'
import type { ChannelBody } from '../../api/channels.ts'
import type { MessageKey } from '../../i18n/t.ts'
import type { LabelKey } from '../../ui/admin/labels.ts'
import { CHANNEL_TYPE, otherWithDefault } from '../../../domain/channel-types.ts'
import {
  baseUrlProblem,
  boundedNumber,
  channelKeys,
  modelMappingProblem,
  modelsProblem,
  nameAndKeyProblem,
  PRIORITY_MIN,
  statusMappingProblem,
  trimTrailingSlash,
  WEIGHT_MIN,
} from '../../../domain/channel-rules.ts'
import { firstProblem, type Problem } from '../../../domain/problem.ts'
import { DEFAULT_GROUP } from '../../../domain/roles.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'
import { splitList } from '../../../domain/text.ts'
import '../../i18n/en/channels.ts'

/** The add/edit form: every editable field of the Channel entity, as the inputs hold them. */
export interface ChannelForm {
  name: string
  type: number
  key: string
  /** batch create: one channel per key line */
  batch: boolean
  openai_organization: string
  max_input_tokens: string
  base_url: string
  other: string
  model_mapping: string
  status_code_mapping: string
  models: string[]
  groups: string[]
  auto_ban: boolean
  test_model: string
  priority: string
  weight: string
}

export function emptyForm(): ChannelForm {
  return {
    name: '',
    type: CHANNEL_TYPE.openai,
    key: '',
    batch: false,
    openai_organization: '',
    max_input_tokens: '0',
    base_url: '',
    other: '',
    model_mapping: '',
    status_code_mapping: '',
    models: [],
    groups: [DEFAULT_GROUP],
    auto_ban: true,
    test_model: '',
    priority: '0',
    weight: '0',
  }
}

/** The form for an existing channel (the key stays empty: an empty key keeps the stored one). */
export function formFromChannel(c: Channel): ChannelForm {
  return {
    name: c.name ?? '',
    type: c.type,
    key: '',
    batch: false,
    openai_organization: c.openai_organization ?? '',
    max_input_tokens: String(c.max_input_tokens ?? 0),
    base_url: c.base_url ?? '',
    other: c.other ?? '',
    model_mapping: c.model_mapping ?? '',
    status_code_mapping: c.status_code_mapping ?? '',
    models: splitList(c.models ?? ''),
    groups: splitList(c.group ?? '').length ? splitList(c.group ?? '') : [DEFAULT_GROUP],
    auto_ban: c.auto_ban === true || c.auto_ban === 1,
    test_model: c.test_model ?? '',
    priority: String(c.priority ?? 0),
    weight: String(c.weight ?? 0),
  }
}

/**
 * The create or update body for the form, or the problem that stops the save (spec section 5,
 * channel form), by the rules the server applies too: a name, and a key for new channels, at
 * least one model, both mappings JSON, an http(s) base_url without a trailing slash, the default
 * `other` of types 3 and 18. A models value that is not a list asks not to resubmit.
 */
export function channelBody(form: ChannelForm, isNew: boolean): { body: ChannelBody } | { problem: Problem } | { error: MessageKey } {
  if (!Array.isArray(form.models)) return { error: 'channels.error.resubmit' }
  const key = form.batch ? channelKeys(form.key).join('\n') : form.key.trim()
  const modelMapping = form.model_mapping.trim()
  const statusMapping = form.status_code_mapping.trim()
  const baseUrl = trimTrailingSlash(form.base_url.trim())
  const problem = firstProblem(
    nameAndKeyProblem(form.name, key, isNew),
    modelsProblem(form.models),
    modelMappingProblem(modelMapping),
    statusMappingProblem(statusMapping),
    baseUrlProblem(baseUrl),
  )
  if (problem) return { problem }
  const body: ChannelBody = {
    name: form.name.trim(),
    type: form.type,
    openai_organization: form.openai_organization.trim(),
    max_input_tokens: Math.max(0, Math.trunc(Number(form.max_input_tokens) || 0)),
    base_url: baseUrl,
    other: otherWithDefault(form.type, form.other.trim()),
    model_mapping: modelMapping,
    status_code_mapping: statusMapping,
    models: form.models.join(','),
    group: (form.groups.length ? form.groups : [DEFAULT_GROUP]).join(','),
    auto_ban: form.auto_ban ? 1 : 0,
    test_model: form.test_model.trim(),
  }
  if (key) body.key = key
  const priority = boundedNumber(form.priority, PRIORITY_MIN)
  if (priority !== null) body.priority = priority
  const weight = boundedNumber(form.weight, WEIGHT_MIN)
  if (weight !== null) body.weight = weight
  return { body }
}

/** Adds typed model names (comma separated) to a list; reports whether some were there already. */
export function addModels(current: readonly string[], typed: string): { models: string[]; duplicates: boolean } {
  const next = [...current]
  let duplicates = false
  for (const name of splitList(typed)) {
    if (next.includes(name)) duplicates = true
    else next.push(name)
  }
  return { models: next, duplicates }
}

/** The copy of a channel a "copy" creates: same settings and key, a new name, fresh counters. */
export function copyBody(c: Channel, suffix: string): ChannelBody {
  return {
    name: `${c.name}${suffix}`,
    type: c.type,
    key: c.key ?? '',
    openai_organization: c.openai_organization,
    max_input_tokens: c.max_input_tokens,
    base_url: c.base_url,
    other: c.other,
    model_mapping: c.model_mapping,
    status_code_mapping: c.status_code_mapping,
    models: c.models,
    group: c.group,
    auto_ban: c.auto_ban === true || c.auto_ban === 1 ? 1 : 0,
    test_model: c.test_model,
    status: c.status,
    priority: c.priority,
    weight: c.weight,
  }
}

/** The label of the `other` field: what it holds for the type. */
export function otherLabel(type: number): LabelKey {
  switch (type) {
    case CHANNEL_TYPE.azure:
      return 'channels.field.otherAzure'
    case CHANNEL_TYPE.xunfei:
      return 'channels.field.otherSpark'
    case CHANNEL_TYPE.aiproxyLibrary:
      return 'channels.field.otherKnowledge'
    case CHANNEL_TYPE.ali:
      return 'channels.field.otherPlugin'
    default:
      return 'channels.field.other'
  }
}

/** Model-mapping template: three dated model names pointing to their base names. */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
)

/** Status-code mapping template: an upstream 400 is reported as 500. */
export const STATUS_CODE_TEMPLATE = JSON.stringify({ '400': '500' }, null, 2)

type ResponseColor = 'untested' | 'green' | 'lime' | 'yellow' | 'red'

/** Spec section 4: 0 untested; up to 1000 ms green; up to 3000 lime; up to 5000 yellow; above red. */
export function responseTimeColor(ms: number): ResponseColor {
  if (!ms) return 'untested'
  if (ms <= 1000) return 'green'
  if (ms <= 3000) return 'lime'
  if (ms <= 5000) return 'yellow'
  return 'red'
}

/** The label of a channel status (spec section 4). */
export function channelStatusKey(status: number): LabelKey {
  switch (status) {
    case CHANNEL_STATUS.enabled:
      return 'channels.status.enabled'
    case CHANNEL_STATUS.manuallyDisabled:
      return 'channels.status.manual'
    case CHANNEL_STATUS.autoDisabled:
      return 'channels.status.auto'
    default:
      return 'channels.status.unknown'
  }
}
