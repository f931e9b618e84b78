import { map } from 'nanostores'

export interface TollgateConfig {
  /** where the gateway answers; '' means the page's own origin */
  apiBase: string
}

/**
 * The origin the library itself was loaded from: the classic build's `<script src>` while it runs,
 * the module's own URL otherwise. A page that loads `https://gateway/lib/tollgate.js` talks to
 * `https://gateway` without any configure() call.
 */
function scriptOrigin(): string {
  const current = typeof document === 'undefined' ? null : document.currentScript
  const src = current instanceof HTMLScriptElement && current.src ? current.src : import.meta.url
  try {
    const origin = new URL(src).origin
    return origin === 'null' || origin === location.origin ? '' : origin
  } catch {
    return ''
  }
}

export const $config = map<TollgateConfig>({ apiBase: scriptOrigin() })

/** Points every Tollgate element on the page at a gateway, e.g. `configure({ apiBase: 'https://gw.example.com' })`. */
export function configure(options: Partial<TollgateConfig>): void {
  if (options.apiBase === undefined) return
  const apiBase = options.apiBase.replace(/\/+$/, '')
  if (apiBase !== $config.get().apiBase) $config.set({ ...$config.get(), apiBase })
}

/** The gateway's origin (the page's own when apiBase is ''). */
export function gatewayOrigin(apiBase = $config.get().apiBase): string {
  try {
    return new URL(apiBase || location.href, location.href).origin
  } catch {
    return location.origin
  }
}

/** True when apiBase names another origin than the page's (the elements then run in embed mode). */
export function isCrossOrigin(apiBase = $config.get().apiBase): boolean {
  return gatewayOrigin(apiBase) !== location.origin
}

/** The URL of a console path (such as /token) on the gateway's own origin. */
export function consoleUrl(path: string): string {
  const base = $config.get().apiBase
  if (!isCrossOrigin(base)) return path
  return new URL(path, gatewayOrigin(base)).href
}

/** True once the document is parsed and its deferred and module scripts have run (DOMContentLoaded has fired). */
function documentSettled(): boolean {
  if (document.readyState === 'complete') return true
  const navigation = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined
  return navigation ? navigation.domContentLoadedEventStart > 0 : document.readyState !== 'loading'
}

let settled: Promise<void> | null = null

/**
 * Resolves when the configuration can no longer change under a first request: after every module
 * script of the page has run (their configure() calls included: module and deferred scripts all
 * run before DOMContentLoaded), and at least one microtask after the caller (so a configure() on
 * the line after an import counts). The API client awaits it before every request.
 */
export function configSettled(): Promise<void> {
  return (settled ??= new Promise<void>((resolve) => {
    if (documentSettled()) queueMicrotask(resolve)
    else document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })
  }))
}
