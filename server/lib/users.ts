import { randomBytes, randomInt } from 'node:crypto'
import bcrypt from 'bcryptjs'
import type { UserRow } from '../db/users.ts'

export type { UserRow } from '../db/users.ts'

/**
 * The user as the console sees it: everything but the password hash and the access token (shown
 * once by GET /api/user/token, never again).
 */
export function publicUser(u: UserRow) {
  const { password: _password, access_token: _token, deleted_at, ...rest } = u
  return { ...rest, DeletedAt: deleted_at ? new Date(deleted_at * 1000).toISOString() : null }
}

/** The user as an administrator sees it: the same as the user sees. */
export const adminUser = publicUser

export const hashPassword = (plain: string): Promise<string> => bcrypt.hash(plain, 10)

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** n random letters and digits from the crypto RNG, without modulo bias. */
export function randomKey(n: number): string {
  let out = ''
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248) out += ALNUM[b % 62]
      if (out.length === n) break
    }
  }
  return out
}

export function randomAffCode(): string {
  let s = ''
  for (let i = 0; i < 4; i++) s += ALNUM[randomInt(62)]
  return s
}
