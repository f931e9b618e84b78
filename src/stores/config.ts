import { map } from 'nanostores'

export interface TollgateConfig {
  /** where the gateway answers; '' means the page's own origin */
  apiBase: string
  /**
   * a system access token (GET /api/user/token) for cross-origin embeds, sent as
   * `Authorization: Bearer …`; kept in memory only
   */
  accessToken?: string
}

export const $config = map<TollgateConfig>({ apiBase: '' })

/** Points every Tollgate element on the page at a gateway, e.g. `configure({ apiBase: 'https://gw.example.com' })`. */
export function configure(options: Partial<TollgateConfig>): void {
  const next = { ...$config.get() }
  if (options.apiBase !== undefined) next.apiBase = options.apiBase.replace(/\/+$/, '')
  if ('accessToken' in options) next.accessToken = options.accessToken || undefined
  $config.set(next)
}

/** True when apiBase names another origin than the page's (the call then needs CORS credentials). */
export function isCrossOrigin(apiBase: string): boolean {
  if (!apiBase) return false
  try {
    return new URL(apiBase, location.href).origin !== location.origin
  } catch {
    return false
  }
}

/** The URL of a console path (such as /token) on the gateway's own origin. */
export function consoleUrl(path: string): string {
  const base = $config.get().apiBase
  if (!isCrossOrigin(base)) return path
  return new URL(path, new URL(base, location.href).origin).href
}
