import { createElement, useCallback, useEffect, useMemo, type ComponentType, type ReactNode } from 'react'
import r2wc from '@r2wc/react-to-web-component'
import { elementCss } from '../src/ui/styles.ts'
import { Root } from '../src/ui/root.tsx'
import type { Navigate } from '../src/ui/navigation.tsx'
import { parseLocale } from '../src/i18n/t.ts'
import { $config, configure } from '../src/stores/config.ts'
import { navigate as storeNavigate, syncRoute } from '../src/stores/route.ts'
import { onAppEvent } from '../src/stores/bus.ts'
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

let sheets: CSSStyleSheet[] | null = null
/** One set of constructed sheets shared by every shadow root on the page. */
function sharedSheets(): CSSStyleSheet[] {
  return (sheets ??= elementCss.map((css) => {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    return sheet
  }))
}

/** Connected Tollgate elements in connection order; the first one speaks for the page. */
const connected = new Set<HTMLElement>()

/** The element that emits page-wide events (session expired, errors): the first one still connected. */
export function leadElement(): HTMLElement | undefined {
  return connected.values().next().value
}

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
      if (this.shadowRoot) this.shadowRoot.adoptedStyleSheets = [...sharedSheets()]
    }
    connectedCallback() {
      connected.add(this)
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

/**
 * What every adapter wraps its screen in: api-base → configure(), lang → locale, navigation that
 * asks the host first (cancelable tollgate-navigate), and the page-wide events emitted by the
 * lead element.
 */
export function ElementShell({ container, lang, apiBase, toastPriority = 0, children }: ShellProps) {
  const host = hostOf(container)
  // before the screen's first load, so its calls already go to the right gateway
  if (apiBase !== undefined && apiBase !== null && apiBase.replace(/\/+$/, '') !== $config.get().apiBase) configure({ apiBase })

  const navigate = useCallback<Navigate>(
    (to, options) => {
      if (host && !emit(host, 'tollgate-navigate', { to })) return
      storeNavigate(to, options)
    },
    [host],
  )

  useEffect(() => {
    syncRoute()
    const offExpired = onAppEvent('session-expired', (detail) => {
      if (!host || leadElement() !== host) return
      emit(host, 'tollgate-session-expired', detail)
      navigate(detail.redirect)
    })
    const offError = onAppEvent('error', (detail) => {
      if (host && leadElement() === host) emit(host, 'tollgate-error', detail)
    })
    return () => {
      offExpired()
      offError()
    }
  }, [host, navigate])

  const tools = useMemo(() => ({ host, navigate }), [host, navigate])
  return createElement(Root, { locale: parseLocale(lang), navigate, toastPriority }, children(tools))
}
