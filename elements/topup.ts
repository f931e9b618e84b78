import { createElement as h } from 'react'
import { WalletScreen } from '../src/screens/wallet/wallet-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'
import { emit } from './events.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  payTarget?: string
}

function TopupAdapter({ container, lang, apiBase, payTarget }: Props) {
  return h(ElementShell, {
    container,
    lang,
    apiBase,
    children: ({ host }) => h(WalletScreen, { payTarget, onTopup: (quota: number) => host && emit(host, 'tollgate-topup', { quota }) }),
  })
}

/**
 * @summary The signed-in user's wallet: current balance (fresh from the server), redemption-code
 * entry, the link to buy codes when the site has one, and online top-up (amount of at least 1,
 * the money payable, Alipay or WeChat Pay, a confirmation, then the payment platform's page).
 * Signed out it offers the way to sign in.
 * @tag tollgate-topup
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {string} pay-target - where the payment page opens: a window or frame name (default `_blank`, a new tab; `_self` leaves the page)
 * @fires {CustomEvent<{quota: number}>} tollgate-topup - a redemption code added `quota` to the balance
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the sign-in link when signed out
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart balance - the balance banner
 * @csspart redeem - the redemption-code card
 * @csspart online-topup - the online top-up card
 * @csspart empty-state - the panel shown when signed out
 */
export const TollgateTopup = defineElement('tollgate-topup', TopupAdapter, { lang: 'string', apiBase: 'string', payTarget: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-topup': HTMLElement & { lang: string; apiBase?: string; payTarget?: string }
  }
}
