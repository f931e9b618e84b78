import { createElement as h } from 'react'
import { ChannelsScreen } from '../src/screens/channels/channels-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
}

function ChannelsAdapter({ container, lang, apiBase }: Props) {
  return h(ElementShell, { container, lang, apiBase, children: () => h(ChannelsScreen, {}) })
}

/**
 * @summary Channel management for administrators: search by keyword, group, model and status; a
 * table with type, status, response time (coloured), balance, and priority and weight edited in
 * place; enable, disable, test (one model or another), balance update, copy and delete per row;
 * test all, update all balances, delete selected, delete disabled and fix for the whole list; an
 * add/edit drawer with every field of a channel. Page size and id sort are stored locally. Shows
 * a notice instead to visitors who are not administrators.
 * @tag tollgate-channels
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the sign-in link of the notice shown to visitors
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart table - the channel table
 * @csspart drawer - the add/edit drawer
 * @csspart empty-state - the panel shown when there is no channel
 * @csspart toasts - the toast stack
 */
export const TollgateChannels = defineElement('tollgate-channels', ChannelsAdapter, { lang: 'string', apiBase: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-channels': HTMLElement & { lang: string; apiBase?: string }
  }
}
