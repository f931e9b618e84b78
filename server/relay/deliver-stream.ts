import type { ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { RelayEngine } from './engine.ts'
import type { Usage } from './pricing.ts'
import type { Tokenizer } from './tokenizer.ts'
import type { InFlight } from './in-flight.ts'
import type { Answer } from './forward.ts'
import { ALREADY_SENT, type Outgoing } from './deliver.ts'
import { countUsage } from './count.ts'
import { SseFramer } from './sse.ts'
import type { StreamTranslator } from './adapters/index.ts'
import { usageOf } from './adapters/types.ts'
import { JsonArrayStream } from './doors/json-array.ts'

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'access-control-allow-origin': '*',
}

/** Where the client's bytes go: the Node response, or a web ReadableStream's controller. */
interface Sink {
  write(b: Buffer | string): void
  end(b: Buffer | string | null): void
}

function errorEvent(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: 'upstream_error', param: '', code: 'stream_interrupted' } })}\n\n`
}

/**
 * Stage 5 (streamed): passes the upstream's events to the client as they arrive, straight onto the
 * Node response when running under @hono/node-server (headers go out with the first bytes), else
 * as a web ReadableStream. Settles once, when the upstream ends or breaks off or the client leaves.
 */
export function deliverStream(engine: RelayEngine, flight: InFlight, answer: Answer, out: Outgoing): Response {
  const pump = new StreamPump(engine.tokenizer, flight, answer)
  const node = out.node
  if (node && !node.headersSent && !node.destroyed) return toNode(pump, node, out.requestId)
  return toWeb(pump)
}

function headersOf(pump: StreamPump): Record<string, string> {
  const type = pump.translator.contentType
  return type ? { ...STREAM_HEADERS, 'content-type': type } : STREAM_HEADERS
}

function toNode(pump: StreamPump, node: ServerResponse, requestId: string): Response {
  const { body } = pump
  node.writeHead(200, { ...headersOf(pump), 'x-request-id': requestId })
  pump.sink = {
    write(b) {
      if (!node.write(b)) body.pause()
    },
    end(b) {
      if (b) node.end(b)
      else node.end()
    },
  }
  node.on('drain', () => body.resume())
  node.once('close', () => {
    if (!node.writableFinished) pump.gone()
  })
  pump.listen()
  return ALREADY_SENT!
}

function toWeb(pump: StreamPump): Response {
  const { body } = pump
  let controller!: ReadableStreamDefaultController<Uint8Array>
  pump.sink = {
    write(b) {
      controller.enqueue(typeof b === 'string' ? Buffer.from(b) : b)
      if ((controller.desiredSize ?? 1) <= 0) body.pause()
    },
    end(b) {
      if (b) controller.enqueue(typeof b === 'string' ? Buffer.from(b) : b)
      controller.close()
    },
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
        pump.listen()
      },
      pull() {
        if (body.isPaused()) body.resume()
      },
      cancel: () => pump.gone(),
    },
    { highWaterMark: 64 },
  )
  return new Response(stream, { status: 200, headers: headersOf(pump) })
}

/**
 * One streamed answer: upstream chunks in, whole events translated out to the sink, and one end
 * (the upstream's end, its break, or the client leaving) that closes the client stream and
 * settles the flight. The per-chunk path is onData -> drain -> send -> sink.write: no awaits, no
 * closures. The chunks that arrive in one tick are read as one: the upstream's HTTP parser hands
 * over each chunk of its chunked encoding (one event apiece, often the whole answer in one read),
 * and each would otherwise be framed, translated and written to the client (a chunk of our own
 * chunked encoding) on its own.
 */
class StreamPump {
  sink!: Sink
  /** the upstream's answer */
  readonly body: Readable
  private readonly framer = new SseFramer()
  private readonly tokenizer: Tokenizer
  private readonly flight: InFlight
  readonly translator: StreamTranslator
  /** milliseconds from the request to the first bytes sent */
  private frt: number | undefined
  private done = false
  private clientGone = false
  private closed = false
  /** the chunks of this tick, read by drain */
  private inbox: Buffer[] = []

  constructor(tokenizer: Tokenizer, flight: InFlight, answer: Answer) {
    this.tokenizer = tokenizer
    this.flight = flight
    this.body = answer.res.body as unknown as Readable
    // the usage chunk we asked for (stream_options.include_usage) is hidden from a client that did not
    const translator = answer.adapter.stream(flight.call, answer.adapter.streamUsage && !flight.call.wantUsage)
    this.translator = flight.call.jsonArray ? new JsonArrayStream(translator) : translator
  }

  listen(): void {
    this.body.on('data', this.onData)
    this.body.once('end', () => this.finish(null))
    this.body.once('error', (err: Error) => this.finish(this.clientGone ? null : err))
  }

  /** The client went away before the end: stop reading the upstream (which aborts it) and settle. */
  gone(): void {
    if (this.clientGone || this.done) return
    this.clientGone = true
    this.body.destroy()
    this.finish(null)
  }

  private onData = (chunk: Buffer): void => {
    if (this.inbox.push(chunk) === 1) process.nextTick(this.drain)
  }

  /** The chunks that came since the last drain, as one, to the translator and the client. */
  private drain = (): void => {
    const chunks = this.inbox
    if (chunks.length === 0) return
    this.inbox = []
    const seg = this.framer.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    if (seg) this.send(this.translator.segment(seg))
  }

  private send(out: Buffer | string | null): void {
    if (!out || this.clientGone) return
    if (this.frt === undefined) this.frt = Math.round(performance.now() - this.flight.t0)
    this.sink.write(out)
  }

  /** The one end, whatever goes wrong in it: the flight is released if nothing was settled. */
  private finish(failed: Error | null): void {
    if (this.done) return
    this.done = true
    try {
      this.body.off('data', this.onData)
      this.drain()
      const rest = this.framer.rest()
      if (rest && !this.clientGone) this.send(this.translator.segment(rest))
      this.closeAndSettle(failed)
    } catch (err) {
      console.error('relay: ending a stream failed:', err)
    } finally {
      this.flight.release()
    }
  }

  /**
   * Closes the client stream (with the usage chunk if the client asked for it, counted when the
   * upstream reported none) and settles what was produced.
   */
  private closeAndSettle(failed: Error | null): void {
    const note = { frt: this.frt, note: this.clientGone ? 'the client disconnected' : failed ? 'the upstream stream broke off' : undefined }
    // the charge is journalled before the client's stream ends: a kill between the two must never
    // leave an answer the client saw complete unbilled (issue 10)
    const usage = this.translator.usage
    if (usage) {
      this.flight.settle(usage, note)
      this.close(usage, failed)
      return
    }
    const produced = this.translator.produced()
    if (failed && produced.extraTokens === 0 && produced.texts.every((t) => !t)) {
      // the upstream broke off before any content: a failed call, not charged
      this.close(usageOf(0, 0), failed)
      this.flight.release()
      return
    }
    const counting = countUsage(this.tokenizer, this.flight.call, produced, null).catch(() => usageOf(0, 0))
    void this.flight
      .settleCounted(counting, note)
      .then(() => counting)
      .then((u) => this.close(this.flight.call.wantUsage ? u : usageOf(0, 0), failed))
  }

  /** Ends the client stream once: the translator's trailer, or the error event of a broken upstream. */
  private close(usage: Usage, failed: Error | null): void {
    if (this.closed || this.clientGone) return
    this.closed = true
    try {
      // a broken upstream ends the stream as OpenAI does: an error event the SDKs raise
      const broke = failed && `the upstream stream broke off: ${failed.message}`
      this.sink.end(broke ? (this.translator.fail?.(broke) ?? errorEvent(broke)) : this.translator.end(usage))
    } catch {
      /* the client is gone */
    }
  }
}
