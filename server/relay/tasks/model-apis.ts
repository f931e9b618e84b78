/**
 * What the model-API platforms (Replicate, bfl.ai, fal.ai: public provider APIs, no gateway
 * protocol of the family) share: the result URL found in an output of any shape, the task columns
 * it fills for the lists' previews, and the upstream links kept in a task's properties.
 */
import type { TaskChanges, TaskRow } from '../../db/tasks.ts'
import { TaskError } from './submit.ts'
import { field, str } from './types.ts'

const isUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//i.test(v)

/**
 * The first http(s) URL in a provider's output: the value itself, the first of a list, an object's
 * `url`, else its other fields in order (images[0].url, video.url, audio_file.url…), a few levels deep.
 */
export function firstUrl(v: unknown, depth = 4): string {
  if (isUrl(v)) return v
  if (depth <= 0 || v === null || typeof v !== 'object') return ''
  const values = Array.isArray(v) ? v : [(v as Record<string, unknown>).url, ...Object.values(v)]
  for (const x of values) {
    const url = firstUrl(x, depth - 1)
    if (url) return url
  }
  return ''
}

const IMAGE = /\.(png|jpe?g|webp|gif|avif|bmp)$/
const AUDIO = /\.(mp3|wav|ogg|m4a|aac|flac)$/

/**
 * The columns a result URL fills: `result` and `url` (the console's lists preview `result`, by
 * its extension), and `image_url` or `audio_url` when the extension tells (`image` forces an image).
 */
export function resultColumns(url: string, image = false): TaskChanges {
  if (!url) return {}
  const path = url.split(/[?#]/)[0]!.toLowerCase()
  return {
    result: url,
    url,
    ...(image || IMAGE.test(path) ? { image_url: url } : {}),
    ...(AUDIO.test(path) ? { audio_url: url } : {}),
  }
}

/** The upstream links a submit's answer left in the task's properties (`upstream`). */
export function storedUpstream(row: Pick<TaskRow, 'properties'>): Record<string, unknown> {
  try {
    const v = field(JSON.parse(row.properties || '{}'), 'upstream')
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** A URL the poller may call with the channel's key: on the channel's own origin, or on one of `hosts` over https. */
export function trustedUrl(url: unknown, base: string, hosts: RegExp): string {
  const s = str(url)
  try {
    const u = new URL(s)
    if (u.origin === new URL(base).origin) return s
    return u.protocol === 'https:' && hosts.test(u.hostname) ? s : ''
  } catch {
    return ''
  }
}

/** A path segment a provider's model name may use; anything else refuses the submit. */
export function modelSegment(s: string, what: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(s)) throw new TaskError(400, 'invalid_request', `${what} is not a valid model name`)
  return s
}
