import { randomFillSync } from 'node:crypto'
import type { Usage } from '../pricing.ts'
import type { RelayError } from '../errors.ts'
import type { RelayCall } from '../adapters/index.ts'

/** A chat completions request or answer (the internal shape every door translates to and from). */
export type Chat = Record<string, any>

/** One streamed answer translated from chat chunks into a door's own events. */
export interface DoorStream {
  /** one parsed chat.completion.chunk in, the door's events out ('' for none) */
  chunk(c: Chat): string
  /** the upstream ended: the door's closing events, with the final usage */
  end(usage: Usage): string
  /** an error event in the door's own shape */
  fail(message: string, type: string): string
}

/**
 * A front door: a client protocol the relay accepts (DESIGN section 6). A door reaches a channel
 * that speaks its protocol untouched (the channel's adapter supports the door's mode) and every
 * other channel through the chat completions shape.
 */
export interface Door {
  /** the client's request as a chat completions request */
  toChat(call: RelayCall): Chat
  /** a chat.completion answer as the door's answer */
  fromChat(chat: Chat, call: RelayCall, usage: Usage | null): Record<string, unknown>
  stream(call: RelayCall): DoorStream
  /** a refusal in the door's own error shape */
  error(err: RelayError, requestId?: string): Response
}

/** Text of a chat message content (string or parts), '' for none. */
export function chatText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  let s = ''
  for (const p of content) if (p && typeof p === 'object' && typeof p.text === 'string') s += p.text
  return s
}

/** Arguments of a tool call as an object (a malformed JSON string becomes {}). */
export function argsObject(s: unknown): Record<string, unknown> {
  if (s && typeof s === 'object') return s as Record<string, unknown>
  if (typeof s !== 'string' || !s.trim()) return {}
  try {
    const v = JSON.parse(s) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** random bytes for ids, drawn 16 at a time and refilled when used up (one call to the CSPRNG per 256 ids) */
const pool = Buffer.alloc(4096)
let poolAt = pool.length

/** A random id with a prefix and 32 hex digits, e.g. resp_3f2a... */
export function newId(prefix: string): string {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool)
    poolAt = 0
  }
  poolAt += 16
  return prefix + pool.toString('hex', poolAt - 16, poolAt)
}
