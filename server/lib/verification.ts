import { randomBytes } from 'node:crypto'

const TTL_MS = 10 * 60 * 1000
const codes = new Map<string, { code: string; expires: number }>()

/** Issues a 6-character code for (purpose, e-mail), valid ten minutes; a new one replaces the old. */
export function issueVerificationCode(purpose: string, email: string, now = Date.now()): string {
  const code = randomBytes(3).toString('hex')
  codes.set(`${purpose}:${email.toLowerCase()}`, { code, expires: now + TTL_MS })
  return code
}

/** True once per issued code: a code is spent by a successful check. */
export function consumeVerificationCode(purpose: string, email: string, code: string, now = Date.now()): boolean {
  const key = `${purpose}:${email.toLowerCase()}`
  const entry = codes.get(key)
  if (!entry || entry.expires < now || entry.code !== code.trim()) return false
  codes.delete(key)
  return true
}
