/**
 * One-time, short-lived proofs for the flows that come back through a browser navigation (the
 * Telegram widget, the GitHub callback): a state tied to the session that started the flow, and
 * a memory of the answers already used until they would have expired anyway. The memory is in
 * the database (server/db/guards.ts): an answer used on one instance is refused on every other.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { useOnce } from '../db/guards.ts'

/** True the first time `value` is used for `purpose` before `until` (seconds), on any instance. */
export function useOnceBefore(db: Kysely<DB>, purpose: string, value: string, until: number, now: number): Promise<boolean> {
  return useOnce(db, `once:${purpose}:${value}`, until * 1000, now * 1000)
}

const mac = (secret: string, purpose: string, sessionId: string, rest: string) =>
  createHmac('sha256', secret).update(`${purpose}\0${sessionId}\0${rest}`).digest('base64url')

/** A state `<until>.<nonce>.<mac>` for `purpose`, good only for this session until `until`. */
export function issueState(secret: string, purpose: string, sessionId: string, until: number): string {
  const rest = `${until}.${randomBytes(12).toString('base64url')}`
  return `${rest}.${mac(secret, purpose, sessionId, rest)}`
}

/** True once for a state issued to this session for this purpose, and not expired. */
export async function spendState(
  db: Kysely<DB>,
  secret: string,
  purpose: string,
  sessionId: string,
  state: string,
  now: number,
): Promise<boolean> {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(state)
  if (!m) return false
  const until = Number(m[1])
  const want = Buffer.from(mac(secret, purpose, sessionId, `${m[1]}.${m[2]}`))
  const got = Buffer.from(m[3]!)
  if (want.length !== got.length || !timingSafeEqual(want, got) || until < now) return false
  return useOnceBefore(db, purpose, m[2]!, until, now)
}
