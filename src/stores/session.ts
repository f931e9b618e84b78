import { computed } from 'nanostores'
import { persistentAtom } from '@nanostores/persistent'
import type { User } from '../api/types.ts'
import { isAdmin, isRoot } from '../../domain/roles.ts'
import { emitAppEvent } from './bus.ts'

const json = {
  encode: (value: User | null) => (value ? JSON.stringify(value) : undefined),
  decode: (text: string): User | null => {
    try {
      const parsed = JSON.parse(text)
      return parsed && typeof parsed === 'object' && typeof parsed.id === 'number' ? (parsed as User) : null
    } catch {
      return null
    }
  },
}

/** The signed-in user, kept in localStorage (spec: "login stores the user locally"), shared by every element and tab. */
export const $session = persistentAtom<User | null>('tollgate:user', null, json)

export const $isAdmin = computed($session, (u) => !!u && isAdmin(u.role))
export const $isRoot = computed($session, (u) => !!u && isRoot(u.role))

/** Stores the user the server returned on sign-in. */
export function signIn(user: User): void {
  $session.set(user)
}

/** Forgets the stored user (the server session is ended by the logout call, not here). */
export function signOut(): void {
  $session.set(null)
}

/** Where a 401 sends the user: the login page with the expiry marker it turns into a notice. */
export const EXPIRED_LOGIN_PATH = '/login?expired=true'

/** A 401: the server no longer knows this browser. Clears the user and tells the page. */
export function expireSession(): void {
  $session.set(null)
  emitAppEvent('session-expired', { redirect: EXPIRED_LOGIN_PATH })
}
