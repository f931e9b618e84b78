import { configure as configureStore, type TollgateConfig } from '../src/stores/config.ts'
import { signIn as storeSignIn } from '../src/stores/session.ts'
import { endSession } from '../src/stores/account.ts'
import type { User } from '../src/api/types.ts'

export type { TollgateConfig }
export type { User, PublicStatus } from '../src/api/types.ts'

/**
 * Points every Tollgate element on the page at a gateway and, for cross-origin embeds, hands over
 * a system access token (sent as `Authorization: Bearer …`, kept in memory only).
 * @example configure({ apiBase: 'https://gateway.example.com' })
 */
export function configure(options: Partial<TollgateConfig>): void {
  configureStore(options)
}

/**
 * Signs the elements in as a user the host already authenticated (for example with an access token
 * from GET /api/user/token, passed here or through configure()).
 */
export function signIn(user: User, options: { accessToken?: string } = {}): void {
  if (options.accessToken) configureStore({ accessToken: options.accessToken })
  storeSignIn(user)
}

/** Signs out: ends the server session and forgets the stored user and access token. Emits no event. */
export function signOut(): Promise<void> {
  return endSession()
}
