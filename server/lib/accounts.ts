/**
 * Opening accounts: registration, an administrator's "add user" and a first sign-in with an
 * outside account each write the user with its welcome bonus, the inviter's reward when an invite
 * code was used, and their log rows, in one transaction.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { OptionStore } from '../options.ts'
import { affCodeTaken, insertUser, rewardInviter, type NewUser, type UserRow } from '../db/users.ts'
import { writeAccountLogs, type AccountLog } from '../db/account-logs.ts'
import type { LogDetail } from '../../domain/log-detail.ts'
import { randomAffCode, randomKey } from './users.ts'
import { isUniqueViolation } from './query.ts'
import { refuse } from '../http.ts'
import type { MessageKey } from '../i18n/index.ts'

export interface Inviter {
  id: number
  username: string
}

/** What opening an account gives: QuotaForNewUser, and with an invite QuotaForInvitee and the inviter's QuotaForInviter. */
export interface Gifts {
  bonus: number
  inviteeBonus: number
  inviterReward: number
}

const wholeOption = (o: OptionStore, key: string) => Math.max(0, Math.trunc(o.num(key)))

export function giftsOf(o: OptionStore, invited: boolean): Gifts {
  return {
    bonus: wholeOption(o, 'QuotaForNewUser'),
    inviteeBonus: invited ? wholeOption(o, 'QuotaForInvitee') : 0,
    inviterReward: invited ? wholeOption(o, 'QuotaForInviter') : 0,
  }
}

/** A fresh invite code nobody holds yet (4 characters, as the reference gateways use; longer once those run short). */
export async function freeAffCode(db: Kysely<DB>): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const code = i < 10 ? randomAffCode() : randomKey(8)
    if (!(await affCodeTaken(db, code))) return code
  }
  return randomKey(16)
}

/**
 * Opens an account with its gifts and their log rows, in one transaction. A username, e-mail
 * address or invite code someone took meanwhile throws the database's unique violation, and
 * nothing is written.
 */
export function openAccount(
  db: Kysely<DB>,
  user: Omit<NewUser, 'quota' | 'inviter_id'>,
  gifts: Gifts,
  inviter?: Inviter,
): Promise<UserRow> {
  return db.transaction().execute(async (tx) => {
    const row = await insertUser(tx, { ...user, quota: gifts.bonus + gifts.inviteeBonus, inviter_id: inviter?.id ?? 0 })
    const at = user.created_time
    const logs: AccountLog[] = []
    const own = (detail: LogDetail): AccountLog => ({ userId: row.id, username: row.username, at, detail })
    if (gifts.bonus > 0) logs.push(own({ kind: 'user.newBonus', quota: gifts.bonus }))
    if (inviter) {
      if (gifts.inviteeBonus > 0) logs.push(own({ kind: 'user.inviteeBonus', quota: gifts.inviteeBonus }))
      await rewardInviter(tx, inviter.id, gifts.inviterReward)
      if (gifts.inviterReward > 0) {
        const detail: LogDetail = { kind: 'user.inviterReward', quota: gifts.inviterReward, invitee: row.username }
        logs.push({ userId: inviter.id, username: inviter.username, at, detail })
      }
    }
    await writeAccountLogs(tx, logs)
    return row
  })
}

/** For `.catch()` on a write: a unique-index violation (a name someone took meanwhile) is refused with `key`. */
export function refuseOnUnique(key: MessageKey) {
  return (e: unknown): never => {
    if (isUniqueViolation(e)) refuse(key)
    throw e
  }
}
