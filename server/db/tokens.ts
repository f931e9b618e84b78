/**
 * The tokens table, as the console reads and writes it (every call is scoped to the token's owner).
 * The relay reads tokens into memory itself and writes their balances through the ledger.
 */
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { Database } from './index.ts'
import type { DB, TokensTable } from './schema.ts'
import { startsWithExact } from './dialect.ts'
import { containsText, isUniqueViolation } from '../lib/query.ts'
import { randomKey } from '../lib/users.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { effectiveTokenStatus, tokenLimitSql } from '../../domain/token-rules.ts'

export type TokenRow = Selectable<TokensTable>
export type NewToken = Omit<Insertable<TokensTable>, 'key' | 'status'>
export type TokenChanges = Omit<Updateable<TokensTable>, 'id' | 'user_id' | 'key'>

/** Characters of a generated key (stored without the sk- prefix the client adds). */
const KEY_LENGTH = 48

export function listTokens(db: Kysely<DB>, userId: number, page: number, size: number): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(size)
    .offset(page * size)
    .execute()
}

/** The owner's tokens whose name contains `name` (any case) and whose key starts with `keyPrefix`. */
export function searchTokens(database: Database, userId: number, s: { name: string; keyPrefix: string }, limit: number) {
  let query = database.db.selectFrom('tokens').selectAll().where('user_id', '=', userId)
  if (s.name) query = query.where(containsText('name', s.name))
  if (s.keyPrefix) query = query.where(startsWithExact(database.dialect, 'key', s.keyPrefix))
  return query.orderBy('id', 'desc').limit(limit).execute()
}

export function findToken(db: Kysely<DB>, userId: number, id: number): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
}

/** Inserts a token with a fresh random key (drawn again on the rare clash); its status follows its limits. */
export async function insertToken(db: Kysely<DB>, values: NewToken, now: number): Promise<TokenRow> {
  const status = effectiveTokenStatus(
    {
      status: TOKEN_STATUS.enabled,
      expired_time: values.expired_time ?? -1,
      unlimited_quota: values.unlimited_quota ?? 0,
      remain_quota: values.remain_quota ?? 0,
    },
    now,
  )
  for (let attempt = 0; ; attempt++) {
    try {
      return await db
        .insertInto('tokens')
        .values({ ...values, key: randomKey(KEY_LENGTH), status })
        .returningAll()
        .executeTakeFirstOrThrow()
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 2) throw e
    }
  }
}

/** Changes the owner's token; the row after the change, or undefined when there is no such token. */
export async function updateToken(db: Kysely<DB>, userId: number, id: number, changes: TokenChanges): Promise<TokenRow | undefined> {
  if (Object.keys(changes).length === 0) return findToken(db, userId, id)
  return db.updateTable('tokens').set(changes).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst()
}

/**
 * Enables or disables the owner's token. Enabling checks the expiry and quota limits in the same
 * statement, on the row as stored, so no race can slip past them. Returns the row as it stands
 * and whether the status was written (undefined: no such token).
 */
export async function setTokenStatus(
  db: Kysely<DB>,
  userId: number,
  id: number,
  status: number,
  now: number,
): Promise<{ row: TokenRow; written: boolean } | undefined> {
  let update = db.updateTable('tokens').set({ status }).where('id', '=', id).where('user_id', '=', userId)
  if (status === TOKEN_STATUS.enabled) {
    const limit = tokenLimitSql(now)
    update = update.where(sql<boolean>`(not (${sql.raw(limit.expired)}) and not (${sql.raw(limit.exhausted)}))`)
  }
  const written = await update.returningAll().executeTakeFirst()
  if (written) return { row: written, written: true }
  const row = await findToken(db, userId, id)
  return row && { row, written: false }
}

export async function deleteToken(db: Kysely<DB>, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}

/**
 * Stores the expired (3) or exhausted (4) status of the owner's enabled tokens among `ids` that
 * have reached a limit. The CASE runs on the row as it is at write time, so a concurrent top-up
 * or edit is never overwritten. Returns the new status of each token changed.
 */
export async function storeReachedLimits(
  db: Kysely<DB>,
  userId: number,
  ids: readonly number[],
  now: number,
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map()
  const limit = tokenLimitSql(now)
  const rows = await db
    .updateTable('tokens')
    .set({
      status: sql<number>`case when ${sql.raw(limit.expired)} then ${sql.lit(TOKEN_STATUS.expired)} else ${sql.lit(TOKEN_STATUS.exhausted)} end`,
    })
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .where('status', '=', TOKEN_STATUS.enabled)
    // parenthesised whole: kysely joins the conditions with AND and does not wrap a raw one
    .where(sql<boolean>`((${sql.raw(limit.expired)}) or (${sql.raw(limit.exhausted)}))`)
    .returning(['id', 'status'])
    .execute()
  return new Map(rows.map((r) => [r.id, r.status]))
}
