import { createElement as h } from 'react'
import { LoginScreen } from '../src/screens/login/login-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'
import { emit } from './events.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  noLinks?: boolean
}

function LoginAdapter({ container, lang, apiBase, noLinks }: Props) {
  return h(ElementShell, {
    container,
    lang,
    apiBase,
    children: ({ host }) => h(LoginScreen, { noLinks, onLogin: (user) => host && emit(host, 'tollgate-login', { user }) }),
  })
}

/**
 * @summary Sign-in box: username and password, the outside sign-in methods the site enables
 * (GitHub, WeChat, Telegram) and the bot check. On success the user is stored for every Tollgate
 * element on the page and the element asks to go to /token (on another site it stays and shows
 * who is signed in, the balance and a sign-out button).
 * @tag tollgate-login
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {boolean} no-links - hides the links to registration and password reset
 * @fires {CustomEvent<{user: User}>} tollgate-login - a user signed in
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the element wants another console page (/token after sign-in, /register, /reset)
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart form - the sign-in form
 * @csspart submit-button - the sign-in button (`submit-button__base` is its inner button)
 * @csspart card - the card around the form or the signed-in state
 * @csspart signed-in - the signed-in state
 * @csspart signout-button - its sign-out button (`signout-button__base` is its inner button)
 * @cssprop [--tollgate-card-width=26rem] - width of the card
 */
export const TollgateLogin = defineElement('tollgate-login', LoginAdapter, { lang: 'string', apiBase: 'string', noLinks: 'boolean' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-login': HTMLElement & { lang: string; apiBase?: string; noLinks: boolean }
  }
}
