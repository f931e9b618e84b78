import type { Usage } from '../pricing.ts'
import { eventJson, eventsOf, forEachEvent } from '../sse.ts'
import type { StreamTranslator } from './types.ts'
import { usageOf } from './types.ts'
import { normaliseUsage } from './openai.ts'

const RETAIN_LIMIT = 8 * 1024 * 1024
const STORED_LIMIT = 10_000

/** Which channel answered a Responses request, by response id, so `retrieve` goes back to it. */
const stored = new Map<string, number>()
/**
 * The stored ids in the order they came, a ring: the oldest is dropped by its id. (Taking the
 * Map's first key instead walks over every slot deleted before it, some thousands once full.)
 */
const storedOrder: string[] = new Array<string>(STORED_LIMIT)
let oldest = 0

export function rememberResponse(id: string, channelId: number | undefined): void {
  if (!id || !channelId) return
  if (stored.has(id)) {
    stored.set(id, channelId)
    return
  }
  // the ring is full exactly when the map is: its next slot holds the oldest id
  if (stored.size >= STORED_LIMIT) stored.delete(storedOrder[oldest])
  storedOrder[oldest] = id
  oldest = (oldest + 1) % STORED_LIMIT
  stored.set(id, channelId)
}

export function channelOfResponse(id: string): number | undefined {
  return stored.get(id)
}

/** The id at the head of a Responses answer (its first "id" field), without parsing the whole body. */
export function responseIdOf(body: Buffer): string {
  const m = /"id"\s*:\s*"(resp[^"]*)"/.exec(body.toString('utf8', 0, Math.min(body.length, 512)))
  return m ? m[1] : ''
}

/** A stream's closing error event in Anthropic's shape (the SDKs raise it). */
export function anthropicErrorEvent(message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`
}

/** A stream's closing error chunk in Gemini's shape. */
export function geminiErrorEvent(message: string): string {
  return `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\n\n`
}

/** Texts of a Responses or Gemini stream event, for counting when the upstream reports no usage. */
function producedOf(j: Record<string, any>, texts: string[]): void {
  if (typeof j.delta === 'string') texts.push(j.delta)
  for (const c of Array.isArray(j.candidates) ? j.candidates : []) {
    for (const p of (Array.isArray(c?.content?.parts) ? c.content.parts : []) as Array<Record<string, any>>) {
      if (typeof p.text === 'string') texts.push(p.text)
      if (p.functionCall) texts.push(String(p.functionCall.name ?? ''), JSON.stringify(p.functionCall.args ?? {}))
    }
  }
}

/**
 * A door's stream from a channel of the same format, passed through byte for byte. Reads only the
 * events that carry usage (and a Responses stream's first event, for its id); the rest is kept, up
 * to a limit, and read only when the usage has to be counted.
 */
abstract class NativeStream implements StreamTranslator {
  usage: Usage | null = null
  private retained: Buffer[] = []
  private retainedBytes = 0
  private texts: string[] = []
  /**
   * A byte pattern present in each event this stream must read as it passes, and what must follow
   * it there (one of `endings`; none: nothing more).
   */
  protected abstract marker: Buffer
  protected endings: readonly Buffer[] = []
  protected abstract read(j: Record<string, any>): void
  abstract fail(message: string): string

  segment(seg: Buffer): Buffer {
    if (this.retainedBytes + seg.length <= RETAIN_LIMIT) {
      this.retained.push(seg)
      this.retainedBytes += seg.length
    } else this.scan(seg)
    // only the events holding the marker are parsed: one pass for it over the segment
    let next = this.find(seg, 0)
    if (next < 0) return seg
    forEachEvent(seg, (s, e) => {
      if (next < 0 || next >= e) return
      const j = eventJson(seg, s, e)
      if (j) this.read(j)
      next = this.find(seg, e)
    })
    return seg
  }

  /** Where the marker (with one of its endings) next occurs in seg from `from`, or -1. */
  private find(seg: Buffer, from: number): number {
    const { marker, endings } = this
    for (let at = seg.indexOf(marker, from); at >= 0; at = seg.indexOf(marker, at + marker.length)) {
      if (endings.length === 0) return at
      const after = at + marker.length
      for (const ending of endings) if (startsWith(seg, after, ending)) return at
    }
    return -1
  }

  private scan(seg: Buffer): void {
    for (const ev of eventsOf(seg)) if (ev.json) producedOf(ev.json as Record<string, any>, this.texts)
  }

  end(): null {
    return null
  }

  produced() {
    for (const b of this.retained) this.scan(b)
    this.retained = []
    return { texts: this.texts, extraTokens: 0 }
  }
}

/** whether seg holds `part` at `at` (a byte loop: Buffer.compare's checks cost more for a few bytes) */
function startsWith(seg: Buffer, at: number, part: Buffer): boolean {
  if (at + part.length > seg.length) return false
  for (let i = 0; i < part.length; i++) if (seg[at + i] !== part[i]) return false
  return true
}

const RESPONSE_TYPE = Buffer.from('"response.')
const RESPONSE_TYPES_READ = ['created"', 'completed"', 'incomplete"'].map((t) => Buffer.from(t))
const USAGE_METADATA = Buffer.from('"usageMetadata"')

/** OpenAI's Responses stream: the id from response.created, the usage from response.completed. */
export class ResponsesPassthrough extends NativeStream {
  // the types read, which their events' data name (not "usage": the created events carry usage: null)
  protected marker = RESPONSE_TYPE
  protected endings = RESPONSE_TYPES_READ
  private channelId: number | undefined

  constructor(channelId: number | undefined) {
    super()
    this.channelId = channelId
  }

  protected read(j: Record<string, any>): void {
    if (j.type === 'response.created') rememberResponse(String(j.response?.id ?? ''), this.channelId)
    else if (j.type === 'response.completed' || j.type === 'response.incomplete') this.usage = normaliseUsage(j.response?.usage)
  }

  fail(message: string): string {
    return `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'stream_interrupted', message, param: null })}\n\n`
  }
}

/** Gemini's stream: usageMetadata, in the last chunk or growing chunk by chunk (the last one counts). */
export class GeminiPassthrough extends NativeStream {
  protected marker = USAGE_METADATA

  protected read(j: Record<string, any>): void {
    const u = geminiUsage(j.usageMetadata)
    if (u) this.usage = u
  }

  fail(message: string): string {
    return geminiErrorEvent(message)
  }
}

export function geminiUsage(u: Record<string, any> | undefined): Usage | null {
  if (!u) return null
  const prompt = Number(u.promptTokenCount) || 0
  const completion = (Number(u.candidatesTokenCount) || 0) + (Number(u.thoughtsTokenCount) || 0)
  return prompt || completion ? usageOf(prompt, completion) : null
}
