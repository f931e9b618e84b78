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
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (from the first Tollgate element on the page)
 * @fires {CustomEvent<{status: number, message: string}>} tollgate-error - a request failed (from the first Tollgate element on the page)
 * @csspart table - the price list
 * @csspart empty-state - the panel shown when no model is priced or none matches
 */
export const TollgatePricing = defineElement('tollgate-pricing', PricingAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-pricing': HTMLElement & { lang: string; apiBase?: string }
  }
}
