import { createElement as h } from 'react'
import { PricingScreen } from '../src/screens/pricing/pricing-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function PricingAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(PricingScreen) })
}

/**
 * @summary Public model pricing: every model the gateway serves, whether the viewer's group can
 * use it, its billing type (per usage or per call) and its price for that group: dollars per 1M
 * prompt and completion tokens (model ratio x 2 x group ratio, times the completion ratio) or per
 * call (model price x group ratio). Signed out it prices for the default group. Search by name,
 * filter by billing type and by availability; copy a model name.
 * @tag tollgate-pricing
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart table - the price list
 * @csspart empty-state - the panel shown when no model is priced or none matches
 */
export const TollgatePricing = defineElement('tollgate-pricing', PricingAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-pricing': HTMLElement & { lang: string; apiBase?: string }
  }
}
