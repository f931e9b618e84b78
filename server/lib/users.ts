import type { Selectable } from 'kysely'
import type { UsersTable } from '../db/schema.ts'
import { randomBytes, randomInt } from 'node:crypto'

export type UserRow = Selectable<UsersTable>

/** The user as the console sees it: everything but the password hash. */
export function publicUser(u: UserRow) {
  const { password: _password, deleted_at, ...rest } = u
  return { ...rest, DeletedAt: deleted_at ? new Date(deleted_at * 1000).toISOString() : null }
}

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
