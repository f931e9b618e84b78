import type { Kysely, Selectable } from 'kysely'
import type { ChannelsTable, DB } from './schema.ts'
import { splitList } from '../../domain/text.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'

export type ChannelRow = Selectable<ChannelsTable>

/** Rows per INSERT: 6 parameters each keeps us far below SQLite's and PostgreSQL's limits. */
const CHUNK = 500

type AbilitySource = Pick<ChannelRow, 'id' | 'group' | 'models' | 'status' | 'priority' | 'weight'>

/** The abilities a channel grants: one row per group x model, enabled when the channel is. */
export function abilitiesOf(channel: AbilitySource) {
  const enabled = channel.status === CHANNEL_STATUS.enabled ? 1 : 0
  const rows = []
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({ group, model, channel_id: channel.id, enabled, priority: channel.priority, weight: channel.weight })
    }
  }
  return rows
}

/** Removes the abilities of the given channels. Run it inside the transaction that changes them. */
export async function deleteAbilities(db: Kysely<DB>, channelIds: readonly number[]): Promise<void> {
  for (let i = 0; i < channelIds.length; i += CHUNK) {
    await db
      .deleteFrom('abilities')
      .where('channel_id', 'in', channelIds.slice(i, i + CHUNK))
      .execute()
  }
}

async function insertAbilities(db: Kysely<DB>, channels: readonly AbilitySource[]): Promise<void> {
  const rows = channels.flatMap(abilitiesOf)
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('abilities')
      .values(rows.slice(i, i + CHUNK))
      .execute()
  }
}

/**
 * Replaces the abilities of each channel by those its current group, models, status, priority and
 * weight grant. Pass the transaction that wrote the channels so both commit together.
 */
export async function rebuildAbilities(db: Kysely<DB>, channels: readonly AbilitySource[]): Promise<void> {
  await deleteAbilities(
    db,
    channels.map((c) => c.id),
  )
  await insertAbilities(db, channels)
}

/**
 * Every ability rebuilt from the channels (POST /channel/fix): the table emptied, then filled a
 * page of channels at a time so a large table never sits in memory at once. Returns the channels read.
 */
export async function rebuildAllAbilities(db: Kysely<DB>): Promise<number> {
  await db.deleteFrom('abilities').execute()
  let done = 0
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('channels')
      .select(['id', 'group', 'models', 'status', 'priority', 'weight'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)
      .execute()
    if (rows.length === 0) return done
    await insertAbilities(db, rows)
    done += rows.length
    after = rows[rows.length - 1]!.id
  }
}

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
