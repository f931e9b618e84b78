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

export const DONE = 'data: [DONE]\n\n'
