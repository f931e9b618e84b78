import { reason, REASON_MAX, type ReasonParam } from '../lib/status-reason.ts'

/** Errors of the relay, answered in OpenAI's own shape: `{error: {message, type, param, code}}`. */
export class RelayError extends Error {
  status: number
  type: string
  code: string | number | null
  constructor(status: number, message: string, code: string | number | null = null, type = 'tollgate_error') {
    super(message)
    this.status = status
    this.code = code
    this.type = type
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', 'access-control-allow-origin': '*' }

export function errorBody(message: string, type: string, code: string | number | null): string {
  return JSON.stringify({ error: { message, type, param: '', code } })
}

export function errorResponse(err: RelayError, requestId?: string): Response {
  const message = requestId ? `${err.message} (request id: ${requestId})` : err.message
  return new Response(errorBody(message, err.type, err.code), { status: err.status, headers: JSON_HEADERS })
}

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
}

/** The same error in Anthropic's shape, for clients of /v1/messages. */
export function anthropicErrorResponse(err: RelayError, requestId?: string): Response {
  const message = requestId ? `${err.message} (request id: ${requestId})` : err.message
  const known = new Set(Object.values(ANTHROPIC_TYPES).concat('api_error'))
  const type = known.has(err.type) ? err.type : (ANTHROPIC_TYPES[err.status] ?? 'api_error')
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), { status: err.status, headers: JSON_HEADERS })
}

/** What an upstream said when it failed, reduced to OpenAI's fields. */
export interface UpstreamError {
  status: number
  message: string
  type: string
  code: string | number | null
}

/** Reads an upstream error body in any of the wire formats we speak (OpenAI, Anthropic, Gemini). */
export function parseUpstreamError(status: number, raw: string): UpstreamError {
  let message = ''
  let type = 'upstream_error'
  let code: string | number | null = null
  try {
    const j = JSON.parse(raw) as Record<string, unknown>
    const e = (j.error ?? j) as Record<string, unknown> | string
    if (typeof e === 'string') message = e
    else if (e && typeof e === 'object') {
      if (typeof e.message === 'string') message = e.message
      if (typeof e.type === 'string') type = e.type
      else if (typeof e.status === 'string') type = e.status
      if (typeof e.code === 'string' || typeof e.code === 'number') code = e.code
      if (!message && typeof (j as { message?: unknown }).message === 'string') message = (j as { message: string }).message
    }
  } catch {
    message = raw.trim().slice(0, 500)
  }
  if (!message) message = silentMessage(status)
  return { status, message, type, code }
}

/** The message of an upstream failure that said nothing but its status. */
const silentMessage = (status: number) => `upstream answered with status code ${status}`

/** What the upstream said, as a reason parameter: its own text as it came, or ours when it said nothing. */
export function upstreamSaid(err: UpstreamError): ReasonParam {
  if (err.message === silentMessage(err.status)) return reason('upstream.silent', { status: err.status })
  return err.message.slice(0, REASON_MAX)
}
