import { configure as configureStore, type TollgateConfig } from '../src/stores/config.ts'
import { signIn as storeSignIn, type EmbedCredential } from '../src/stores/session.ts'
import { endSession } from '../src/stores/account.ts'
import type { User } from '../src/api/types.ts'

export type { TollgateConfig, EmbedCredential }
export type { User, PublicStatus } from '../src/api/types.ts'

/**
 * Points every Tollgate element on the page at a gateway. Needed only when the library is not
 * loaded from the gateway itself (the elements otherwise talk to the origin their script came from).
 * Applied before any element's first request, wherever it runs in the page's module scripts.
 * @example configure({ apiBase: 'https://gateway.example.com' })
 */
export function configure(options: Partial<TollgateConfig>): void {
  configureStore(options)
}

/**
 * Signs the elements in as a user the host already has the answer of a sign-in for (the `data` of
 * `POST /api/user/login`, with its `session` when it was made cross-origin). Any access token in
 * it is dropped: the page never keeps one.
 */
export function signIn(user: User & { session?: EmbedCredential | null }): void {
  storeSignIn(user)
}

/**
 * Signs out: ends the session on the server (GET /api/user/logout with the credential), then
 * forgets the user and the credential even if that call failed. Every element fires tollgate-logout.
 */
export function signOut(): Promise<void> {
  return endSession()
}
