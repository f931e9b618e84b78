/**
 * Server-sent events at the byte level: cut the upstream's byte stream into whole events without
 * decoding it, so the common case forwards the very buffers undici handed us.
 */

const LF = 10
const CR = 13

/** End offset (exclusive) of the last event boundary ("\n\n" or "\n\r\n") in buf, or -1. */
export function lastBoundary(buf: Buffer): number {
  const a = buf.lastIndexOf('\n\n')
  const b = buf.lastIndexOf('\n\r\n')
  if (a < 0 && b < 0) return -1
  return a > b ? a + 2 : b + 3
}

/** Holds the incomplete tail of the stream between network chunks. */
export class SseFramer {
  private partial: Buffer | null = null

  /** Whole events available after this chunk (possibly several), or null. */
  push(chunk: Buffer): Buffer | null {
    const buf = this.partial ? Buffer.concat([this.partial, chunk]) : chunk
    const end = lastBoundary(buf)
    if (end < 0) {
      this.partial = buf
      return null
    }
    this.partial = end < buf.length ? Buffer.from(buf.subarray(end)) : null
    return end === buf.length ? buf : buf.subarray(0, end)
  }

  /** Whatever is left when the upstream ends (an event without its closing blank line). */
  rest(): Buffer | null {
    const p = this.partial
    this.partial = null
    return p && p.length ? p : null
  }
}

/** Calls fn(start, end) for each event in a segment of whole events. */
export function forEachEvent(seg: Buffer, fn: (start: number, end: number) => void): void {
  let start = 0
  let i = seg.indexOf(LF, 0)
  while (i >= 0) {
    let end = -1
    if (seg[i + 1] === LF) end = i + 2
    else if (seg[i + 1] === CR && seg[i + 2] === LF) end = i + 3
    if (end > 0) {
      fn(start, end)
      start = end
      i = seg.indexOf(LF, end)
    } else i = seg.indexOf(LF, i + 1)
  }
  if (start < seg.length) fn(start, seg.length)
}

/** The data of one event (data: lines joined), and its event name. */
export function eventData(text: string): { event: string; data: string } {
  let event = ''
  let data = ''
  let first = true
  for (const line of text.split('\n')) {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line
    if (l.startsWith('data:')) {
      const v = l.charCodeAt(5) === 32 ? l.slice(6) : l.slice(5)
      data = first ? v : data + '\n' + v
      first = false
    } else if (l.startsWith('event:')) event = l.slice(6).trim()
  }
  return { event, data }
}

/**
 * The JSON object an event [s, e) of seg carries, or null. The common event, one `data:` line of
 * a JSON object (after an `event:` line or not), is read straight from the bytes; anything else
 * goes through eventData.
 */
export function eventJson(seg: Buffer, s: number, e: number): Record<string, any> | null {
  let at = s
  // event: <name>\n first (the Responses and Anthropic streams name their events)
  if (seg[s] === 101 && seg[s + 1] === 118 && seg[s + 2] === 101 && seg[s + 3] === 110 && seg[s + 4] === 116 && seg[s + 5] === 58) {
    const nl = seg.indexOf(LF, s)
    at = nl >= 0 && nl + 1 < e ? nl + 1 : -1
  }
  let from = -1
  let to = e
  if (at >= 0 && seg[at] === 100 && seg[at + 1] === 97 && seg[at + 2] === 116 && seg[at + 3] === 97 && seg[at + 4] === 58) {
    from = seg[at + 5] === 32 ? at + 6 : at + 5
    const nl = seg.indexOf(LF, from)
    if (nl >= 0 && nl < e) {
      to = nl
      // one line only: what follows it is the blank line closing the event
      for (let i = nl; i < e; i++) if (seg[i] !== LF && seg[i] !== CR) from = -1
    }
    if (seg[to - 1] === CR) to--
  }
  let data: string
  if (from >= 0) {
    if (seg[from] !== 123) return null
    data = seg.toString('utf8', from, to)
  } else {
    data = eventData(seg.toString('utf8', s, e)).data
    if (data[0] !== '{') return null
  }
  try {
    return JSON.parse(data) as Record<string, any>
  } catch {
    return null
  }
}

/** Every event's data in a segment, parsed as JSON when it is JSON. */
export function eventsOf(seg: Buffer): Array<{ event: string; data: string; json: unknown }> {
  const out: Array<{ event: string; data: string; json: unknown }> = []
  forEachEvent(seg, (s, e) => {
    const { event, data } = eventData(seg.toString('utf8', s, e))
    if (!data && !event) return
    let json: unknown = undefined
    if (data && data[0] === '{') {
      try {
        json = JSON.parse(data)
      } catch {
        json = undefined
      }
    }
    out.push({ event, data, json })
  })
  return out
}

export function sseData(obj: unknown): string {
  return `data: ${JSON.stringify(obj)}\n\n`
}

/** One chat.completion.chunk event of a stream translated from another format into OpenAI's. */
export function chatChunkEvent(
  head: { id: string; created: number; model: string },
  delta: Record<string, unknown>,
  finish: string | null = null,
): string {
  return sseData({
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
}

export const DONE = 'data: [DONE]\n\n'
