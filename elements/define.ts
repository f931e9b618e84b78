import { createElement, useCallback, useEffect, useMemo, type ComponentType, type ReactElement, type ReactNode } from 'react'
import { createRoot, type Root as ReactRoot } from 'react-dom/client'
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
  /** the shadow root the element renders into */
  container?: ShadowRoot | HTMLElement
}

type PropType = PropTypes[string]

/** An attribute's text as its prop (an empty or missing attribute leaves the prop as it is). */
const parse: Record<PropType, (value: string) => unknown> = {
  string: (value) => value,
  number: (value) => parseFloat(value),
  boolean: (value) => /^[ty1-9]/i.test(value),
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
 *
 * The element renders the component into its shadow root with the props its attributes and
 * properties give (plus `container`, the shadow root), from the first attribute or the connection
 * on, and unmounts it when disconnected. A string or number property reflects to its attribute
 * (undefined or null removes it); an attribute set to a non-empty value sets the prop (parsed for
 * numbers) and renders again, while an empty or removed attribute leaves the prop as it was.
 * (What @r2wc/react-to-web-component did for us, in a kB less.)
 */
export function defineElement(tag: string, Adapter: ComponentType<any>, props: PropTypes = {}): CustomElementConstructor {
  const existing = customElements.get(tag)
  if (existing) return existing

  const propOf = new Map(Object.keys(props).map((name) => [kebab(name), name] as const))

  class TollgateElement extends HTMLElement {
    static get observedAttributes() {
      return [...propOf.keys()]
    }
    /** the shadow root the component renders into */
    container: ShadowRoot
    #connected = true
    #root: ReactRoot | undefined
    #props: Record<string, unknown> = {}

    constructor() {
      super()
      this.container = this.attachShadow({ mode: 'open' })
      this.#props.container = this.container
      for (const [attribute, prop] of propOf) {
        const value = this.getAttribute(attribute)
        if (value) this.#props[prop] = parse[props[prop]!](value)
      }
      this.container.adoptedStyleSheets = [...elementSheets()]
      for (const type of ACTING_EVENTS) this.addEventListener(type, () => setActor(this), { capture: true })
    }
    connectedCallback() {
      connected.add(this)
      // api-base applies at connection, before any first request (the client waits for the page's scripts)
      const apiBase = this.getAttribute('api-base')
      if (apiBase) configure({ apiBase })
      this.#connected = true
      this.#render()
    }
    disconnectedCallback() {
      connected.delete(this)
      this.#connected = false
      this.#root?.unmount()
      this.#root = undefined
    }
    attributeChangedCallback(name: string, _old: string | null, value: string | null) {
      const prop = propOf.get(name)
      if (!prop) return
      // a boolean attribute is true while present, whatever its value
      if (props[prop] === 'boolean') value = value === null ? 'false' : 'true'
      if (!value) return
      this.#props[prop] = parse[props[prop]!](value)
      this.#render()
    }
    #render() {
      if (!this.#connected) return
      this.#root ??= createRoot(this.container)
      this.#root.render(createElement(Adapter, this.#props))
    }
    static {
      for (const [attribute, prop] of propOf) {
        const type = props[prop]!
        Object.defineProperty(
          this.prototype,
          prop,
          type === 'boolean'
            ? {
                configurable: true,
                enumerable: true,
                get(this: TollgateElement) {
                  return this.hasAttribute(attribute)
                },
                set(this: TollgateElement, value: unknown) {
                  this.toggleAttribute(attribute, !!value)
                },
              }
            : {
                configurable: true,
                enumerable: true,
                get(this: TollgateElement) {
                  return this.#props[prop]
                },
                set(this: TollgateElement, value: unknown) {
                  this.#props[prop] = value
                  // a string reflects as it is (undefined or null removes the attribute), a number as its text
                  const text = type === 'number' ? `${value as number}` : (value as string | null | undefined)
                  if (this.getAttribute(attribute) === text) return
                  if (text == null) this.removeAttribute(attribute)
                  else this.setAttribute(attribute, text)
                },
              },
        )
      }
    }
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
