import { createElement as h } from 'react'
import { UsersScreen } from '../src/screens/users/users-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function UsersAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(UsersScreen, {}) })
}

/**
 * @summary User management for administrators: search by keyword and group, a table with role
 * badges and status (activated, banned, cancelled), promote and demote (super administrator
 * only), disable, enable, edit and delete per row, an add drawer and an edit drawer (password,
 * group, quota with 'add quota', read-only bindings). Clicking a username opens the user's
 * details. Controls appear by role; a cancelled account offers delete only. Shows a notice
 * instead to visitors who are not administrators.
 * @tag tollgate-users
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the sign-in link of the notice shown to visitors
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart table - the user table
 * @csspart drawer - the add/edit drawer
 * @csspart empty-state - the panel shown when no user matches
 * @csspart toasts - the toast stack
 */
export const TollgateUsers = defineElement('tollgate-users', UsersAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-users': HTMLElement & { lang: string; apiBase?: string }
  }
}
