import wretch from 'wretch'
import QueryStringAddon from 'wretch/addons/queryString'
import { computed } from 'nanostores'
import { $config, isCrossOrigin } from '../stores/config.ts'
import { expireSession } from '../stores/session.ts'
import { toast } from '../stores/toasts.ts'
import { emitAppEvent } from '../stores/bus.ts'
import { translate } from '../i18n/t.ts'
import { $prefs } from '../stores/prefs.ts'
import { ApiError } from './errors.ts'
import type { Envelope } from './types.ts'

/** The one HTTP client, rebuilt only when configure() changes the base or the access token. */
const $http = computed($config, (config) => {
  let w = wretch(config.apiBase)
    .addon(QueryStringAddon)
    .options({ credentials: isCrossOrigin(config.apiBase) ? 'include' : 'same-origin' })
    .accept('application/json')
  // a header no link or form can send: the server's CSRF check for cookie sessions reads it
  if (!isCrossOrigin(config.apiBase)) w = w.headers({ 'X-Tollgate-Client': '1' })
  if (config.accessToken) w = w.auth(`Bearer ${config.accessToken}`)
  return w
})

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

/**
 * Calls the console API and returns the whole envelope on success. Every failure is handled here
 * once (spec section 8): 401 expires the session (clears the stored user, the element layer then
 * sends the user to /login with the expiry marker); 429, 500, 405 and other HTTP failures show
 * their message as an error toast; `success: false` shows the server's message. It then throws
 * an ApiError so the caller stops.
 */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  // the server answers in the language the console shows (DESIGN §3)
  let w = $http
    .get()
    .url(path)
    .headers({ 'Accept-Language': $prefs.get().locale === 'zh' ? 'zh-CN' : 'en' })
  if (options.query) w = w.query(cleanQuery(options.query))
  if (options.body !== undefined) w = w.json(options.body as object)
  let envelope: Partial<Envelope<T>> | null
  try {
    envelope = parseBody(await w.fetch(method).text()) as Partial<Envelope<T>> | null
  } catch (e) {
    const status = typeof (e as { status?: unknown }).status === 'number' ? (e as { status: number }).status : 0
    const body = parseBody(String((e as Error).message ?? ''))
    const serverMessage = body?.message || (status ? `HTTP ${status}` : String((e as Error).message || e))
    if (status === 401) {
      expireSession()
      throw new ApiError(401, serverMessage)
    }
    const message = httpFailureMessage(status, serverMessage)
    if (!options.quiet) toast.error(message)
    emitAppEvent('error', { status, message })
    throw new ApiError(status, message, body?.data ?? null)
  }
  if (!envelope || typeof envelope.success !== 'boolean') {
    const message = translate('error.other', { message: translate('error.badResponse') })
    if (!options.quiet) toast.error(message)
    emitAppEvent('error', { status: 200, message })
    throw new ApiError(200, message)
  }
  if (!envelope.success) {
    const message = envelope.message || translate('error.requestFailed')
    if (!options.quiet) toast.error(message)
    emitAppEvent('error', { status: 200, message })
    throw new ApiError(200, message, envelope.data ?? null)
  }
  return envelope as Envelope<T>
}

export const get = <T>(path: string, query?: Query, options: Omit<CallOptions, 'query' | 'body'> = {}) =>
  call<T>('GET', path, { ...options, query })
export const post = <T>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, { body: body ?? {}, query })
export const put = <T>(path: string, body?: unknown, query?: Query) => call<T>('PUT', path, { body: body ?? {}, query })
export const del = <T>(path: string, query?: Query) => call<T>('DELETE', path, { query })
