/**
 * What happens to the whole page (not to one screen): the session expired, an error reached the
 * user. The element layer turns these into DOM events; src/ only sees plain callbacks.
 */
export interface AppEvents {
  'session-expired': { redirect: string }
  error: { status: number; message: string }
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
