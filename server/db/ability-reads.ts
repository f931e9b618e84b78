/**
 * What the abilities table grants, as the account and pricing calls read it (the channel routes
 * write it). Only enabled abilities count.
 */
import type { Kysely } from 'kysely'
import type { DB } from './schema.ts'

/** The models a group may use, by name. */
export async function modelsOfGroup(db: Kysely<DB>, group: string): Promise<string[]> {
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute()
  return rows.map((r) => r.model)
}

/** Every model some group may use, each with the groups that may. */
export async function groupsByModel(db: Kysely<DB>): Promise<Map<string, Set<string>>> {
  const rows = await db.selectFrom('abilities').select(['model', 'group']).distinct().where('enabled', '=', 1).execute()
  const out = new Map<string, Set<string>>()
  for (const r of rows) {
    let groups = out.get(r.model)
    if (!groups) out.set(r.model, (groups = new Set()))
    groups.add(r.group)
  }
  return out
}
