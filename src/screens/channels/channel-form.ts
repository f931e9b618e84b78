import type { Channel } from '../../api/types.ts'
import type { ChannelBody } from '../../api/channels.ts'
import type { MessageKey } from '../../i18n/t.ts'
import { DEFAULT_OTHER } from './channel-types.ts'

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

export const PRIORITY_MIN = -999
export const WEIGHT_MIN = 0

export function emptyForm(): ChannelForm {
  return {
    name: '',
    type: 1,
    key: '',
    batch: false,
    openai_organization: '',
    max_input_tokens: '0',
    base_url: '',
    other: '',
    model_mapping: '',
    status_code_mapping: '',
    models: [],
    groups: ['default'],
    auto_ban: true,
    test_model: '',
    priority: '0',
    weight: '0',
  }
}

/** A comma list as a clean array: trimmed, no blanks, no repeats. */
export function splitList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
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
    groups: splitList(c.group ?? '').length ? splitList(c.group ?? '') : ['default'],
    auto_ban: c.auto_ban === true || c.auto_ban === 1,
    test_model: c.test_model ?? '',
    priority: String(c.priority ?? 0),
    weight: String(c.weight ?? 0),
  }
}

/**
 * A number typed into the priority or weight box: null when empty or not a number (the value is
 * then ignored), otherwise an integer no lower than `min` (a lower one is raised to it).
 */
export function boundedNumber(raw: string, min: number): number | null {
  if (raw.trim() === '') return null
  const n = Number(raw)
  if (!Number.isFinite(n)) return null
  return Math.max(min, Math.trunc(n))
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The create or update body for the form, or the message that stops the save (spec section 5,
 * channel form): name and key required for new channels, at least one model, both mappings JSON,
 * no trailing slash on base_url, the default `other` of types 3 and 18.
 */
export function channelBody(form: ChannelForm, isNew: boolean): { body: ChannelBody } | { error: MessageKey } {
  if (isNew && (!form.name.trim() || !form.key.trim())) return { error: 'channels.error.nameAndKey' }
  if (!Array.isArray(form.models)) return { error: 'channels.error.resubmit' }
  if (form.models.length === 0) return { error: 'channels.error.oneModel' }
  const modelMapping = form.model_mapping.trim()
  if (modelMapping && !isJson(modelMapping)) return { error: 'channels.error.modelMappingJson' }
  const statusMapping = form.status_code_mapping.trim()
  if (statusMapping && !isJson(statusMapping)) return { error: 'channels.error.statusMappingJson' }
  let other = form.other.trim()
  if (!other && DEFAULT_OTHER[form.type] !== undefined) other = DEFAULT_OTHER[form.type]!
  const key = form.batch
    ? form.key
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean)
        .join('\n')
    : form.key.trim()
  const body: ChannelBody = {
    name: form.name.trim(),
    type: form.type,
    openai_organization: form.openai_organization.trim(),
    max_input_tokens: Math.max(0, Math.trunc(Number(form.max_input_tokens) || 0)),
    base_url: form.base_url.trim().replace(/\/+$/, ''),
    other,
    model_mapping: modelMapping,
    status_code_mapping: statusMapping,
    models: form.models.join(','),
    group: (form.groups.length ? form.groups : ['default']).join(','),
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
