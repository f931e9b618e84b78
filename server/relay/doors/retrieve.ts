import type { Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import { authenticate } from '../authenticate.ts'
import { RelayError, errorResponse, parseUpstreamError } from '../errors.ts'
import { readLimited } from '../forward.ts'
import { splitBase } from '../upstream.ts'
import { OPENAI_COMPATIBLE } from '../adapters/openai.ts'
import { channelOfResponse } from '../adapters/native.ts'

/**
 * GET /v1/responses/{id}: a response kept by the channel that created it (an OpenAI channel the
 * Responses door passed through to), fetched from that channel. Responses translated from chat
 * completions are kept nowhere, so they are not found.
 */
export async function retrieveResponse(engine: RelayEngine, c: Context<Env>): Promise<Response> {
  try {
    await authenticate(engine, c)
    const id = c.req.param('id') ?? ''
    const ch = engine.state.channels.get(channelOfResponse(id) ?? 0)
    const spec = ch && OPENAI_COMPATIBLE[ch.type]
    if (!ch || !spec?.responses)
      throw new RelayError(404, `No response found with id '${id}'.`, 'response_not_found', 'invalid_request_error')
    const { origin, prefix } = splitBase(ch.baseUrl || spec.base)
    const res = await engine.upstream.request(
      {
        origin,
        path: `${prefix}${spec.prefix}/responses/${encodeURIComponent(id)}`,
        method: 'GET',
        headers: { authorization: `Bearer ${ch.key}` },
        body: null,
      },
      c.req.raw.signal,
    )
    const body = await readLimited(res.body, 32 * 1024 * 1024)
    if (res.statusCode >= 300) {
      const e = parseUpstreamError(res.statusCode, body)
      throw new RelayError(res.statusCode, e.message, e.code, e.type)
    }
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' } })
  } catch (err) {
    if (err instanceof RelayError) return errorResponse(err, c.get('requestId'))
    console.error(`[${c.get('requestId')}] retrieving a response failed:`, err)
    return errorResponse(
      new RelayError(502, 'the upstream could not be reached', 'upstream_unreachable', 'upstream_error'),
      c.get('requestId'),
    )
  }
}
