import type { LabelKey, Labels } from './admin-labels.ts'

/** Channel type numbers in the order the form lists them (spec section 3). */
export const CHANNEL_TYPE_ORDER: readonly number[] = [
  1, 2, 5, 4, 14, 33, 3, 24, 34, 15, 17, 18, 16, 26, 11, 25, 19, 23, 31, 35, 8, 22, 21, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 61, 63,
  64, 65, 66,
]

const KNOWN = new Set(CHANNEL_TYPE_ORDER)

/** The display name of a channel type; 'unknown' for a number the spec does not list. */
export function channelTypeName(L: Labels, type: number): string {
  return KNOWN.has(type) ? L(`channelType.${type}` as LabelKey) : L('channelType.unknown')
}

/** Key formats of the types whose key is more than one secret (spec section 5). */
export const KEY_FORMATS: Readonly<Record<number, string>> = {
  15: 'APIKey|SecretKey',
  18: 'APPID|APISecret|APIKey',
  22: 'APIKey-AppId',
  23: 'AppId|SecretId|SecretKey',
  33: 'Ak|Sk|Region',
  64: 'refresh_token||apikey',
}

/** What `other` holds for a type, and the value an empty one gets on save. */
export const DEFAULT_OTHER: Readonly<Record<number, string>> = { 3: '2023-06-01-preview', 18: 'v2.1' }

export function otherLabel(type: number): LabelKey {
  switch (type) {
    case 3:
      return 'channels.field.otherAzure'
    case 18:
      return 'channels.field.otherSpark'
    case 21:
      return 'channels.field.otherKnowledge'
    case 17:
      return 'channels.field.otherPlugin'
    default:
      return 'channels.field.other'
  }
}

/** Image, music and video types: their preset model list fills in when the list is empty. */
export const PRESET_MODEL_TYPES: ReadonlySet<number> = new Set([2, 5, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 61, 63, 64, 65, 66])

/** Model-mapping template: three dated model names pointing to their base names. */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
)

/** Status-code mapping template: an upstream 400 is reported as 500. */
export const STATUS_CODE_TEMPLATE = JSON.stringify({ '400': '500' }, null, 2)

/** Fetching the model list works for the OpenAI interface format only. */
export const FETCHABLE_TYPE = 1

export type ResponseColor = 'untested' | 'green' | 'lime' | 'yellow' | 'red'

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
    case 1:
      return 'channels.status.enabled'
    case 2:
      return 'channels.status.manual'
    case 3:
      return 'channels.status.auto'
    default:
      return 'channels.status.unknown'
  }
}
