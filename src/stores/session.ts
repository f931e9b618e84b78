import { computed } from 'nanostores'
import { persistentAtom } from '@nanostores/persistent'
import type { User } from '../api/types.ts'
import { isAdmin, isRoot } from '../../domain/roles.ts'
import { emitAppEvent } from './bus.ts'
import { gatewayOrigin, isCrossOrigin } from './config.ts'

/** The embed credential the gateway answers a cross-origin sign-in with (`data.session` of the login answer). */
export interface EmbedCredential {
  /** `tgs_<id>.<secret>`, sent as `Authorization: Bearer …` */
  token: string
  /** unix seconds; the server may end it sooner (7 days without use, sign-out, password change) */
  expires_at: number
}

/** What a sign-in answer may carry besides the user: never stored with it. */
type SignInAnswer = User & { session?: EmbedCredential | null; access_token?: unknown }

/** The user without what must never be kept on the page (the permanent access token, the credential). */
function publicUser(answer: SignInAnswer): User {
  const { session: _session, access_token: _token, ...user } = answer
  return user as User
}

const json = {
  encode: (value: User | null) => (value ? JSON.stringify(value) : undefined),
  decode: (text: string): User | null => {
    try {
      const parsed = JSON.parse(text)
      return parsed && typeof parsed === 'object' && typeof parsed.id === 'number' ? publicUser(parsed) : null
    } catch {
      return null
    }
  },
}

/** The signed-in user, kept in localStorage (spec: "login stores the user locally"), shared by every element and tab. */
export const $session = persistentAtom<User | null>('tollgate:user', null, json)

export const $isAdmin = computed($session, (u) => !!u && isAdmin(u.role))
export const $isRoot = computed($session, (u) => !!u && isRoot(u.role))

/** Where the embed credential for a gateway lives in the host page's localStorage. */
export const credentialKey = (origin = gatewayOrigin()) => `tollgate:session:${origin}`

/** The embed credential for the configured gateway, or null (none, unreadable or past its expiry). */
export function embedCredential(): EmbedCredential | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(credentialKey()) ?? 'null') as EmbedCredential | null
    if (!parsed || typeof parsed.token !== 'string' || !parsed.token.startsWith('tgs_')) return null
    if (typeof parsed.expires_at === 'number' && parsed.expires_at * 1000 <= Date.now()) return null
    return parsed
  } catch {
    return null
  }
}

function keepCredential(credential: EmbedCredential): void {
  localStorage.setItem(credentialKey(), JSON.stringify({ token: credential.token, expires_at: credential.expires_at }))
}

/** Forgets the embed credential of the configured gateway (sign-out, 401). */
export function forgetCredential(): void {
  localStorage.removeItem(credentialKey())
}

/**
 * Stores the user the server returned on sign-in (or a fresh copy from /api/user/self). A
 * cross-origin sign-in answer also carries the embed credential: it is kept apart from the user,
 * under the gateway's key, and the user is stored without it and without any access token.
 */
export function signIn(answer: SignInAnswer): void {
  if (answer.session?.token) keepCredential(answer.session)
  $session.set(publicUser(answer))
}

/** While the page ends its own session on the server, a 401 is that ending, not an expiry. */
let ending = false

/**
 * Marks the start of a sign-out the page asked for: until signOut(), a request answered 401 (one
 * that was in flight when the server ended the session) leaves the sign-out to say so, instead of
 * sending the visitor to the login page's expiry notice.
 */
export function beginSignOut(): void {
  ending = true
}

/** Forgets the stored user and the embed credential, and tells every element (tollgate-logout). */
export function signOut(): void {
  ending = false
  if (clearSession()) emitAppEvent('logout', {})
}

/** Forgets the user and the credential; true when there was one. */
function clearSession(): boolean {
  const wasSignedIn = !!$session.get() || !!embedCredential()
  forgetCredential()
  $session.set(null)
  return wasSignedIn
}

/**
 * In embed mode the stored user is only as good as the credential beside it: without one (it
 * expired, another tab signed out) the page is signed out. Called before the first request.
 */
export function reconcileSession(): void {
  if ($session.get() && isCrossOrigin() && !embedCredential()) $session.set(null)
}

/** Where a 401 sends the user: the login page with the expiry marker it turns into a notice. */
export const EXPIRED_LOGIN_PATH = '/login?expired=true'

/** Whether the page was told of an expiry since the last sign-in (requests in flight together all get a 401). */
let told = false
$session.listen((user) => {
  if (user) told = false
})

/**
 * A 401: the server no longer knows this browser. Clears the user and credential and tells the
 * page, once: the other requests that were in flight with it get their 401 too.
 */
export function expireSession(): void {
  if (ending) return
  const wasSignedIn = clearSession()
  if (told && !wasSignedIn) return
  told = true
  emitAppEvent('session-expired', { redirect: EXPIRED_LOGIN_PATH })
  if (wasSignedIn) emitAppEvent('logout', {})
}
