import type { User } from '../src/api/types.ts'
import type { RequestFailure } from '../src/stores/bus.ts'

/** Detail of each Tollgate event. Every event bubbles, is composed and is emitted from the host element. */
export interface TollgateEventDetails {
  /** a user signed in through the element */
  'tollgate-login': { user: User }
  /** the user signed out (through any element, signOut(), or because the session expired): fired on every element */
  'tollgate-logout': Record<string, never>
  /** the server answered 401: the stored user and credential are gone (fired on every element, before tollgate-logout) */
  'tollgate-session-expired': { redirect: string }
  /** the element wants to show another console path; cancel it to route in the host instead */
  'tollgate-navigate': { to: string }
  /**
   * a request of this element failed and the user was told so: `status` is the HTTP status (0 when
   * there was no answer); the server's own refusal is `status: 200, kind: 'refused'`
   */
  'tollgate-error': RequestFailure
  /** a redemption code added quota to the balance (the amount added) */
  'tollgate-topup': { quota: number }
}

export type TollgateEventName = keyof TollgateEventDetails

export type TollgateLoginEvent = CustomEvent<TollgateEventDetails['tollgate-login']>
export type TollgateLogoutEvent = CustomEvent<TollgateEventDetails['tollgate-logout']>
export type TollgateSessionExpiredEvent = CustomEvent<TollgateEventDetails['tollgate-session-expired']>
export type TollgateNavigateEvent = CustomEvent<TollgateEventDetails['tollgate-navigate']>
export type TollgateErrorEvent = CustomEvent<TollgateEventDetails['tollgate-error']>
export type TollgateTopupEvent = CustomEvent<TollgateEventDetails['tollgate-topup']>

/** The events that a host may cancel. */
export const CANCELABLE: ReadonlySet<TollgateEventName> = new Set(['tollgate-navigate'])

declare global {
  interface GlobalEventHandlersEventMap {
    'tollgate-login': TollgateLoginEvent
    'tollgate-logout': TollgateLogoutEvent
    'tollgate-session-expired': TollgateSessionExpiredEvent
    'tollgate-navigate': TollgateNavigateEvent
    'tollgate-error': TollgateErrorEvent
    'tollgate-topup': TollgateTopupEvent
  }
}

/**
 * Dispatches a Tollgate event from the host element: bubbling, composed, object detail.
 * Returns false when a listener cancelled it.
 */
export function emit<K extends TollgateEventName>(host: Element, name: K, detail: TollgateEventDetails[K]): boolean {
  return host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: CANCELABLE.has(name) }))
}
