import type { Context } from 'hono'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { ServerResponse } from 'node:http'
import type { Env } from '../http.ts'
import type { RelayEngine } from './engine.ts'
import { RelayError } from './errors.ts'
import type { InFlight } from './in-flight.ts'
import type { Answer } from './forward.ts'
import { countUsage } from './count.ts'
import type { Mode } from './adapters/index.ts'

/**
 * node-server's "already sent" answer, usable only if it is a plain web Response (it is created
 * when the module loads, before serve() swaps in node-server's own Response class).
 */
export const ALREADY_SENT = Object.getOwnPropertySymbols(RESPONSE_ALREADY_SENT).length === 0 ? RESPONSE_ALREADY_SENT : null

/** The Node response to write to directly when running under @hono/node-server, else undefined. */
export function nodeResponse(c: Context<Env>): ServerResponse | undefined {
  if (!ALREADY_SENT) return undefined
  const env = c.env as { outgoing?: unknown } | undefined
  return env?.outgoing instanceof ServerResponse ? env.outgoing : undefined
}

/** Where a delivery writes: the Node response (if any) and the request id it echoes. */
export interface Outgoing {
  node: ServerResponse | undefined
  requestId: string
}

/** Endpoints whose answers report usage; the others are always counted. */
function reportsUsage(mode: Mode): boolean {
  return (
    mode === 'chat' || mode === 'completions' || mode === 'embeddings' || mode === 'messages' || mode === 'responses' || mode === 'gemini'
  )
}

/**
 * Stage 5 (plain): reads the whole upstream answer, translates it for the client, settles the
 * request (at once with the usage the answer reports, else once it is counted) and then sends
 * the answer: straight onto the socket in one write when it can.
 */
export async function deliver(engine: RelayEngine, flight: InFlight, answer: Answer, out: Outgoing): Promise<Response> {
  const { call } = flight
  let body: Buffer
  let translated: ReturnType<Answer['adapter']['response']>
  try {
    body = Buffer.from(await answer.res.body.arrayBuffer())
    translated = answer.adapter.response(call, body, String(answer.res.headers['content-type'] ?? 'application/json'))
  } catch (err) {
    throw new RelayError(502, `the upstream answer could not be read: ${(err as Error).message}`, 'bad_upstream_response', 'upstream_error')
  }
  // the charge is journalled before the answer is sent: a kill between the two must never leave
  // an answer the client received unbilled (issue 10); without reported usage that waits for the count
  const usage = reportsUsage(call.mode) ? translated.usage : null
  if (usage) flight.settle(usage)
  else await flight.settleCounted(countUsage(engine.tokenizer, call, null, body))
  return respond(out, translated.body, translated.contentType)
}

function respond({ node, requestId }: Outgoing, body: Buffer | string, contentType: string): Response {
  if (node && !node.headersSent && !node.destroyed) {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
    node.writeHead(200, {
      'content-type': contentType,
      'content-length': length,
      'access-control-allow-origin': '*',
      'x-request-id': requestId,
    })
    node.end(body)
    return ALREADY_SENT!
  }
  return new Response(body as unknown as BodyInit, {
    status: 200,
    headers: { 'content-type': contentType, 'access-control-allow-origin': '*' },
  })
}
