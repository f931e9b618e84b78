import { createElement as h } from 'react'
import { DashboardScreen } from '../src/screens/dashboard/dashboard-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function DashboardAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(DashboardScreen) })
}

/**
 * @summary The data dashboard: quota, requests and tokens of a period, and a stacked chart and
 * tables of the usage by model per hour, day or week (the site's DataExportDefaultTime first).
 * Administrators see everyone's usage and may filter by username; users see their own. Shows a
 * notice instead when the site turned the dashboard off (DataExportEnabled) or nobody is signed
 * in. The chart library is loaded by this element only, when it first draws a chart.
 * @tag tollgate-dashboard
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the element wants another console page (/login when signed out)
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart filters - the period and username filters
 * @csspart totals - the quota, request and token totals
 * @csspart chart - the chart card
 * @csspart table - each of the tables (by model, by period; and the breakdown's two)
 * @csspart breakdown - the breakdown by model, user, token or channel (top N and others)
 * @csspart empty-state - the notice shown instead of the dashboard
 * @cssprop [--tollgate-chart-height=18rem] - height of the chart's plot (14rem on narrow screens)
 */
export const TollgateDashboard = defineElement('tollgate-dashboard', DashboardAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-dashboard': HTMLElement & { lang: string; apiBase?: string }
  }
}
