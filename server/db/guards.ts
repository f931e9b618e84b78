/**
 * guard_entries: the short-lived state of the sign-in guards, in the database so that every
 * instance behind a load balancer sees the same (issue 10, several instances), and a restart
 * forgets nothing still in force:
 * - one-time proofs (a Telegram widget answer, an OAuth or bind state): used once, everywhere;
 * - e-mail codes and reset links, kept as their SHA-256, spent once, dropped after too many misses;
 * - failure counters (sign-in per account and per address).
 * Times are milliseconds. An entry past `expires_at` counts as absent; a sweep deletes those.
 */
import { createHash } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DB } from './schema.ts'

type Db = Kysely<DB>

export const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex')

/** True the first time `id` is used before `expiresAt`; false while an earlier use is in force. */
export async function useOnce(db: Db, id: string, expiresAt: number, now: number): Promise<boolean> {
  const row = await db
    .insertInto('guard_entries')
    .values({ id, count: 1, started_at: now, last_at: now, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ count: 1, started_at: now, last_at: now, expires_at: expiresAt })
        .where('guard_entries.expires_at', '<', now),
    )
    .returning('id')
    .executeTakeFirst()
  void sweep(db, now)
  return row !== undefined
}

/** Keeps `secret` (as its hash) under `id` until `expiresAt`, replacing what was there. */
export async function putSecret(db: Db, id: string, secret: string, expiresAt: number, now: number): Promise<void> {
  const value = hashOf(secret)
  await db
    .insertInto('guard_entries')
    .values({ id, value, count: 0, started_at: now, last_at: now, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ value, count: 0, started_at: now, last_at: now, expires_at: expiresAt }))
    .execute()
  void sweep(db, now)
}

/**
 * True once for the secret kept under `id` (spending it, atomically: of two instances checking
 * the same code at once, one wins). A wrong guess is counted; at `maxMisses` the entry is dropped.
 */
export async function takeSecret(db: Db, id: string, secret: string, now: number, maxMisses: number): Promise<boolean> {
  const spent = await db
    .deleteFrom('guard_entries')
    .where('id', '=', id)
    .where('value', '=', hashOf(secret))
    .where('expires_at', '>=', now)
    .returning('id')
    .executeTakeFirst()
  if (spent) return true
  const missed = await db
    .updateTable('guard_entries')
    .set({ count: sql<number>`count + 1`, last_at: now })
    .where('id', '=', id)
    .returning(['count', 'expires_at'])
    .executeTakeFirst()
  if (missed && (Number(missed.count) >= maxMisses || Number(missed.expires_at) < now)) {
    await db.deleteFrom('guard_entries').where('id', '=', id).execute()
  }
  return false
}

export interface Counter {
  count: number
  startedAt: number
  lastAt: number
}

/** The counter under `id`, or null (never counted, or expired). */
export async function readCounter(db: Db, id: string, now: number): Promise<Counter | null> {
  const row = await db
    .selectFrom('guard_entries')
    .select(['count', 'started_at', 'last_at'])
    .where('id', '=', id)
    .where('expires_at', '>=', now)
    .executeTakeFirst()
  return row ? { count: Number(row.count), startedAt: Number(row.started_at), lastAt: Number(row.last_at) } : null
}

/**
 * Adds one to the counter under `id` (in one statement, so instances counting at once lose no
 * count). A counter that expired, or began before `windowStart`, starts again at one.
 */
export async function countOne(db: Db, id: string, now: number, expiresAt: number, windowStart = 0): Promise<void> {
  const fresh = sql<boolean>`guard_entries.expires_at < ${now} OR guard_entries.started_at < ${windowStart}`
  await db
    .insertInto('guard_entries')
    .values({ id, count: 1, started_at: now, last_at: now, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        count: sql<number>`CASE WHEN ${fresh} THEN 1 ELSE guard_entries.count + 1 END`,
        started_at: sql<number>`CASE WHEN ${fresh} THEN ${now} ELSE guard_entries.started_at END`,
        last_at: now,
        expires_at: expiresAt,
      }),
    )
    .execute()
  void sweep(db, now)
}

export async function forget(db: Db, id: string): Promise<void> {
  await db.deleteFrom('guard_entries').where('id', '=', id).execute()
}

const lastSweep = new WeakMap<Db, number>()

/** Deletes expired entries, at most once a minute per database handle (errors are left to the next one). */
async function sweep(db: Db, now: number): Promise<void> {
  if (now - (lastSweep.get(db) ?? 0) < 60_000) return
  lastSweep.set(db, now)
  try {
    await db.deleteFrom('guard_entries').where('expires_at', '<', now).execute()
  } catch {
    /* the next write sweeps again */
  }
}
