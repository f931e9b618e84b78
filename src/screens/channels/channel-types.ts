import type { LabelKey } from './admin-labels.ts'
import { CHANNEL_TYPE } from '../../../domain/channel-types.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'

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
