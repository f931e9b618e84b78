import type { ChannelState } from '../state.ts'
import type { UpstreamCall } from '../upstream.ts'
import type { Usage } from '../pricing.ts'

export type Mode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'images'
  | 'moderations'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'messages'
  | 'responses'
  | 'gemini'

/** One client request, as the adapters see it. */
export interface RelayCall {
  mode: Mode
  /** the OpenAI path after /v1, e.g. /chat/completions */
  path: string
  /** the bytes the client sent */
  raw: Buffer
  /** parsed JSON body; null for multipart */
  json: Record<string, any> | null
  contentType: string
  /** the model the client asked for */
  model: string
  stream: boolean
  /** the client asked for stream_options.include_usage */
  wantUsage: boolean
  /** client headers an adapter may pass on (anthropic-version, anthropic-beta) */
  headers?: Record<string, string>
  /** the request of a front door in the internal chat completions shape, once built (doors/index.ts) */
  chat?: RelayCall
  /** the channel the last attempt went to (a Responses answer remembers it for retrieval) */
  channelId?: number
  /** Gemini's streamGenerateContent without alt=sse: the stream is one JSON array (doors/json-array.ts) */
  jsonArray?: boolean
}

/** Turns upstream SSE events into what the client receives (OpenAI chat chunks). */
export interface StreamTranslator {
  /** whole events in, bytes for the client out (null: nothing to send) */
  segment(seg: Buffer): Buffer | string | null
  /** the upstream ended: trailing bytes (a usage chunk when the client asked, [DONE]) */
  end(usage: Usage): string | null
  /** usage the upstream reported, if any */
  usage: Usage | null
  /** text produced so far, to count when the upstream reports no usage */
  produced(): { texts: string[]; extraTokens: number }
  /** the closing error event of a broken upstream in the client's own shape (default: OpenAI's) */
  fail?(message: string): string
  /** the stream's content type when it is not server-sent events */
  contentType?: string
}

export interface Adapter {
  /** shown as owned_by in /v1/models */
  owner: string
  supports(mode: Mode): boolean
  /** whether stream_options.include_usage may be added for this channel type */
  streamUsage: boolean
  build(call: RelayCall, ch: ChannelState, upstreamModel: string, body: () => Buffer): UpstreamCall
  /** a non-stream success body -> client body (OpenAI format) and the usage it reports */
  response(call: RelayCall, body: Buffer, contentType: string): { body: Buffer | string; usage: Usage | null; contentType: string }
  stream(call: RelayCall, hideUsage: boolean): StreamTranslator
  /** its chat stream is OpenAI chat chunks as they come, so a front door may read them itself */
  chatChunks?: boolean
}

export function usageOf(prompt: number, completion: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

export function finishReason(reason: string | null | undefined): string | null {
  switch (reason) {
    case undefined:
    case null:
    case '':
      return null
    case 'end_turn':
    case 'stop_sequence':
    case 'STOP':
    case 'stop':
      return 'stop'
    case 'max_tokens':
    case 'MAX_TOKENS':
    case 'length':
      return 'length'
    case 'tool_use':
    case 'tool_calls':
      return 'tool_calls'
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'refusal':
      return 'content_filter'
    default:
      return 'stop'
  }
}

/** Text of an OpenAI message content (string or parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    let s = ''
    for (const p of content)
      if (p && typeof p === 'object' && (p as { type?: string }).type === 'text') s += String((p as { text?: unknown }).text ?? '')
    return s
  }
  return ''
}
