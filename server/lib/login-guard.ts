/**
 * Password guessing limits (issue 10 item 10), as the larger gateways and identity servers do
 * it: failures are counted per account, and after a few each further try must wait an
 * exponentially growing time (a botnet with many addresses is slowed per account); failures are
 * also counted per address with a looser cap (one address spraying many accounts). Successes are
 * never counted, so a right password from an address that only failed on other accounts passes.
 * Kept in the database, so every instance counts the same failures (server/db/guards.ts).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { countOne, forget, readCounter } from '../db/guards.ts'

/** failures of one account before tries must wait; the wait doubles from 1 s up to 15 min */
export const ACCOUNT_FREE_FAILURES = 5
export const ACCOUNT_MAX_WAIT_SECONDS = 15 * 60
/** failed sign-ins one address may make in ADDRESS_WINDOW_SECONDS */
export const ADDRESS_MAX_FAILURES = 50
export const ADDRESS_WINDOW_SECONDS = 20 * 60

const accountId = (account: string) => `login:account:${account.toLowerCase()}`
const addressId = (address: string) => `login:address:${address}`
/** an account's failures are forgotten a day after the last one (or at its next success) */
const ACCOUNT_MEMORY_MS = 24 * 3600 * 1000

/** The guard of one database: its counters are shared by every instance on it (server/db/guards.ts). */
export class LoginGuard {
  private readonly db: Kysely<DB>
  constructor(db: Kysely<DB>) {
    this.db = db
  }

  /** Seconds the caller must wait before this try is even checked, or 0. */
  async waitFor(account: string, address: string, now = Date.now()): Promise<number> {
    const windowMs = ADDRESS_WINDOW_SECONDS * 1000
    const a = await readCounter(this.db, addressId(address), now)
    if (a && now - a.startedAt < windowMs && a.count >= ADDRESS_MAX_FAILURES) return Math.ceil((a.startedAt + windowMs - now) / 1000)
    const acc = await readCounter(this.db, accountId(account), now)
    if (!acc || acc.count < ACCOUNT_FREE_FAILURES) return 0
    const wait = Math.min(2 ** (acc.count - ACCOUNT_FREE_FAILURES), ACCOUNT_MAX_WAIT_SECONDS) * 1000
    return Math.max(0, Math.ceil((acc.lastAt + wait - now) / 1000))
  }

  async failed(account: string, address: string, now = Date.now()): Promise<void> {
    const windowMs = ADDRESS_WINDOW_SECONDS * 1000
    await countOne(this.db, accountId(account), now, now + ACCOUNT_MEMORY_MS)
    await countOne(this.db, addressId(address), now, now + windowMs, now - windowMs)
  }

  succeeded(account: string): Promise<void> {
    return forget(this.db, accountId(account))
  }
}

const guards = new WeakMap<object, LoginGuard>()

/** The guard of one server's database (tests run several servers in one process). */
export function loginGuardOf(ctx: { db: Kysely<DB> }): LoginGuard {
  let g = guards.get(ctx.db)
  if (!g) guards.set(ctx.db, (g = new LoginGuard(ctx.db)))
  return g
}
