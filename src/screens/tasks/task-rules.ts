import type { MessageKey } from '../../i18n/t.ts'
import type { TaskLabel } from './tasks-labels.ts'
import type { TaskPlatform } from '../../api/tasks.ts'

type Variant = 'success' | 'primary' | 'warning' | 'neutral' | 'danger'

/** A label to show: a message key, or the raw value when the spec names no label for it. */
export type Label = { key: TaskLabel | MessageKey; variant: Variant; raw?: undefined } | { raw: string; variant: Variant; key?: undefined }

/** Midjourney submit codes (spec section 4): 1 submitted, 21 waiting, 22 duplicate submission, 0 not submitted. */
export function submitCodeLabel(code: number): Label {
  switch (code) {
    case 1:
      return { key: 'tasks.code.submitted', variant: 'success' }
    case 21:
      return { key: 'tasks.code.waiting', variant: 'warning' }
    case 22:
      return { key: 'tasks.code.duplicate', variant: 'warning' }
    case 0:
      return { key: 'tasks.code.notSubmitted', variant: 'danger' }
    default:
      return { key: 'tasks.status.unknown', variant: 'neutral' }
  }
}

const MJ_STATUS: Record<string, Label> = {
  SUCCESS: { key: 'tasks.status.success', variant: 'success' },
  NOT_START: { key: 'tasks.status.notStarted', variant: 'neutral' },
  SUBMITTED: { key: 'tasks.status.queued', variant: 'warning' },
  IN_PROGRESS: { key: 'tasks.status.inProgress', variant: 'primary' },
  FAILURE: { key: 'tasks.status.failure', variant: 'danger' },
  MODAL: { key: 'tasks.status.modal', variant: 'warning' },
}

/** The label groups of the other task lists (spec section 4), value by value. */
const GROUPS: ReadonlyArray<{ values: readonly string[]; label: Label }> = [
  {
    values: ['complete', 'completed', 'succeeded', 'finished', 'SUCCEEDED', 'SUCCEED', '1'],
    label: { key: 'tasks.status.success', variant: 'success' },
  },
  { values: ['streaming', 'processing', 'RUNNING'], label: { key: 'tasks.status.generating', variant: 'primary' } },
  { values: ['queued', 'queue', 'pending', 'PENDING', 'IN_PROGRESS'], label: { key: 'tasks.status.queued', variant: 'warning' } },
  { values: ['fail', 'FAILED', 'failed', '2'], label: { key: 'tasks.status.failure', variant: 'danger' } },
  { values: ['error'], label: { key: 'tasks.status.error', variant: 'danger' } },
  { values: ['MODAL'], label: { key: 'tasks.status.modal', variant: 'warning' } },
]

/**
 * The status label of a task. Midjourney has its own statuses; the other lists share the label
 * groups, where '0' means success for Viggle only. Empty means none; unknown values are shown raw.
 */
export function statusLabel(platform: TaskPlatform, status: string | null | undefined): Label {
  const value = status == null ? '' : String(status)
  if (value === '') return { key: 'tasks.status.none', variant: 'neutral' }
  if (platform === 'midjourney') return MJ_STATUS[value] ?? { raw: value, variant: 'neutral' }
  if (platform === 'viggle' && value === '0') return { key: 'tasks.status.success', variant: 'success' }
  for (const group of GROUPS) if (group.values.includes(value)) return group.label
  return { raw: value, variant: 'neutral' }
}

