import * as accountApi from '../api/account.ts'
import { configure } from './config.ts'
import { signOut } from './session.ts'

/**
 * Signs out: ends the server session (best effort: signing out locally still makes sense when
 * the server cannot be reached), forgets the stored user and any access token.
 */
export async function endSession(): Promise<void> {
  try {
    await accountApi.logout()
  } catch {
    // already reported by the API client
  }
  signOut()
  configure({ accessToken: undefined })
}
