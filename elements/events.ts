import type { User } from '../src/api/types.ts'

/** Detail of each Tollgate event. Every event bubbles, is composed and is emitted from the host element. */
export interface TollgateEventDetails {
  /** a user signed in through the element */
  'tollgate-login': { user: User }
  /** the user signed out through the element */
  'tollgate-logout': Record<string, never>
  /** the server answered 401: the stored user is gone and the element is about to show /login */
  'tollgate-session-expired': { redirect: string }
  /** the element wants to show another console path; cancel it to route in the host instead */
  'tollgate-navigate': { to: string }
  /** a request failed and the user was told so */
  'tollgate-error': { status: number; message: string }
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
