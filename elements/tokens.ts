import { createElement as h } from 'react'
import { TokensScreen } from '../src/screens/tokens/tokens-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function TokensAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(TokensScreen) })
}

/**
 * @summary The signed-in user's tokens (API keys): a list loaded page by page (page size kept in
 * localStorage), search by name and key, copy of one key or of the selected keys, enable, disable,
 * delete, an inline quick edit, and a side drawer to create (one or a batch) or edit a token with
 * its quota, expiry and model limits. Signed out it offers the way to sign in.
 * @tag tollgate-tokens
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the sign-in link when signed out
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart table - the token list
 * @csspart create-button - the create button (`create-button__base` is its inner button)
 * @csspart empty-state - the panel shown when there are no tokens
 */
export const TollgateTokens = defineElement('tollgate-tokens', TokensAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-tokens': HTMLElement & { lang: string; apiBase?: string }
  }
}
