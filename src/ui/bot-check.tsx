import { lazy, Suspense } from 'react'

const Widget = lazy(async () => ({ default: (await import('./turnstile.tsx')).Turnstile }))

/**
 * The bot-check widget (src/ui/turnstile.tsx), whose module loads the first time a screen shows
 * it: only when the site's status turns the check on, so a first paint without it does not carry it.
 */
export function Turnstile(props: { siteKey: string; onToken: (token: string) => void }) {
  return (
    <Suspense fallback={null}>
      <Widget {...props} />
    </Suspense>
  )
}
