const loading = new Map<string, Promise<void>>()

/** Loads an outside script (bot check, sign-in widgets) once per page. */
export function loadScript(src: string): Promise<void> {
  let p = loading.get(src)
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const el = document.createElement('script')
      el.src = src
      el.async = true
      el.onload = () => resolve()
      el.onerror = () => {
        loading.delete(src)
        reject(new Error(`could not load ${src}`))
      }
      document.head.append(el)
    })
    loading.set(src, p)
  }
  return p
}
