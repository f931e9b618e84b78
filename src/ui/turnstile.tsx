import { useEffect, useRef } from 'react'
import { loadScript } from './script.ts'

interface TurnstileApi {
  render(el: HTMLElement, options: Record<string, unknown>): string
  remove(id: string): void
}

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

/**
 * The bot-check widget (Cloudflare Turnstile), rendered explicitly into an element inside the
 * shadow root. Reports the result token ('' when it expires) through onToken.
 */
export function Turnstile({ siteKey, onToken }: { siteKey: string; onToken: (token: string) => void }) {
  const ref = useRef<HTMLDivElement>(null)
  const callback = useRef(onToken)
  callback.current = onToken
  useEffect(() => {
    let id: string | undefined
    let cancelled = false
    // a host page may have loaded the script already
    const ready = (window as unknown as { turnstile?: TurnstileApi }).turnstile ? Promise.resolve() : loadScript(SCRIPT)
    ready
      .then(() => {
        const api = (window as unknown as { turnstile?: TurnstileApi }).turnstile
        if (cancelled || !api || !ref.current) return
        id = api.render(ref.current, {
          sitekey: siteKey,
          callback: (token: string) => callback.current(token),
          'expired-callback': () => callback.current(''),
          'error-callback': () => callback.current(''),
        })
      })
      .catch(() => callback.current(''))
    return () => {
      cancelled = true
      const api = (window as unknown as { turnstile?: TurnstileApi }).turnstile
      if (id && api) api.remove(id)
    }
  }, [siteKey])
  return <div className="tg-turnstile" ref={ref} data-testid="turnstile"></div>
}
