import { createElement as h } from 'react'
import { ResetConfirmScreen } from '../src/screens/reset/reset-confirm-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  noLinks?: boolean
}

function ResetConfirmAdapter({ container, lang, apiBase, noLinks }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(ResetConfirmScreen, { noLinks }) })
}

/**
 * @summary Password-reset confirmation, the page the reset e-mail links to: reads `email` and
 * `token` from the page query, gets a new password from the server, shows it once and copies it
 * (with a manual-copy dialog when the browser refuses).
 * @tag tollgate-reset-confirm
 * @attr {string} lang - forces the language (`en` or `zh-CN`)
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {boolean} no-links - hides the link to sign-in
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the link to sign-in
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart form - the form
 * @csspart submit-button - the reset button (`submit-button__base` is its inner button)
 * @cssprop [--tollgate-card-width=26rem] - width of the card
 */
export const TollgateResetConfirm = defineElement('tollgate-reset-confirm', ResetConfirmAdapter, {
  lang: 'string',
  apiBase: 'string',
  noLinks: 'boolean',
})

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-reset-confirm': HTMLElement & { lang: string; apiBase?: string; noLinks: boolean }
  }
}
