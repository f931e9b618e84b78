/**
 * What happens to the whole page (not to one screen): the session expired, an error reached the
 * user. The element layer turns these into DOM events; src/ only sees plain callbacks.
 */
interface AppEvents {
  'session-expired': { redirect: string }
  /** a request failed and the user was told so; `host` is the element that made it, when known */
  error: RequestFailure & { host?: HTMLElement }
  /** the user signed out (an element, signOut(), or an expired session) */
  logout: Record<string, never>
}

/**
 * How a request failed: `refused` is the server's own `success: false` answer (HTTP 200), `http`
 * an HTTP error status, `network` no answer at all (status 0), `invalid` an answer that is not
 * the API's envelope.
 */
export interface RequestFailure {
  status: number
  kind: 'refused' | 'http' | 'network' | 'invalid'
  message: string
}

type Listener<K extends keyof AppEvents> = (detail: AppEvents[K]) => void

const listeners: { [K in keyof AppEvents]?: Set<Listener<K>> } = {}

export function onAppEvent<K extends keyof AppEvents>(type: K, listener: Listener<K>): () => void {
  const set = ((listeners as Record<string, Set<unknown>>)[type] ??= new Set()) as Set<Listener<K>>
  set.add(listener)
  return () => set.delete(listener)
}

export function emitAppEvent<K extends keyof AppEvents>(type: K, detail: AppEvents[K]): void {
  for (const listener of [...((listeners[type] as Set<Listener<K>> | undefined) ?? [])]) listener(detail)
}

let actor: HTMLElement | undefined
let clearing: ReturnType<typeof setTimeout> | undefined

/**
 * The element whose code is running now (set by the element layer while it handles the visitor's
 * input or mounts its screen), so a request knows which element to report a failure from. It
 * holds until the end of the current task.
 */
export function setActor(host: HTMLElement): void {
  actor = host
  clearTimeout(clearing)
  clearing = setTimeout(() => (actor = undefined))
}

export function currentActor(): HTMLElement | undefined {
  return actor
}
