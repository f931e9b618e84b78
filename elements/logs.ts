import { createElement as h } from 'react'
import { LogsScreen } from '../src/screens/logs/logs-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function LogsAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(LogsScreen) })
}

/**
 * @summary Usage logs: filters (type, token name, model, time range from 24 h ago to 1 h ahead),
 * the quota and token statistics, and the log table loaded page by page. A signed-in user reads
 * their own logs; an administrator (role 10 and above) reads everyone's, with username and
 * channel filters, channel and user columns, the retry chain, a user-info dialog and log cleaning.
 * "Export CSV" downloads the rows of the filters applied, showing the bytes received as they stream.
 * The page size is kept in localStorage.
 * @tag tollgate-logs
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the element wants another console page (/login when signed out)
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart filters - the filter form
 * @csspart table - the scrolling table region
 * @csspart empty-state - shown when no log matches
 */
export const TollgateLogs = defineElement('tollgate-logs', LogsAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-logs': HTMLElement & { lang: string; apiBase?: string }
  }
}
