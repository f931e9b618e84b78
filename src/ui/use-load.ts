import { useEffect, useRef, useState } from 'react'
import type { Load } from './load-state.tsx'

/**
 * What `ask` answers, as a load state: asked when the component mounts, again when `key` changes
 * (loading meanwhile) and on retry; an answer that comes after the key moved on or the component
 * went is dropped. With `ask` null there is nothing to ask: the state stays as it is (`initial`).
 */
export function useLoad<T>(
  ask: (() => Promise<T>) | null,
  key: unknown,
  initial: Load<T> = { state: 'loading' },
): { load: Load<T>; retry: () => void } {
  const [load, setLoad] = useState<Load<T>>(initial)
  const [attempt, setAttempt] = useState(0)
  const latest = useRef(ask)
  latest.current = ask
  const asking = ask !== null
  useEffect(() => {
    if (!latest.current) return
    let live = true
    setLoad({ state: 'loading' })
    latest.current().then(
      (data) => live && setLoad({ state: 'ready', data }),
      (error: Error) => live && setLoad({ state: 'error', error }),
    )
    return () => {
      live = false
    }
  }, [key, asking, attempt])
  return { load, retry: () => setAttempt((n) => n + 1) }
}
