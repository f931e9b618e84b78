import wretch from 'wretch'
import QueryStringAddon from 'wretch/addons/queryString'
import { computed } from 'nanostores'
import { $config, configSettled, isCrossOrigin } from '../stores/config.ts'
import { embedCredential, expireSession, reconcileSession } from '../stores/session.ts'
import { toast } from '../stores/toasts.ts'
import { currentActor, emitAppEvent, type RequestFailure } from '../stores/bus.ts'
import { translate, wordsReady } from '../i18n/t.ts'
import { $prefs } from '../stores/prefs.ts'
import { ApiError } from './errors.ts'
import type { Envelope } from './types.ts'

/**
 * The one HTTP client, rebuilt only when configure() changes the base. Same origin as the gateway:
 * the session cookie (cookie mode) and a header no link or form can send, which the server's CSRF
 * check reads. Another origin (embed mode): never cookies; the embed credential is added per call.
 */
const $http = computed($config, (config) => {
  const w = wretch(config.apiBase).addon(QueryStringAddon).accept('application/json')
  if (isCrossOrigin(config.apiBase)) return w.options({ credentials: 'omit' })
  return w.options({ credentials: 'same-origin' }).headers({ 'X-Tollgate-Client': '1' })
})

/** The request for one call: the caller's language (DESIGN §3) and, in embed mode, the credential. */
function request(path: string) {
  let w = $http
    .get()
    .url(path)
    .headers({ 'Accept-Language': $prefs.get().locale === 'zh' ? 'zh-CN' : 'en' })
  const credential = isCrossOrigin() ? embedCredential() : null
  if (credential) w = w.auth(`Bearer ${credential.token}`)
  return w
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

/** An exchange that failed (wretch throws with the HTTP status): 401 expires the session; anything else is told. */
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
  let w = request(path)
  if (options.query) w = w.query(cleanQuery(options.query))
  if (options.body !== undefined) w = w.json(options.body as object)
  let envelope: Partial<Envelope<T>> | null
  try {
    envelope = parseBody(await w.fetch(method).text()) as Partial<Envelope<T>> | null
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
    res = await request(path).query(cleanQuery(query)).get().res()
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
