/**
 * The sessions table: signed-in browsers (cookie) and embedding sites (embed credential). A
 * credential is `<id>.<secret>`; the row keeps only the SHA-256 of the secret.
 */
import type { Kysely, Selectable } from 'kysely'
import type { DB, SessionsTable } from './schema.ts'

export type SessionRow = Selectable<SessionsTable>
export type NewSession = SessionRow
type Db = Kysely<DB>

export async function insertSession(db: Db, row: NewSession): Promise<void> {
  await db.insertInto('sessions').values(row).execute()
}

/** One indexed read by the public id. */
export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function touchSession(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute()
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute()
}

/** Ends every session of a user (password change, reset, disable, role change, delete), but `keep`. */
export async function deleteUserSessions(db: Db, userId: number, keep?: string): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (keep) q = q.where('id', '!=', keep)
  await q.execute()
}

/** Drops a user's sessions past their end (at each new sign-in; an expired row is refused on read anyway). */
export async function deleteExpiredSessions(db: Db, userId: number, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<', now).execute()
}
