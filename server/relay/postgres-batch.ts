import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { insertLogsSql, logValues } from '../db/log-rows.ts'
import {
  bucketDays,
  bucketValues,
  byDimRow,
  dayDeltas,
  dimValues,
  markDaysSql,
  modelDeltas,
  upsertBucketsSql,
  upsertDaysSql,
  upsertDimsSql,
  upsertModelsSql,
} from '../db/quota-data.ts'
import { markSql } from '../db/ledger-journal.ts'
import { isReachedStatus, markTokenSql, type Fresh, type PlainBatch } from './ledger-batch.ts'

/** Rows per statement: log rows have 15 parameters each, well under PostgreSQL's 65535. */
const LOG_CHUNK = 400
const CHUNK = 500

/** `rows` as parameters of a multi-row statement written as text, `chunk` rows at a time. */
async function inChunks<T>(
  tx: Transaction<DB>,
  rows: readonly T[],
  chunk: number,
  text: (n: number) => string,
  values: (r: T) => unknown[],
) {
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk)
    await tx.executeQuery(CompiledQuery.raw(text(part.length), part.flatMap(values)))
  }
}

/** Adds the quota deltas to the users (ids ascending, so two writers lock rows in the same order). */
async function addToUsers(tx: Transaction<DB>, users: PlainBatch['users'], fresh: Fresh): Promise<void> {
  const sorted = [...users].sort((x, y) => x[0] - y[0])
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const values = sql.join(
      sorted.slice(i, i + CHUNK).map(([id, q, u, c]) => sql`(${id}::bigint, ${q}::bigint, ${u}::bigint, ${c}::bigint)`),
    )
    const r = await sql<{ id: number; quota: number; used_quota: number; request_count: number }>`UPDATE users AS u
      SET quota = u.quota + v.q, used_quota = u.used_quota + v.uq, request_count = u.request_count + v.c
      FROM (VALUES ${values}) AS v(id, q, uq, c) WHERE u.id = v.id RETURNING u.id, u.quota, u.used_quota, u.request_count`.execute(tx)
    for (const row of r.rows) fresh.users.push([Number(row.id), Number(row.quota), Number(row.used_quota), Number(row.request_count)])
  }
}

/** Adds the quota deltas to the tokens (ids ascending) and moves their last-access time forward. */
async function addToTokens(tx: Transaction<DB>, tokens: PlainBatch['tokens'], fresh: Fresh): Promise<void> {
  const sorted = [...tokens].sort((x, y) => x[0] - y[0])
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const values = sql.join(
      sorted.slice(i, i + CHUNK).map(([id, r, u, a]) => sql`(${id}::bigint, ${r}::bigint, ${u}::bigint, ${a}::bigint)`),
    )
    const r = await sql<{ id: number; remain_quota: number; used_quota: number }>`UPDATE tokens AS t
      SET remain_quota = t.remain_quota + v.r, used_quota = t.used_quota + v.uq, accessed_time = GREATEST(t.accessed_time, v.a)
      FROM (VALUES ${values}) AS v(id, r, uq, a) WHERE t.id = v.id RETURNING t.id, t.remain_quota, t.used_quota`.execute(tx)
    for (const row of r.rows) fresh.tokens.push([Number(row.id), Number(row.remain_quota), Number(row.used_quota)])
  }
}

/**
 * Writes a batch in one transaction on PostgreSQL, as relative updates, and returns the balances
 * the rows hold afterwards. Log rows and buckets go as parameterised statements written as text: a
 * query builder would spend milliseconds of the event loop on thousands of value nodes.
 */
export async function writePostgresBatch(db: Kysely<DB>, b: PlainBatch): Promise<Fresh> {
  const fresh: Fresh = { users: [], tokens: [] }
  await db.transaction().execute(async (tx) => {
    await inChunks(tx, b.logs, LOG_CHUNK, (n) => insertLogsSql(n, '$n'), logValues)
    await addToUsers(tx, b.users, fresh)
    await addToTokens(tx, b.tokens, fresh)
    const channels = [...b.channels].sort((x, y) => x[0] - y[0])
    if (channels.length) {
      const values = sql.join(channels.map(([id, d]) => sql`(${id}::bigint, ${d}::bigint)`))
      await sql`UPDATE channels AS c SET used_quota = c.used_quota + v.q FROM (VALUES ${values}) AS v(id, q) WHERE c.id = v.id`.execute(tx)
    }
    for (const [id, st] of b.statuses) {
      if (isReachedStatus(st)) await tx.executeQuery(CompiledQuery.raw(markTokenSql(st, '$1', b.now), [id]))
    }
    await inChunks(tx, b.buckets, CHUNK, (n) => upsertBucketsSql(n, '$n'), bucketValues)
    await inChunks(
      tx,
      modelDeltas(b.buckets),
      CHUNK,
      (n) => upsertModelsSql(n, '$n'),
      (m) => m,
    )
    // in one order of rows, so that two instances' upserts lock the shared rows (everyone's hour, a busy key's day) alike
    await inChunks(tx, [...b.dims].sort(byDimRow), CHUNK, (n) => upsertDimsSql(n, '$n'), dimValues)
    await inChunks(tx, dayDeltas(b.dims).sort(byDimRow), CHUNK, (n) => upsertDaysSql(n, '$n'), dimValues)
    await inChunks(
      tx,
      bucketDays(b.buckets),
      CHUNK,
      (n) => markDaysSql(n, '$n'),
      (d) => [d],
    )
    for (const mark of b.marks) await tx.executeQuery(CompiledQuery.raw(markSql('postgres'), mark))
  })
  return fresh
}

class Short extends Error {
  readonly which: 'user' | 'token'
  constructor(which: 'user' | 'token') {
    super(`${which} quota is not enough`)
    this.which = which
  }
}

/**
 * Takes `amount` from the user's quota and (unless `tokenId` is null: unlimited) the token's
 * balance in one transaction, only where they cover it; users first, as the batch locks them.
 * Returns which one fell short, or null when both were taken.
 */
export async function holdOnPostgres(
  db: Kysely<DB>,
  userId: number,
  tokenId: number | null,
  amount: number,
): Promise<'user' | 'token' | null> {
  try {
    await db.transaction().execute(async (tx) => {
      const u = await sql`UPDATE users SET quota = quota - ${amount} WHERE id = ${userId} AND quota >= ${amount} RETURNING id`.execute(tx)
      if (!u.rows.length) throw new Short('user')
      if (tokenId === null) return
      const t =
        await sql`UPDATE tokens SET remain_quota = remain_quota - ${amount} WHERE id = ${tokenId} AND remain_quota >= ${amount} RETURNING id`.execute(
          tx,
        )
      if (!t.rows.length) throw new Short('token')
    })
    return null
  } catch (err) {
    if (err instanceof Short) return err.which
    throw err
  }
}
