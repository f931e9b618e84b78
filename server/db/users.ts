/**
 * The users table: every query the console API makes on it. Functions take the database or a
 * transaction (a Kysely<DB> either way), so a caller can join several in one transaction.
 */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { DB, UsersTable } from './schema.ts'
import type { Dialect } from './index.ts'
import { containsText } from '../lib/query.ts'
import { DEFAULT_GROUP, USER_STATUS } from '../../domain/roles.ts'

export type UserRow = Selectable<UsersTable>
type Db = Kysely<DB>

/** The columns that hold an outside account's id (sign-in with GitHub, WeChat, Telegram). */
export type OutsideAccountColumn = 'github_id' | 'wechat_id' | 'telegram_id'

/** What a new account is written with; every other column takes its default. */
export interface NewUser {
  username: string
  /** the bcrypt hash */
  password: string
  display_name: string
  role: number
  quota: number
  created_time: number
  email?: string
  aff_code?: string | null
  inviter_id?: number
  outside?: { column: OutsideAccountColumn; id: string }
}

/** The columns the console may change on an existing account. */
export type UserChanges = Pick<
  Updateable<UsersTable>,
  'username' | 'display_name' | 'password' | 'quota' | 'group' | 'email' | 'access_token' | 'aff_code'
>

export function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst()
}

/** The live (not cancelled) account a sign-in names: by username, or by its e-mail address. */
export function findUserBySignInName(db: Db, name: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username', '=', name), eb.and([eb('email', '=', name), eb('email', '!=', '')])]))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

/** The live account holding this system access token. */
export function findUserByAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('access_token', '=', token).where('deleted_at', 'is', null).executeTakeFirst()
}

/** The live account bound to this outside account (the oldest, should there be several). */
export function findUserByOutsideAccount(db: Db, column: OutsideAccountColumn, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(column, '=', id).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst()
}

/** E-mail addresses compare without regard to case. */
const sameEmail = (email: string, column = 'email') => sql<boolean>`lower(${sql.ref(column)}) = ${email.toLowerCase()}`

/** The live account using this e-mail address (the oldest, should there be several). */
export function findUserByEmail(db: Db, email: string): Promise<Pick<UserRow, 'id'> | undefined> {
  return db.selectFrom('users').select('id').where(sameEmail(email)).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst()
}

/** True when any account, cancelled ones included, has this username (or, when given, this e-mail). */
export async function usernameTaken(db: Db, username: string, email = ''): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => (email ? eb.or([eb('username', '=', username), eb('email', '=', email)]) : eb('username', '=', username)))
    .executeTakeFirst()
  return row !== undefined
}

/** True when an account other than `exceptId`, cancelled ones included, uses this e-mail address. */
export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where(sameEmail(email))
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
  return (await q.executeTakeFirst()) !== undefined
}

export async function affCodeTaken(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst()) !== undefined
}

/** The live account an invite code belongs to. */
export function findInviter(db: Db, affCode: string): Promise<Pick<UserRow, 'id' | 'username'> | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('aff_code', '=', affCode)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function highestUserId(db: Db): Promise<number> {
  const top = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst()
  return Number(top?.max ?? 0)
}

/** One page of every account, cancelled ones included, newest first. */
export function listUsers(db: Db, page: number, size: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
    .execute()
}

/**
 * Accounts whose username, display name or e-mail contains the keyword (a number also matches the
 * id), in a group when one is given; newest first, at most `limit`.
 */
export function searchUsers(db: Db, keyword: string, group: string, limit: number): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll()
  if (keyword) {
    q = q.where((eb) => {
      const any = [containsText('username', keyword), containsText('display_name', keyword), containsText('email', keyword)]
      if (/^\d{1,15}$/.test(keyword)) any.unshift(eb('id', '=', Number(keyword)))
      return eb.or(any)
    })
  }
  if (group) q = q.where('group', '=', group)
  return q.orderBy('id', 'desc').limit(limit).execute()
}

export function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const { outside, ...fields } = user
  return db
    .insertInto('users')
    .values({
      status: USER_STATUS.enabled,
      group: DEFAULT_GROUP,
      ...fields,
      ...(outside && { [outside.column]: outside.id }),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Writes the changes and answers the account as it now is. */
export async function updateUser(db: Db, id: number, changes: UserChanges): Promise<UserRow> {
  if (Object.keys(changes).length) await db.updateTable('users').set(changes).where('id', '=', id).execute()
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** Reads an account inside a transaction that is about to change it (a row lock on PostgreSQL; SQLite has one writer). */
export function findUserForUpdate(tx: Db, dialect: Dialect, id: number): Promise<UserRow | undefined> {
  const q = tx.selectFrom('users').selectAll().where('id', '=', id)
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst()
}

/** Adds quota to the balance, in one statement. */
export async function addQuota(db: Db, id: number, amount: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ quota: sql`quota + ${amount}` })
    .where('id', '=', id)
    .execute()
}

/** Counts an invitee and adds the reward to the inviter's invite quota (spendable once transferred). */
export async function rewardInviter(db: Db, id: number, reward: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      aff_count: sql`aff_count + 1`,
      aff_quota: sql`aff_quota + ${reward}`,
      aff_history_quota: sql`aff_history_quota + ${reward}`,
    })
    .where('id', '=', id)
    .execute()
}

/** Moves invite quota to the balance; false (and nothing moved) when there is not that much. */
export async function moveInviteQuota(db: Db, id: number, quota: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ aff_quota: sql`aff_quota - ${quota}`, quota: sql`quota + ${quota}` })
    .where('id', '=', id)
    .where('aff_quota', '>=', quota)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * Sets role and status, only if both are still what the caller read: a concurrent promote or
 * demote is never overwritten. False when the account changed meanwhile.
 */
export async function setRoleAndStatus(
  db: Db,
  read: Pick<UserRow, 'id' | 'role' | 'status'>,
  next: { role: number; status: number },
): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set(next)
    .where('id', '=', read.id)
    .where('role', '=', read.role)
    .where('status', '=', read.status)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Cancels an account (the user deleted it): it stays, marked, and loses its access token. */
export async function cancelUser(db: Db, id: number, at: number): Promise<void> {
  await db.updateTable('users').set({ deleted_at: at, access_token: null }).where('id', '=', id).execute()
}

/** Deletes an account and its tokens for good, in one transaction; answers the ids of the tokens. */
export function deleteUserForGood(db: Db, id: number): Promise<number[]> {
  return db.transaction().execute(async (tx) => {
    const gone = await tx.deleteFrom('tokens').where('user_id', '=', id).returning('id').execute()
    await tx.deleteFrom('users').where('id', '=', id).execute()
    return gone.map((t) => t.id)
  })
}

/**
 * Sets a column only one account may hold (an outside account id, an e-mail address), unless
 * another account holds the value already: false then, and nothing written. Cancelled accounts
 * keep their e-mail address but free their outside accounts.
 */
export async function claimForUser(db: Db, id: number, column: OutsideAccountColumn | 'email', value: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ [column]: value })
    .where('id', '=', id)
    .where(({ not, exists, selectFrom }) => {
      let other = selectFrom('users as other').select('other.id').where('other.id', '!=', id)
      other =
        column === 'email'
          ? other.where(sameEmail(value, 'other.email'))
          : other.where(`other.${column}`, '=', value).where('other.deleted_at', 'is', null)
      return not(exists(other))
    })
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
