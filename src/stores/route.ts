import { atom } from 'nanostores'
import { isCrossOrigin } from './config.ts'

export interface Route {
  path: string
  query: URLSearchParams
}

function fromLocation(): Route {
  return { path: location.pathname || '/', query: new URLSearchParams(location.search) }
}

/** The current console path and query. */
export const $route = atom<Route>(fromLocation())

let routers = 0
const onPopState = () => $route.set(fromLocation())

/**
 * Called by the console shell while it is mounted: from then on navigate() changes the page with
 * the History API and back/forward update $route. Returns the detach function.
 */
export function attachRouter(): () => void {
  if (routers++ === 0) {
    addEventListener('popstate', onPopState)
    $route.set(fromLocation())
  }
  let attached = true
  return () => {
    if (!attached) return
    attached = false
    if (--routers === 0) removeEventListener('popstate', onPopState)
  }
}

export function hasRouter(): boolean {
  return routers > 0
}

/**
 * Goes to a console path. With the console shell on the page this is client-side routing; an
 * element used alone on the gateway's own origin (a login box on a page of the gateway) loads the
 * console page there. On another site an element alone never sends the visitor away: the host
 * had its say through tollgate-navigate, and the element stays where it is.
 */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (!hasRouter()) {
    if (!isCrossOrigin()) location.assign(to)
    return
  }
  const url = new URL(to, location.href)
  const next = url.pathname + url.search + url.hash
  if (next !== location.pathname + location.search + location.hash) {
    if (options.replace) history.replaceState(null, '', next)
    else history.pushState(null, '', next)
  }
  $route.set({ path: url.pathname, query: new URLSearchParams(url.search) })
}

/** Re-reads the address bar (for elements used without the shell, whose query may carry ?aff= or ?expired=). */
export function syncRoute(): void {
  $route.set(fromLocation())
}
