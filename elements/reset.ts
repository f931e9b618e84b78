import { createElement as h } from 'react'
import { ResetScreen } from '../src/screens/reset/reset-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  noLinks?: boolean
}

function ResetAdapter({ container, lang, apiBase, noLinks }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(ResetScreen, { noLinks }) })
}

/**
 * @summary Password-reset request: the account's e-mail address; the server mails a reset link.
 * The button is locked for 30 s after each send.
 * @tag tollgate-reset
 * @attr {string} lang - forces the language (`en` or `zh-CN`)
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {boolean} no-links - hides the link back to sign-in
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the link back to sign-in
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart form - the form
 * @csspart submit-button - the send button (`submit-button__base` is its inner button)
 * @cssprop [--tollgate-card-width=26rem] - width of the card
 */
export const TollgateReset = defineElement('tollgate-reset', ResetAdapter, { lang: 'string', apiBase: 'string', noLinks: 'boolean' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-reset': HTMLElement & { lang: string; apiBase?: string; noLinks: boolean }
  }
}
