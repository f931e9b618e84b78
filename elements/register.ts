import { createElement as h } from 'react'
import { RegisterScreen } from '../src/screens/register/register-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  noLinks?: boolean
}

function RegisterAdapter({ container, lang, apiBase, noLinks }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(RegisterScreen, { noLinks }) })
}

/**
 * @summary Registration form: username, password and confirmation; with e-mail verification on,
 * the e-mail, a send-code button (30 s resend lock) and the code. An invite code in the page's
 * `?aff=` query is sent along. Asks to go to /login once the account exists.
 * @tag tollgate-register
 * @attr {string} lang - forces the language (`en` or `zh-CN`)
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {boolean} no-links - hides the link to sign-in
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; /login after registering, or a link
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart form - the registration form
 * @csspart submit-button - the register button (`submit-button__base` is its inner button)
 * @cssprop [--tollgate-card-width=26rem] - width of the card
 */
export const TollgateRegister = defineElement('tollgate-register', RegisterAdapter, {
  lang: 'string',
  apiBase: 'string',
  noLinks: 'boolean',
})

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-register': HTMLElement & { lang: string; apiBase?: string; noLinks: boolean }
  }
}