/** The action kinds each list names (spec section 4); anything else is shown raw. */
const ACTIONS: Record<string, TaskLabel | MessageKey> = {
  IMAGINE: 'tasks.action.IMAGINE',
  UPSCALE: 'tasks.action.UPSCALE',
  VARIATION: 'tasks.action.VARIATION',
  HIGH_VARIATION: 'tasks.action.HIGH_VARIATION',
  LOW_VARIATION: 'tasks.action.LOW_VARIATION',
  PAN: 'tasks.action.PAN',
  DESCRIBE: 'tasks.action.DESCRIBE',
  BLEND: 'tasks.action.BLEND',
  SHORTEN: 'tasks.action.SHORTEN',
  REROLL: 'tasks.action.REROLL',
  INPAINT: 'tasks.action.INPAINT',
  ZOOM: 'tasks.action.ZOOM',
  CUSTOM_ZOOM: 'tasks.action.CUSTOM_ZOOM',
  MODAL: 'tasks.action.MODAL',
  SWAP_FACE: 'tasks.action.SWAP_FACE',
  suno_generate: 'tasks.action.suno_generate',
  suno_lyrics: 'tasks.action.suno_lyrics',
  suno_upload: 'tasks.action.suno_upload',
  suno_file: 'tasks.action.suno_file',
  suno_concat: 'tasks.action.suno_concat',
  suno_url_upload: 'tasks.action.suno_url_upload',
  suno_tau: 'tasks.action.suno_tau',
  luma_generate: 'tasks.action.luma_generate',
  luma_v2_generate: 'tasks.action.luma_v2_generate',
  luma_extend: 'tasks.action.luma_extend',
  vg_generate: 'tasks.action.vg_generate',
  vg_up_image: 'tasks.action.vg_up_image',
  vg_up_video: 'tasks.action.vg_up_video',
  vg_template: 'tasks.action.vg_template',
  runway_gen2: 'tasks.action.runway_gen2',
  runway_gen3_turbo: 'tasks.action.runway_gen3_turbo',
  runway_gen3_fast: 'tasks.action.runway_gen3_fast',
  runway_gen3: 'tasks.action.runway_gen3',
  runway_file: 'tasks.action.runway_file',
  'pika_v1.5text': 'tasks.action.pika_v15text',
  'pika_v1.5image': 'tasks.action.pika_v15image',
  'pika_v2.0text': 'tasks.action.pika_v20text',
  'pika_v2.0image': 'tasks.action.pika_v20image',
  kling_image: 'tasks.action.kling_image',
  kling_img2video: 'tasks.action.kling_img2video',
  kling_txt2video: 'tasks.action.kling_txt2video',
  ideo_describe: 'tasks.action.ideo_describe',
  ideo_upscale: 'tasks.action.ideo_upscale',
}

/** Which platforms each action kind belongs to, so a kind is only named on its own list. */
const PLATFORM_PREFIX: Record<TaskPlatform, (action: string) => boolean> = {
  midjourney: (a) => /^[A-Z_]+$/.test(a),
  suno: (a) => a.startsWith('suno_'),
  luma: (a) => a.startsWith('luma_'),
  lumav2: (a) => a.startsWith('luma_'),
  viggle: (a) => a.startsWith('vg_'),
  runway: (a) => a.startsWith('runway_'),
  pika: (a) => a.startsWith('pika_'),
  kling: (a) => a.startsWith('kling_'),
  ideo: (a) => a.startsWith('ideo_'),
}

/** The action kind's label, with the model of Ideogram's ideo_gen_* and ideo_remix_* kinds as a detail. */
export function actionLabel(platform: TaskPlatform, action: string): { key?: TaskLabel | MessageKey; detail?: string; raw?: string } {
  if (!action) return { key: 'tasks.status.none' }
  if (!PLATFORM_PREFIX[platform](action)) return { raw: action }
  if (platform === 'ideo') {
    const m = /^ideo_(gen|remix)_(.+)$/.exec(action)
    if (m) return { key: m[1] === 'gen' ? 'tasks.action.ideo_gen' : 'tasks.action.ideo_remix', detail: m[2] }
  }
  const key = ACTIONS[action]
  return key ? { key } : { raw: action }
}

export type Tone = 'green' | 'orange' | 'red' | 'plain'

/**
 * How long a task took and its colour (spec section 9): Midjourney red above 60 s; Luma red above
 * 300 s with minutes above 120 s; Viggle, Runway, Pika and Kling red above 60 s. Suno and
 * Ideogram have no colour rule.
 */
export function taskDuration(platform: TaskPlatform, seconds: number): { tone: Tone; minutes: boolean } {
  switch (platform) {
    case 'midjourney':
    case 'viggle':
    case 'runway':
    case 'pika':
    case 'kling':
      return { tone: seconds > 60 ? 'red' : 'green', minutes: false }
    case 'luma':
    case 'lumav2':
      return { tone: seconds > 300 ? 'red' : 'green', minutes: seconds > 120 }
    default:
      return { tone: 'plain', minutes: false }
  }
}

/** Video length colour (Viggle and Pika): red above 30 s. */
export function videoDurationTone(seconds: number): Tone {
  return seconds > 30 ? 'red' : 'green'
}

export const hasVideoDuration = (platform: TaskPlatform) => platform === 'viggle' || platform === 'pika'

export const TONE_VARIANT: Record<Tone, Variant> = { green: 'success', orange: 'warning', red: 'danger', plain: 'neutral' }

export type MediaKind = 'image' | 'audio' | 'video'

/** The media a URL points at, from its extension, else the list's usual kind. */
export function mediaKind(url: string, fallback: MediaKind): MediaKind {
  const path = url.split(/[?#]/)[0]!.toLowerCase()
  if (/\.(png|jpe?g|webp|gif|avif|bmp)$/.test(path)) return 'image'
  if (/\.(mp3|wav|ogg|m4a|aac|flac)$/.test(path)) return 'audio'
  if (/\.(mp4|webm|mov|m4v)$/.test(path)) return 'video'
  return fallback
}
