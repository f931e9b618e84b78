import { $config, configSettled, isCrossOrigin } from '../stores/config.ts'
import { embedCredential, expireSession, reconcileSession } from '../stores/session.ts'
import { toast } from '../stores/toasts.ts'
import { currentActor, emitAppEvent, type RequestFailure } from '../stores/bus.ts'
import { translate, wordsReady } from '../i18n/t.ts'
import { $prefs } from '../stores/prefs.ts'
import { ApiError } from './errors.ts'
import type { Envelope } from './types.ts'

/** An exchange the server answered with a status other than 2xx: the status and the body's text. */
interface HttpFailure extends Error {
  status: number
  response: Response
}

/**
 * One exchange with the gateway, on the page's fetch (a few lines instead of a client library).
 * Same origin as the gateway: the session cookie (cookie mode) and a header no link or form can
 * send, which the server's CSRF check reads. Another origin (embed mode): never cookies; the embed
 * credential instead. Every call says the caller's language (DESIGN §3) and takes JSON. A body is
 * sent as JSON; the query joins the path's own. A status other than 2xx throws an error with that
 * status and the body's text as its message; a network failure throws fetch's own error.
 */
async function send(method: string, path: string, query?: Query, body?: unknown): Promise<Response> {
  const cross = isCrossOrigin()
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (!cross) headers['X-Tollgate-Client'] = '1'
  headers['Accept-Language'] = $prefs.get().locale === 'zh' ? 'zh-CN' : 'en'
  const credential = cross ? embedCredential() : null
  if (credential) headers['Authorization'] = `Bearer ${credential.token}`
  const init: RequestInit = { headers, credentials: cross ? 'omit' : 'same-origin', method }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  let url = $config.get().apiBase + path
  const search = query ? new URLSearchParams(cleanQuery(query)).toString() : ''
  if (search) url += (url.includes('?') ? '&' : '?') + search
  const res = await fetch(url, init)
  if (!res.ok) {
    let message = res.statusText
    if (res.type !== 'opaque')
      message = await res
        .clone()
        .text()
        .catch(() => res.statusText)
    throw Object.assign(new Error(message), { status: res.status, response: res }) as HttpFailure
  }
  return res
}

let reconciled = false

export type Query = Record<string, string | number | boolean | undefined | null>

export interface CallOptions {
  query?: Query
  body?: unknown
  /**
   * Leave the toast to the caller: for background loads that show their own message
   * (the status load shows 'cannot connect to the server normally').
   */
  quiet?: boolean
}

function cleanQuery(query: Query): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) out[k] = String(v)
  return out
}

/** Spec section 8: the one place that turns a failed HTTP exchange into what the user reads. */
function httpFailureMessage(status: number, serverMessage: string): string {
  switch (status) {
    case 429:
      return translate('error.tooManyRequests')
    case 500:
      return translate('error.serverInternal')
    case 405:
      return translate('error.demoSite')
    default:
      return translate('error.other', { message: serverMessage })
  }
}

function parseBody(text: string): Partial<Envelope<unknown>> | null {
  try {
    const parsed = JSON.parse(text)
    return parsed && typeof parsed === 'object' ? parsed : null
  } catch {
    return null
  }
}

/** Tells the user (unless quiet) and the page (tollgate-error from the element that asked), then stops the caller. */
function fail(failure: RequestFailure, options: CallOptions, host: HTMLElement | undefined, data: unknown = null): never {
  if (!options.quiet) toast.error(failure.message)
  emitAppEvent('error', { ...failure, host })
  throw new ApiError(failure.status, failure.message, data)
}

/** An exchange that failed (send throws with the HTTP status): 401 expires the session; anything else is told. */
function failExchange(e: unknown, options: CallOptions, host: HTMLElement | undefined): never {
  const status = typeof (e as { status?: unknown }).status === 'number' ? (e as { status: number }).status : 0
  const body = parseBody(String((e as Error).message ?? ''))
  const serverMessage = body?.message || (status ? `HTTP ${status}` : String((e as Error).message || e))
  if (status === 401) {
    expireSession()
    throw new ApiError(401, serverMessage)
  }
  fail({ status, kind: status ? 'http' : 'network', message: httpFailureMessage(status, serverMessage) }, options, host, body?.data ?? null)
}

/**
 * Calls the console API and returns the whole envelope on success. Every failure is handled here
 * once (spec section 8): 401 expires the session (clears the stored user and credential, the
 * element layer then tells the page); 429, 500, 405 and other HTTP failures show their message as
 * an error toast; `success: false` shows the server's message. It then throws an ApiError so the
 * caller stops. No request leaves before the page's configuration has settled (configSettled).
 */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  const host = currentActor()
  await configSettled()
  if (!reconciled) {
    reconciled = true
    reconcileSession()
  }
  let envelope: Partial<Envelope<T>> | null
  try {
    envelope = parseBody(await (await send(method, path, options.query, options.body)).text()) as Partial<Envelope<T>> | null
  } catch (e) {
    await wordsReady()
    failExchange(e, options, host)
  }
  if (!envelope || typeof envelope.success !== 'boolean') {
    await wordsReady()
    fail({ status: 200, kind: 'invalid', message: translate('error.other', { message: translate('error.badResponse') }) }, options, host)
  }
  if (!envelope.success) {
    await wordsReady()
    fail(
      { status: 200, kind: 'refused', message: envelope.message || translate('error.requestFailed') },
      options,
      host,
      envelope.data ?? null,
    )
  }
  return envelope as Envelope<T>
}

/**
 * A file the server streams (the log export): read chunk by chunk, `onProgress` told the bytes
 * received so far, then the file and the name the server gave it. Failures as for `call`.
 */
export async function download(
  path: string,
  query: Query,
  onProgress: (bytes: number) => void,
): Promise<{ blob: Blob; name: string; bytes: number }> {
  const host = currentActor()
  await configSettled()
  let res: Response
  try {
    res = await send('GET', path, query)
  } catch (e) {
    await wordsReady()
    failExchange(e, {}, host)
  }
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let bytes = 0
  const reader = res.body!.getReader()
  for (let c = await reader.read(); !c.done; c = await reader.read()) {
    chunks.push(c.value)
    bytes += c.value.length
    onProgress(bytes)
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv'
  return { blob: new Blob(chunks, { type: res.headers.get('content-type') ?? 'application/octet-stream' }), name, bytes }
}

export const get = <T>(path: string, query?: Query, options: Omit<CallOptions, 'query' | 'body'> = {}) =>
  call<T>('GET', path, { ...options, query })
export const post = <T>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, { body: body ?? {}, query })
export const put = <T>(path: string, body?: unknown, query?: Query) => call<T>('PUT', path, { body: body ?? {}, query })
export const del = <T>(path: string, query?: Query) => call<T>('DELETE', path, { query })
