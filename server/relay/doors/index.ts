import type { Usage } from '../pricing.ts'
import { errorResponse, type RelayError } from '../errors.ts'
import { eventJson, forEachEvent } from '../sse.ts'
import { collectProduced, normaliseUsage } from '../adapters/openai.ts'
import type { Adapter, Mode, RelayCall, StreamTranslator } from '../adapters/index.ts'
import type { Chat, Door, DoorStream } from './types.ts'
import { messagesDoor } from './messages.ts'
import { responsesDoor } from './responses.ts'
import { geminiDoor } from './gemini.ts'

const DOORS: Partial<Record<Mode, Door>> = { messages: messagesDoor, responses: responsesDoor, gemini: geminiDoor }

/** The front door of a mode other than chat completions, or null. */
export function doorOf(mode: Mode): Door | null {
  return DOORS[mode] ?? null
}

/** Answers a failure in the wire format of the endpoint the client called. */
export function errorFor(mode: Mode, err: RelayError, requestId?: string): Response {
  return (DOORS[mode]?.error ?? errorResponse)(err, requestId)
}

/** The client's request in the internal shape: a chat completions call (built once per request). */
export function chatCallOf(call: RelayCall, door: Door): RelayCall {
  if (call.chat) return call.chat
  const json = door.toChat(call)
  call.chat = {
    mode: 'chat',
    path: '/chat/completions',
    raw: Buffer.from(JSON.stringify(json)),
    json,
    contentType: 'application/json',
    model: call.model,
    stream: call.stream,
    wantUsage: false,
  }
  return call.chat
}

/** The request's json as a chat completions body, for counting tokens (null for non-door modes). */
export function chatJsonOf(call: RelayCall): Chat | null {
  const door = doorOf(call.mode)
  return door ? chatCallOf(call, door).json : null
}

/**
 * A channel's chat adapter seen through a door: the upstream gets the chat request, the client
 * gets the chat answer translated into the door's own answer, events, stop reasons and usage.
 */
export function throughChat(door: Door, inner: Adapter, chat: RelayCall): Adapter {
  return {
    owner: inner.owner,
    // the chat request asks for stream usage as a chat client would; the door reports it its own way
    streamUsage: inner.streamUsage,
    supports: () => true,
    build: (_call, ch, model, body) => inner.build(chat, ch, model, body),
    response(call, body, contentType) {
      const r = inner.response(chat, body, contentType)
      const answer = JSON.parse(typeof r.body === 'string' ? r.body : r.body.toString('utf8')) as Chat
      return { body: JSON.stringify(door.fromChat(answer, call, r.usage)), usage: r.usage, contentType: 'application/json' }
    },
    stream: (call) =>
      inner.chatChunks
        ? new ChatChunkReader(door.stream(call))
        : new DoorTranslator(inner.stream(chat, inner.streamUsage), door.stream(call)),
  }
}

/** One chat chunk's events: the door's answer to each (an error event in the door's shape). */
function translate(door: DoorStream, j: Chat): string {
  return j.error ? door.fail(String(j.error.message ?? 'upstream error'), String(j.error.type ?? 'upstream_error')) : door.chunk(j)
}

/** A stream's close in the door's events: its closing events with the usage, or its error event. */
abstract class DoorEnds {
  protected readonly door: DoorStream

  constructor(door: DoorStream) {
    this.door = door
  }

  end(usage: Usage): string {
    return this.door.end(usage)
  }

  fail(message: string): string {
    return this.door.fail(message, 'upstream_error')
  }
}

/** Streams chat chunks (what the channel's translator produces) on into the door's events. */
class DoorTranslator extends DoorEnds implements StreamTranslator {
  private readonly inner: StreamTranslator

  constructor(inner: StreamTranslator, door: DoorStream) {
    super(door)
    this.inner = inner
  }

  get usage(): Usage | null {
    return this.inner.usage
  }

  segment(seg: Buffer): string | null {
    const chat = this.inner.segment(seg)
    if (!chat) return null
    const buf = typeof chat === 'string' ? Buffer.from(chat) : chat
    let out = ''
    forEachEvent(buf, (s, e) => {
      const j = chunkAt(buf, s, e)
      if (j) out += translate(this.door, j)
    })
    return out || null
  }

  produced() {
    return this.inner.produced()
  }
}

/** The JSON object an event [s, e) of seg carries, or null (see eventJson). */
export function chunkAt(seg: Buffer, s: number, e: number): Chat | null {
  return eventJson(seg, s, e)
}

/**
 * The door's events straight from an OpenAI-format upstream's chat chunks: each event parsed once,
 * for the door, the usage and the text produced (the chat passthrough would parse it again).
 */
class ChatChunkReader extends DoorEnds implements StreamTranslator {
  usage: Usage | null = null
  private texts: string[] = []
  private extra = 0

  segment(seg: Buffer): string | null {
    let out = ''
    forEachEvent(seg, (s, e) => {
      const j = chunkAt(seg, s, e)
      if (!j) return
      if (j.usage) this.usage = normaliseUsage(j.usage) ?? this.usage
      this.extra += collectProduced(j, this.texts)
      out += translate(this.door, j)
    })
    return out || null
  }

  produced() {
    return { texts: this.texts, extraTokens: this.extra }
  }
}
