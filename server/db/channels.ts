/**
 * The channels table. A channel's abilities (server/db/abilities.ts) are written in the same
 * transaction as the channel, so the relay never routes by a half-written channel.
 */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Database } from './index.ts'
import type { ChannelsTable, DB } from './schema.ts'
import { deleteAbilities, rebuildAbilities, rebuildAllAbilities } from './abilities.ts'
import { locksRows } from './dialect.ts'
import { containsText } from '../lib/query.ts'
import { disabledInfo, type Reason } from '../lib/status-reason.ts'
import { splitList } from '../../domain/text.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'

export type ChannelRow = Selectable<ChannelsTable>
export type NewChannel = Insertable<ChannelsTable>
export type ChannelChanges = Updateable<ChannelsTable>

/** Rows per statement when many channels are written or read at once. */
const CHUNK = 200

/** Lists: by priority (highest first), or newest first when sorted by id. */
function ordered<Q extends { orderBy(column: 'id' | 'priority', dir: 'asc' | 'desc'): Q }>(query: Q, idSort: boolean): Q {
  return idSort ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc')
}

export function listChannels(db: Kysely<DB>, opts: { page: number; size: number; idSort: boolean }): Promise<ChannelRow[]> {
  return ordered(db.selectFrom('channels').selectAll(), opts.idSort)
    .limit(opts.size)
    .offset(opts.page * opts.size)
    .execute()
}

export interface ChannelSearch {
  /** an id, part of the name (any case), or a whole key */
  keyword: string
  /** one group or one model the channel serves ('' for any) */
  group: string
  model: string
  status?: number
  idSort: boolean
}

export async function searchChannels(db: Kysely<DB>, s: ChannelSearch): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll()
  if (s.keyword) {
    const id = /^[0-9]{1,15}$/.test(s.keyword) ? Number(s.keyword) : null
    query = query.where((eb) =>
      eb.or([...(id !== null ? [eb('id', '=', id)] : []), containsText('name', s.keyword), eb('key', '=', s.keyword)]),
    )
  }
  if (s.status !== undefined) query = query.where('status', '=', s.status)
  const rows = await ordered(query, s.idSort).execute()
  // groups and models are comma lists: matched whole, entry by entry
  return rows.filter((r) => (!s.group || splitList(r.group).includes(s.group)) && (!s.model || splitList(r.models).includes(s.model)))
}

export function findChannel(db: Kysely<DB>, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Channels of one type and any of these statuses, oldest first (the account checks of POST /channel/dooy). */
export function channelsOfType(db: Kysely<DB>, type: number, statuses: readonly number[], limit: number): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().where('type', '=', type).where('status', 'in', statuses).orderBy('id').limit(limit).execute()
}

/** Inserts the channels and their abilities in one transaction; returns the rows as stored. */
export function insertChannels(db: Kysely<DB>, values: readonly NewChannel[]): Promise<ChannelRow[]> {
  return db.transaction().execute(async (tx) => {
    const rows: ChannelRow[] = []
    for (let i = 0; i < values.length; i += CHUNK) {
      rows.push(
        ...(await tx
          .insertInto('channels')
          .values(values.slice(i, i + CHUNK))
          .returningAll()
          .execute()),
      )
    }
    await rebuildAbilities(tx, rows)
    return rows
  })
}

/**
 * Applies changes to a channel and rebuilds its abilities, in one transaction; null when there is
 * no such channel. `complete` sees the stored type and `other` first, to fill what depends on them.
 * PostgreSQL locks the row first, so two rebuilds (or a rebuild and a delete) never interleave on
 * one channel and a delete always sees the abilities an update just wrote.
 */
export function updateChannel(
  database: Database,
  id: number,
  changes: ChannelChanges,
  complete: (current: Pick<ChannelRow, 'type' | 'other'>) => ChannelChanges = () => changes,
): Promise<ChannelRow | null> {
  return database.db.transaction().execute(async (tx) => {
    let find = tx.selectFrom('channels').select(['type', 'other']).where('id', '=', id)
    if (locksRows(database.dialect)) find = find.forUpdate()
    const current = await find.executeTakeFirst()
    if (!current) return null
    const all = complete(current)
    if (Object.keys(all).length) await tx.updateTable('channels').set(all).where('id', '=', id).execute()
    const row = await tx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    await rebuildAbilities(tx, [row])
    return row
  })
}

/** Deletes the channels (those that exist) and their abilities; returns the ids deleted. */
export function deleteChannels(db: Kysely<DB>, ids: readonly number[]): Promise<number[]> {
  return db.transaction().execute(async (tx) => {
    const gone: number[] = []
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await tx
        .deleteFrom('channels')
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .returning('id')
        .execute()
      gone.push(...rows.map((r) => r.id))
    }
    await deleteAbilities(tx, gone)
    return gone
  })
}

/**
 * Deletes every disabled channel (manually or automatically). The status test sits in the DELETE
 * itself, so a channel enabled meanwhile is kept. Returns the ids deleted.
 */
export function deleteDisabledChannels(db: Kysely<DB>): Promise<number[]> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .deleteFrom('channels')
      .where('status', 'in', [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled])
      .returning('id')
      .execute()
    const gone = rows.map((r) => r.id)
    await deleteAbilities(tx, gone)
    return gone
  })
}

/** Rebuilds every ability from the channels (POST /channel/fix); returns how many channels there are. */
export function rebuildEveryAbility(database: Database): Promise<number> {
  return database.db.transaction().execute(async (tx) => {
    if (locksRows(database.dialect)) await tx.selectFrom('channels').select('id').forUpdate().execute()
    return rebuildAllAbilities(tx)
  })
}

/** What an account check decided: channels to disable automatically (with why, as data) and to enable again. */
export interface CheckVerdicts {
  disable: ReadonlyArray<{ id: number; reason: Reason }>
  enable: readonly number[]
}

/**
 * Applies account-check verdicts in one transaction. Only an enabled channel is disabled, and only
 * an automatically disabled one enabled, as the row stands at write time (an administrator's change
 * meanwhile wins). Returns the ids changed each way; their abilities follow.
 */
export function applyCheckVerdicts(db: Kysely<DB>, v: CheckVerdicts, now: number): Promise<{ enabled: number[]; disabled: number[] }> {
  return db.transaction().execute(async (tx) => {
    const moved = async (id: number, from: number, to: number, otherInfo: string) => {
      const r = await tx
        .updateTable('channels')
        .set({ status: to, other_info: otherInfo })
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    }
    const disabled: number[] = []
    const enabled: number[] = []
    for (const { id, reason } of v.disable) {
      const info = disabledInfo(reason, now)
      if (await moved(id, CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled, info)) disabled.push(id)
    }
    for (const id of v.enable) if (await moved(id, CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled, '')) enabled.push(id)
    const changed = [...enabled, ...disabled]
    for (let i = 0; i < changed.length; i += CHUNK) {
      await rebuildAbilities(
        tx,
        await tx
          .selectFrom('channels')
          .selectAll()
          .where('id', 'in', changed.slice(i, i + CHUNK))
          .execute(),
      )
    }
    return { enabled, disabled }
  })
}
