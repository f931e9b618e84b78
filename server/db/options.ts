/** The options table: one row a key, every value a string. The OptionStore (server/options.ts) keeps them in memory. */
import type { Kysely } from 'kysely'
import type { DB } from './schema.ts'

type Db = Kysely<DB>

export function readOptions(db: Db): Promise<Array<{ key: string; value: string }>> {
  return db.selectFrom('options').select(['key', 'value']).execute()
}

/** Writes the rows whose keys the table lacks, leaving any a concurrent start wrote. */
export async function insertMissingOptions(db: Db, rows: ReadonlyArray<{ key: string; value: string }>): Promise<void> {
  if (!rows.length) return
  await db
    .insertInto('options')
    .values([...rows])
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
}

export async function saveOption(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('options')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute()
}
