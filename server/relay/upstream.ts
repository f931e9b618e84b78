import { Agent, type Dispatcher } from 'undici'

/** What an adapter asks the upstream. */
export interface UpstreamCall {
  origin: string
  path: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body: Buffer | string | null
}

export type UpstreamResponse = Dispatcher.ResponseData

/**
 * One keep-alive pool per upstream origin (undici Agent). Long header and body timeouts by
 * default (a non-stream completion may think for minutes before its first byte); `timeoutSeconds`
 * (RELAY_TIMEOUT) bounds both the wait for the answer's headers and every pause in its body.
 */
export class Upstream {
  agent: Agent

  constructor(timeoutSeconds = 0) {
    const limit = timeoutSeconds > 0 ? timeoutSeconds * 1000 : 0
    this.agent = new Agent({
      connections: 256,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      headersTimeout: limit || 600_000,
      bodyTimeout: limit || 300_000,
      connect: { timeout: 15_000 },
    })
  }

  request(call: UpstreamCall, signal?: AbortSignal): Promise<UpstreamResponse> {
    return this.agent.request({
      origin: call.origin,
      path: call.path,
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal,
    })
  }

  close(): Promise<void> {
    return this.agent.destroy()
  }
}

const bases = new Map<string, { origin: string; prefix: string }>()

/** Splits a base URL into the origin undici wants and the path prefix to keep (memoised). */
export function splitBase(base: string): { origin: string; prefix: string } {
  let b = bases.get(base)
  if (b) return b
  const u = new URL(base)
  b = { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') }
  if (bases.size > 10_000) bases.clear()
  bases.set(base, b)
  return b
}
