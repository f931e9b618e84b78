import * as accountApi from '../api/account.ts'
import { $session, beginSignOut, signIn, signOut } from './session.ts'

/**
 * Refreshes the stored user from the server (quota and role change). A session the server no
 * longer knows answers 401, which expires it: the user is sent to sign in again.
 */
export async function refreshUser(): Promise<void> {
  if (!$session.get()) return
  try {
    signIn(await accountApi.self())
  } catch {
    // a 401 has expired the session; other failures keep the stored copy
  }
}

/**
 * Signs out: ends the server session with the credential in use (best effort: signing out locally
 * still makes sense when the server cannot be reached), then forgets the stored user and the embed
 * credential, and every element fires tollgate-logout.
 */
export async function endSession(): Promise<void> {
  beginSignOut()
  try {
    await accountApi.logout()
  } catch {
    // already reported by the API client
  }
  signOut()
}
