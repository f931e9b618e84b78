import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { putSecret, takeSecret } from '../db/guards.ts'

const TTL_MS = 10 * 60 * 1000
/** wrong guesses allowed against one issued code before it is thrown away */
export const MAX_VERIFICATION_ATTEMPTS = 5

/**
 * E-mail codes and reset links live in the database (server/db/guards.ts, as hashes), so a code
 * sent by one instance is accepted by any other, and a restart keeps it.
 */
const idOf = (purpose: string, email: string) => `code:${purpose}:${email.trim().toLowerCase()}`

/** Issues a 6-character code for (purpose, e-mail), valid ten minutes; a new one replaces the old. */
export async function issueVerificationCode(db: Kysely<DB>, purpose: string, email: string, now = Date.now()): Promise<string> {
  const code = randomBytes(3).toString('hex')
  await putSecret(db, idOf(purpose, email), code, now + TTL_MS, now)
  return code
}

/** Issues a 32-hex-digit token (the password-reset link), valid ten minutes, spent like a code. */
export async function issueVerificationToken(db: Kysely<DB>, purpose: string, email: string, now = Date.now()): Promise<string> {
  const token = randomBytes(16).toString('hex')
  await putSecret(db, idOf(purpose, email), token, now + TTL_MS, now)
  return token
}

/**
 * True once per issued code: a code is spent by a successful check. After
 * MAX_VERIFICATION_ATTEMPTS wrong guesses the code is dropped, so it cannot be guessed.
 */
export function consumeVerificationCode(db: Kysely<DB>, purpose: string, email: string, code: string, now = Date.now()): Promise<boolean> {
  return takeSecret(db, idOf(purpose, email), code.trim(), now, MAX_VERIFICATION_ATTEMPTS)
}
