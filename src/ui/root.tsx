import { useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { $prefs, type Locale } from '../stores/prefs.ts'
import { languageTag, LocaleOverride, useLocale, useLocaleReady } from '../i18n/t.ts'
import { $darkTheme } from './dark-theme.ts'
import { NavigateContext, type Navigate } from './navigation.tsx'
import { ToastRegion } from './toast-region.tsx'

interface RootProps {
  children?: ReactNode
  /** forces the locale (an element's lang attribute); null follows the user's choice */
  locale?: Locale | null
  navigate?: Navigate
  /** the console's region wins over the others when several elements share a page */
  toastPriority?: number
  className?: string
}

function Frame({ children, className, toastPriority }: Omit<RootProps, 'locale' | 'navigate'>) {
  const { theme: wanted } = useStore($prefs, { keys: ['theme'] })
  const dark = useStore($darkTheme)
  // dark once its tokens are here (a lazy chunk): a switch stays light until then
  const theme = wanted === 'dark' && dark === 'ready' ? 'dark' : 'light'
  const locale = useLocale()
  // the first paint waits for its language's words and, on a dark page, the dark tokens (lazy
  // chunks); later switches keep the screen
  const ready = useLocaleReady() && (wanted !== 'dark' || dark === 'ready' || dark === 'failed')
  const [started, setStarted] = useState(ready)
  if (ready && !started) setStarted(true)
  if (!started) return null
  return (
    <div
      part="root"
      className={`tg-root${theme === 'dark' ? ' sl-theme-dark' : ''}${className ? ` ${className}` : ''}`}
      lang={languageTag(locale)}
      data-theme={theme}
    >
      {children}
      <ToastRegion priority={toastPriority} />
    </div>
  )
}

/**
 * The top of every element's React tree: theme class (dark via `sl-theme-dark` on this container;
 * light needs none, so the light tokens stay on :host where a host page can override them),
 * locale, navigation and the toast region.
 */
export function Root({ children, locale = null, navigate, toastPriority = 0, className }: RootProps) {
  let tree = (
    <LocaleOverride.Provider value={locale}>
      <Frame className={className} toastPriority={toastPriority}>
        {children}
      </Frame>
    </LocaleOverride.Provider>
  )
  if (navigate) tree = <NavigateContext.Provider value={navigate}>{tree}</NavigateContext.Provider>
  return tree
}
