import type { Context } from 'hono'
import type { Env } from '../http.ts'
import { RelayError } from './errors.ts'
import type { Mode, RelayCall } from './adapters/index.ts'
import { doorOf } from './doors/index.ts'
import { geminiTarget } from './doors/gemini.ts'

const MAX_BODY = 32 * 1024 * 1024

/** The model of the endpoints where OpenAI lets a client leave it out. */
const DEFAULT_MODEL: Partial<Record<Mode, string>> = {
  moderations: 'text-moderation-stable',
  images: 'dall-e-2',
  speech: 'tts-1',
  transcriptions: 'whisper-1',
  translations: 'whisper-1',
}

/**
 * The client's request as the later stages see it: the bytes as sent (forwarded untouched when
 * they can be), the parsed JSON body or the multipart model field, the model, stream flags.
 */
export async function readCall(c: Context<Env>, mode: Mode, path: string): Promise<RelayCall> {
  const length = Number(c.req.header('content-length') ?? 0)
  if (length > MAX_BODY) throw new RelayError(413, 'request body is too large', 'body_too_large')
  const raw = Buffer.from(await c.req.raw.arrayBuffer())
  if (raw.length > MAX_BODY) throw new RelayError(413, 'request body is too large', 'body_too_large')
  const contentType = c.req.header('content-type') ?? ''
  let json: Record<string, any> | null = null
  let model: string
  if (mode === 'transcriptions' || mode === 'translations') {
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
      throw new RelayError(400, 'send the audio as multipart/form-data with a file field', 'invalid_request')
    }
    model = multipartField(raw, contentType, 'model')?.value.trim() ?? ''
  } else {
    json = jsonObjectOf(raw)
    model = typeof json.model === 'string' ? json.model.trim() : ''
  }
  let stream = (mode === 'chat' || mode === 'completions' || mode === 'messages' || mode === 'responses') && json?.stream === true
  if (mode === 'gemini') {
    const target = geminiTarget(c.req.path)
    model = target.model
    stream = target.stream
  }
  // Google streams a JSON array unless the client asks for server-sent events
  const jsonArray = mode === 'gemini' && stream && c.req.query('alt') !== 'sse'
  // a front door's stream always ends with the usage, in the door's own closing events
  const wantUsage = stream && (doorOf(mode) !== null || json?.stream_options?.include_usage === true)
  if (!model) model = DEFAULT_MODEL[mode] ?? ''
  if (!model) throw new RelayError(400, 'model is required', 'model_required')
  const call: RelayCall = { mode, path, raw, json, contentType, model, stream, wantUsage }
  if (jsonArray) call.jsonArray = true
  if (mode === 'messages') {
    call.headers = {
      'anthropic-version': c.req.header('anthropic-version') ?? '',
      'anthropic-beta': c.req.header('anthropic-beta') ?? '',
    }
  }
  return call
}

function jsonObjectOf(raw: Buffer): Record<string, any> {
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new RelayError(400, 'the request body is not valid JSON', 'invalid_request')
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new RelayError(400, 'the request body must be a JSON object', 'invalid_request')
  return json as Record<string, any>
}

/** The value of a multipart form field, and where it sits in the bytes. */
export function multipartField(raw: Buffer, contentType: string, name: string): { value: string; start: number; end: number } | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType)
  if (!m) return null
  const boundary = `--${(m[1] ?? m[2]).trim()}`
  const marker = `name="${name}"`
  let at = 0
  for (;;) {
    const b = raw.indexOf(boundary, at)
    if (b < 0) return null
    const headEnd = raw.indexOf('\r\n\r\n', b)
    if (headEnd < 0) return null
    const head = raw.toString('latin1', b, headEnd)
    const next = raw.indexOf(`\r\n${boundary}`, headEnd + 4)
    if (next < 0) return null
    if (head.includes(marker) && !head.includes('filename=')) {
      return { value: raw.toString('utf8', headEnd + 4, next), start: headEnd + 4, end: next }
    }
    at = next + 2
  }
}
