/**
 * The redemptions table: the administrators' code lists and edits, and redeeming a code (which
 * credits the user and writes the top-up log in the same transaction).
 */
import type { Kysely, Selectable } from 'kysely'
import type { DB, RedemptionsTable } from './schema.ts'
import { startsWithText } from '../lib/query.ts'
import { addQuota } from './users.ts'
import { writeAccountLogs } from './account-logs.ts'
import { REDEMPTION_STATUS } from '../../domain/statuses.ts'

export type RedemptionRow = Selectable<RedemptionsTable>
type Db = Kysely<DB>

export function findRedemption(db: Db, id: number): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst()
}

/** One page of every code, newest first. */
export function listRedemptions(db: Db, page: number, size: number): Promise<RedemptionRow[]> {
  return db
    .selectFrom('redemptions')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
    .execute()
}

/** Codes whose name starts with the keyword (a number also matches the id), newest first, at most `limit`. */
export function searchRedemptions(db: Db, keyword: string, limit: number): Promise<RedemptionRow[]> {
  let q = db.selectFrom('redemptions').selectAll()
  if (keyword) {
    q = q.where((eb) => {
      const any = [startsWithText('name', keyword)]
      if (/^\d{1,15}$/.test(keyword)) any.unshift(eb('id', '=', Number(keyword)))
      return eb.or(any)
    })
  }
  return q.orderBy('id', 'desc').limit(limit).execute()
}

/** Writes a batch of unused codes in one statement: a key that collides writes none of them. */
export async function insertRedemptions(
  db: Db,
  batch: { keys: readonly string[]; name: string; quota: number; userId: number; at: number },
): Promise<void> {
  const rows = batch.keys.map((key) => ({
    user_id: batch.userId,
    key,
    status: REDEMPTION_STATUS.unused,
    name: batch.name,
    quota: batch.quota,
    created_time: batch.at,
  }))
  await db.insertInto('redemptions').values(rows).execute()
}

/** What became of a change: the code as it now is, or why nothing changed. */
export type CodeChange = { row: RedemptionRow } | { refused: 'missing' | 'used' | 'notEditable' }

/** Enables or disables a code; a used code keeps its status. */
export async function setRedemptionStatus(db: Db, id: number, status: number): Promise<CodeChange> {
  const r = await db
    .updateTable('redemptions')
    .set({ status })
    .where('id', '=', id)
    .where('status', '<>', REDEMPTION_STATUS.used)
    .executeTakeFirst()
  const row = await findRedemption(db, id)
  if (!row) return { refused: 'missing' }
  return Number(r.numUpdatedRows) === 1 ? { row } : { refused: 'used' }
}

/** Renames a code or changes its quota: only an unused, enabled code may change. */
export async function editRedemption(db: Db, id: number, changes: { name?: string; quota?: number }): Promise<CodeChange> {
  let updated = 1
  if (Object.keys(changes).length) {
    const r = await db
      .updateTable('redemptions')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', REDEMPTION_STATUS.unused)
      .executeTakeFirst()
    updated = Number(r.numUpdatedRows)
  }
  const row = await findRedemption(db, id)
  if (!row) return { refused: 'missing' }
  return updated === 1 && row.status === REDEMPTION_STATUS.unused ? { row } : { refused: 'notEditable' }
}

export async function deleteRedemption(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}

/**
 * Redeems a code for a user: marks it used, credits its quota and writes the top-up log, in one
 * transaction. The guarded UPDATE is the lock: of any number of concurrent calls exactly one sees
 * a row change. Answers the quota added, or why the code could not be redeemed.
 */
export async function redeemCode(
  db: Db,
  user: { id: number; username: string },
  key: string,
  at: number,
): Promise<{ quota: number } | { refused: 'invalid' | 'disabled' | 'used' }> {
  const quota = await db.transaction().execute(async (tx) => {
    const used = await tx
      .updateTable('redemptions')
      .set({ status: REDEMPTION_STATUS.used, used_user_id: user.id, redeemed_time: at })
      .where('key', '=', key)
      .where('status', '=', REDEMPTION_STATUS.unused)
      .returning(['id', 'quota'])
      .execute()
    if (used.length !== 1) return null
    const { id, quota } = used[0]!
    await addQuota(tx, user.id, quota)
    await writeAccountLogs(tx, [{ userId: user.id, username: user.username, at, detail: { kind: 'topup.redeemed', quota, code_id: id } }])
    return quota
  })
  if (quota !== null) return { quota }
  const row = await db.selectFrom('redemptions').select('status').where('key', '=', key).executeTakeFirst()
  return { refused: !row ? 'invalid' : row.status === REDEMPTION_STATUS.disabled ? 'disabled' : 'used' }
}
