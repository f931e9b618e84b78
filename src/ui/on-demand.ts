import { useEffect, useState } from 'react'

/**
 * For a Shoelace component a screen shows only on demand (a dialog): its module loads the first
 * time `wanted` is true, so the element's first paint does not carry it. Returns `wanted` once the
 * component is defined and its element has finished a first, closed update: it then opens with its
 * animation and its focus events, as if it had been there all along. Until then the element stays
 * in the tree, undefined and hidden (base.css), with its content.
 *
 * `load` is the component's module import, a function of the calling module (one per component,
 * made once: it is an effect dependency).
 */
export function useOnDemand(tag: string, load: () => Promise<unknown>, wanted: boolean): boolean {
  const [ready, setReady] = useState(() => customElements.get(tag) !== undefined)
  useEffect(() => {
    if (!wanted || ready) return
    let live = true
    load()
      .then(() => customElements.whenDefined(tag))
      // a task later, every element the definition upgraded has run its first update, closed
      .then(() => new Promise((resolve) => setTimeout(resolve)))
      .then(
        () => live && setReady(true),
        // the module did not load (offline): the request stays unanswered until asked again
        () => undefined,
      )
    return () => {
      live = false
    }
  }, [tag, load, wanted, ready])
  return wanted && ready
}
