import type { Usage } from '../pricing.ts'
import type { StreamTranslator } from '../adapters/index.ts'
import { eventData, forEachEvent } from '../sse.ts'

/**
 * Gemini's streamGenerateContent without alt=sse: Google answers one JSON array of
 * GenerateContentResponse objects, sent element by element as they are produced
 * (`[{...}`, then `,\r\n{...}` per chunk, then `]`). The upstream is always asked for SSE; this
 * turns the events the Gemini door would send (translated or passed through) into that array.
 */
export class JsonArrayStream implements StreamTranslator {
  readonly contentType = 'application/json; charset=utf-8'
  private readonly inner: StreamTranslator
  private opened = false

  constructor(inner: StreamTranslator) {
    this.inner = inner
  }

  get usage(): Usage | null {
    return this.inner.usage
  }

  /** The JSON data of each event in `out`, as the array's next elements. */
  private elements(out: Buffer | string | null): string {
    if (!out) return ''
    const buf = typeof out === 'string' ? Buffer.from(out) : out
    let s = ''
    forEachEvent(buf, (a, b) => {
      const { data } = eventData(buf.toString('utf8', a, b))
      if (data[0] !== '{' && data[0] !== '[') return
      s += (this.opened ? ',\r\n' : '[') + data
      this.opened = true
    })
    return s
  }

  segment(seg: Buffer): string | null {
    return this.elements(this.inner.segment(seg)) || null
  }

  /** the last elements and the closing bracket ('[]' for an answer without any) */
  private close(rest: string): string {
    return (this.opened ? rest : '[') + ']'
  }

  end(usage: Usage): string {
    return this.close(this.elements(this.inner.end(usage)))
  }

  fail(message: string): string {
    return this.close(this.elements(this.inner.fail?.(message) ?? null))
  }

  produced() {
    return this.inner.produced()
  }
}
