import { createElement, useCallback, useEffect, useMemo, type ComponentType, type ReactElement, type ReactNode } from 'react'
import r2wc from '@r2wc/react-to-web-component'
import { elementSheets } from '../src/ui/styles.ts'
import { Root } from '../src/ui/root.tsx'
import type { Navigate } from '../src/ui/navigation.tsx'
import { parseLocale } from '../src/i18n/t.ts'
import { configure } from '../src/stores/config.ts'
import { navigate as storeNavigate, syncRoute } from '../src/stores/route.ts'
import { onAppEvent, setActor } from '../src/stores/bus.ts'
import { emit } from './events.ts'

/** Attribute-backed props: camelCase prop name → type (the attribute is its kebab-case form). */
export type PropTypes = Record<string, 'string' | 'number' | 'boolean'>

/** What every adapter receives besides its declared props. */
export interface AdapterProps {
  /** the shadow root r2wc renders into */
  container?: ShadowRoot | HTMLElement
}

type R2wcElement = HTMLElement & {
  connectedCallback(): void
  disconnectedCallback(): void
  attributeChangedCallback(name: string, old: string | null, value: string | null): void
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

/** Connected Tollgate elements in connection order; the first one speaks for the page. */
const connected = new Set<HTMLElement>()

/** The element that follows a page-wide redirect and reports failures nobody claims: the first one still connected. */
export function leadElement(): HTMLElement | undefined {
  return connected.values().next().value
}

/** The visitor's input that marks an element as the one acting (its requests then report failures from it). */
const ACTING_EVENTS = ['pointerdown', 'keydown', 'click', 'input', 'change']

export function hostOf(container: AdapterProps['container']): HTMLElement | null {
  if (!container) return null
  return container instanceof ShadowRoot ? (container.host as HTMLElement) : container
}

/**
 * Registers a React component as a custom element with an open shadow root, the Shoelace theme
 * and our base CSS adopted into it, and boolean attributes that behave as in HTML (present means
 * true, removed means false; the property reflects to the attribute). A tag that is already
 * registered (a second copy of the library on the page) is left alone.
 */
export function defineElement(tag: string, Adapter: ComponentType<any>, props: PropTypes = {}): CustomElementConstructor {
  const existing = customElements.get(tag)
  if (existing) return existing

  const booleans = new Map(
    Object.entries(props)
      .filter(([, type]) => type === 'boolean')
      .map(([name]) => [kebab(name), name] as const),
  )
  const Base = r2wc(Adapter, { shadow: 'open', props }) as unknown as new () => R2wcElement

  class TollgateElement extends Base {
    constructor() {
      super()
      if (this.shadowRoot) this.shadowRoot.adoptedStyleSheets = [...elementSheets()]
      for (const type of ACTING_EVENTS) this.addEventListener(type, () => setActor(this), { capture: true })
    }
    connectedCallback() {
      connected.add(this)
      // api-base applies at connection, before any first request (the client waits for the page's scripts)
      const apiBase = this.getAttribute('api-base')
      if (apiBase) configure({ apiBase })
      super.connectedCallback()
    }
    disconnectedCallback() {
      connected.delete(this)
      super.disconnectedCallback()
    }
    attributeChangedCallback(name: string, old: string | null, value: string | null) {
      // r2wc ignores an empty value and keeps the old prop when the attribute goes away
      if (booleans.has(name)) value = value === null ? 'false' : 'true'
      super.attributeChangedCallback(name, old, value)
    }
  }
  for (const [attribute, prop] of booleans) {
    Object.defineProperty(TollgateElement.prototype, prop, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return this.hasAttribute(attribute)
      },
      set(this: HTMLElement, value: unknown) {
        this.toggleAttribute(attribute, !!value)
      },
    })
  }
  customElements.define(tag, TollgateElement)
  return TollgateElement
}

export interface ShellProps extends AdapterProps {
  lang?: string
  apiBase?: string
  /** the console's toast region wins over the others */
  toastPriority?: number
  children: (tools: { host: HTMLElement | null; navigate: Navigate }) => ReactNode
}

/** Marks the element as acting while its screen's first effects run (they are its first requests). */
function ActorMark({ host }: { host: HTMLElement | null }) {
  useEffect(() => {
    if (host) setActor(host)
  })
  return null
}

/**
 * What every adapter wraps its screen in: api-base → configure(), lang → locale, navigation that
 * asks the host first (cancelable tollgate-navigate), and the page-wide events: tollgate-logout
 * and tollgate-session-expired on every element, tollgate-error on the element whose request failed.
 */
export function ElementShell({ container, lang, apiBase, toastPriority = 0, children }: ShellProps): ReactElement {
  const host = hostOf(container)
  if (apiBase) configure({ apiBase })

  const navigate = useCallback<Navigate>(
    (to, options) => {
      if (host && !emit(host, 'tollgate-navigate', { to })) return
      storeNavigate(to, options)
    },
    [host],
  )

  useEffect(() => {
    syncRoute()
    if (!host) return
    const offExpired = onAppEvent('session-expired', (detail) => {
      emit(host, 'tollgate-session-expired', detail)
      if (leadElement() === host) navigate(detail.redirect)
    })
    const offLogout = onAppEvent('logout', () => emit(host, 'tollgate-logout', {}))
    const offError = onAppEvent('error', ({ host: from, ...failure }) => {
      const reporter = from && connected.has(from) ? from : leadElement()
      if (reporter === host) emit(host, 'tollgate-error', failure)
    })
    return () => {
      offExpired()
      offLogout()
      offError()
    }
  }, [host, navigate])

  const tools = useMemo(() => ({ host, navigate }), [host, navigate])
  return createElement(Root, { locale: parseLocale(lang), navigate, toastPriority }, createElement(ActorMark, { host }), children(tools))
}
