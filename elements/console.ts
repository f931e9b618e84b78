import { createElement as h } from 'react'
import { ConsoleScreen } from '../src/screens/console/console-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'
import { emit } from './events.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  noFooter?: boolean
}

function ConsoleAdapter({ container, lang, apiBase, noFooter }: Props) {
  return h(ElementShell, {
    container,
    lang,
    apiBase,
    toastPriority: 10,
    children: ({ host }) =>
      h(ConsoleScreen, {
        noFooter,
        onLogin: (user) => host && emit(host, 'tollgate-login', { user }),
        onTopup: (quota) => host && emit(host, 'tollgate-topup', { quota }),
      }),
  })
}

/**
 * @summary The whole console: top bar (dark/light toggle, language switch, sign-in links or the
 * account menu, festive greeting), sidebar, every route of the product with its guard, and the
 * footer. Routes with the History API; a host router can take over by cancelling
 * `tollgate-navigate`.
 * @tag tollgate-console
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the top-bar switch decides
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {boolean} no-footer - hides the footer
 * @fires {CustomEvent<{user: User}>} tollgate-login - a user signed in
 * @fires {CustomEvent<{quota: number}>} tollgate-topup - a redemption code added `quota` in the wallet screen
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; a link, a redirect or the guard wants another path
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401; the console then shows /login with the expiry notice
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart header - the top bar
 * @csspart sidebar - the navigation
 * @csspart content - the routed screen
 * @csspart footer - the footer
 * @cssprop [--tollgate-console-min-height=100vh] - height the console fills
 * @cssprop [--tollgate-sidebar-width=15rem] - width of the open sidebar
 */
export const TollgateConsole = defineElement('tollgate-console', ConsoleAdapter, { lang: 'string', apiBase: 'string', noFooter: 'boolean' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-console': HTMLElement & { lang: string; apiBase?: string; noFooter: boolean }
  }
}
