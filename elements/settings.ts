import { createElement as h } from 'react'
import { SettingsScreen } from '../src/screens/settings/settings-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  tab?: string
}

function SettingsAdapter({ container, lang, apiBase, tab }: Props) {
  return h(ElementShell, {
    container,
    lang,
    apiBase,
    children: () => h(SettingsScreen, { tab }),
  })
}

/**
 * @summary Settings. The personal tab (for every signed-in user, the default): profile card with
 * the models to copy, invite link and earnings with the transfer, bindings (e-mail with a code and
 * a 30-second resend lock, WeChat, GitHub, Telegram), access-token generation, password change
 * and account deletion. The super administrator also gets the operation, system and other tabs.
 * @tag tollgate-settings
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @attr {string} tab - the tab to open: `personal` (default), `operation`, `system` or `other` (the last three for the super administrator only)
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the element wants another console page (/login after deleting the account, or when signed out)
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart tabs - the tab group (super administrator)
 * @csspart empty-state - shown when signed out
 */
export const TollgateSettings = defineElement('tollgate-settings', SettingsAdapter, { lang: 'string', apiBase: 'string', tab: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-settings': HTMLElement & { lang: string; apiBase?: string; tab?: string }
  }
}
