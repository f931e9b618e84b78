import { randomBytes, timingSafeEqual } from 'node:crypto'

const TTL_MS = 10 * 60 * 1000
/** wrong guesses allowed against one issued code before it is thrown away */
export const MAX_VERIFICATION_ATTEMPTS = 5

const codes = new Map<string, { code: string; expires: number; misses: number }>()

function keyOf(purpose: string, email: string): string {
  return `${purpose}:${email.trim().toLowerCase()}`
}

function store(purpose: string, email: string, code: string, now: number): string {
  if (codes.size > 10_000) {
    for (const [k, e] of codes) if (e.expires < now) codes.delete(k)
  }
  codes.set(keyOf(purpose, email), { code, expires: now + TTL_MS, misses: 0 })
  return code
}

/** Issues a 6-character code for (purpose, e-mail), valid ten minutes; a new one replaces the old. */
export function issueVerificationCode(purpose: string, email: string, now = Date.now()): string {
  return store(purpose, email, randomBytes(3).toString('hex'), now)
}

/** Issues a 32-hex-digit token (the password-reset link), valid ten minutes, spent like a code. */
export function issueVerificationToken(purpose: string, email: string, now = Date.now()): string {
  return store(purpose, email, randomBytes(16).toString('hex'), now)
}

/**
 * True once per issued code: a code is spent by a successful check. After
 * MAX_VERIFICATION_ATTEMPTS wrong guesses the code is dropped, so it cannot be guessed.
 */
export function consumeVerificationCode(purpose: string, email: string, code: string, now = Date.now()): boolean {
  const key = keyOf(purpose, email)
  const entry = codes.get(key)
  if (!entry) return false
  if (entry.expires < now) {
    codes.delete(key)
    return false
  }
  const want = Buffer.from(entry.code)
  const got = Buffer.from(code.trim())
  if (want.length !== got.length || !timingSafeEqual(want, got)) {
    if (++entry.misses >= MAX_VERIFICATION_ATTEMPTS) codes.delete(key)
    return false
  }
  codes.delete(key)
  return true
}
