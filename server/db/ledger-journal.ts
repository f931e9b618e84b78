/**
 * ledger_journal: per journal generation (one run of one instance), the highest entry number the
 * ledger has applied. Written in the same transaction as the batch's quota changes, so a journal
 * replay skips exactly what is already in the ledger (server/relay/journal.ts).
 */
import type { Kysely } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB } from './schema.ts'

/** The statement that records one mark (`gen`, `seq`); placeholders `?` (SQLite) or `$1, $2` (PostgreSQL). */
export function markSql(dialect: Dialect): string {
  return dialect === 'postgres'
    ? 'INSERT INTO ledger_journal (gen, seq) VALUES ($1, $2) ON CONFLICT (gen) DO UPDATE SET seq = GREATEST(ledger_journal.seq, excluded.seq)'
    : 'INSERT INTO ledger_journal (gen, seq) VALUES (?, ?) ON CONFLICT (gen) DO UPDATE SET seq = max(ledger_journal.seq, excluded.seq)'
}

export async function readMarks(db: Kysely<DB>, gens: readonly string[]): Promise<Map<string, number>> {
  if (!gens.length) return new Map()
  const rows = await db
    .selectFrom('ledger_journal')
    .select(['gen', 'seq'])
    .where('gen', 'in', [...gens])
    .execute()
  return new Map(rows.map((r) => [r.gen, Number(r.seq)]))
}

/** Forgets the marks of generations whose files are gone. */
export async function forgetMarks(db: Kysely<DB>, gens: readonly string[]): Promise<void> {
  if (gens.length)
    await db
      .deleteFrom('ledger_journal')
      .where('gen', 'in', [...gens])
      .execute()
}
