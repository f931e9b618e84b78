import { createElement as h } from 'react'
import { RedemptionsScreen } from '../src/screens/redemptions/redemptions-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function RedemptionsAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(RedemptionsScreen, {}) })
}

/**
 * @summary Redemption codes for administrators: list and search; per code copy, enable or disable
 * (enable is off for a used code), edit (only while unused) and delete; copy of the selected
 * codes; a drawer that creates codes (name, quota 100000 and count 1 by default, quota presets)
 * and offers the new codes as a text file named after the name, or edits one. Rows of codes not
 * unused are greyed. Shows a notice instead to visitors who are not administrators.
 * @tag tollgate-redemptions
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the sign-in link of the notice shown to visitors
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart table - the code table
 * @csspart drawer - the create/edit drawer
 * @csspart empty-state - the panel shown when there is no code
 * @csspart toasts - the toast stack
 */
export const TollgateRedemptions = defineElement('tollgate-redemptions', RedemptionsAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-redemptions': HTMLElement & { lang: string; apiBase?: string }
  }
}
