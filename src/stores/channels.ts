import * as channelsApi from '../api/channels.ts'
import type { ChannelBody, ChannelSearch } from '../api/channels.ts'
import type { Channel } from '../api/types.ts'
import { createPagedList } from './paged-list.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'
import { withTestError } from '../../domain/channel-test.ts'
import { ApiError } from '../api/errors.ts'

export type { AccountCheck, ChannelSearch } from '../api/channels.ts'

export interface ChannelFilters {
  /** the ID sort preference: by id descending instead of priority */
  idSort: boolean
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The channels of the administrator list, shared by every element of the page. */
export const channelList = createPagedList<Channel, ChannelFilters>({
  pageSize: 10,
  filters: { idSort: false },
  idOf: (c) => c.id,
  fetchPage: (p, size, f) => channelsApi.list(p, size, f.idSort),
})

/** Searches instead of paging; an empty search lists the pages again. */
export function searchChannels(q: ChannelSearch, empty: boolean): Promise<void> {
  if (empty) return channelList.reload()
  return channelList.showSearch(() => channelsApi.search(q, channelList.$state.get().filters.idSort))
}

/**
 * Tests a channel (with another model if given); resolves to the seconds it took. The row follows
 * the server: a refused test marks it failed (as its stored state does) until a later test passes.
 */
export async function testChannel(c: Channel, model?: string): Promise<number> {
  try {
    const seconds = await channelsApi.test(c.id, model)
    const other_info = withTestError(c.other_info, null)
    channelList.replace({ id: c.id, response_time: Math.round(seconds * 1000), test_time: nowSeconds(), other_info })
    return seconds
  } catch (err) {
    if (err instanceof ApiError && err.status === 200) {
      channelList.replace({ id: c.id, test_time: nowSeconds(), other_info: withTestError(c.other_info, err.message) })
    }
    throw err
  }
}

export async function toggleChannel(c: Channel): Promise<void> {
  const status = c.status === CHANNEL_STATUS.enabled ? CHANNEL_STATUS.manuallyDisabled : CHANNEL_STATUS.enabled
  channelList.replace(await channelsApi.update({ id: c.id, status }))
}

export async function updateChannel(body: ChannelBody & { id: number }): Promise<void> {
  channelList.replace(await channelsApi.update(body))
}

/** Copies a channel (read in full, with its key) as `bodyOf` makes it; false when either call failed. */
export async function copyChannel(c: Channel, bodyOf: (full: Channel) => ChannelBody): Promise<boolean> {
  try {
    await channelsApi.create(bodyOf(await channelsApi.one(c.id, true)))
  } catch {
    return false
  }
  await channelList.reload()
  return true
}

export async function removeChannel(c: Channel): Promise<void> {
  await channelsApi.remove(c.id)
  channelList.remove(c.id)
}

export async function removeChannels(ids: number[]): Promise<number> {
  const n = await channelsApi.removeMany(ids)
  channelList.remove(...ids)
  return n
}

export async function updateBalance(c: Channel): Promise<void> {
  const balance = await channelsApi.updateBalance(c.id)
  channelList.replace({ id: c.id, balance, balance_updated_time: nowSeconds() })
}

/** The channel-wide operations answer and then list the channels again. */
async function thenReload<R>(run: Promise<R>): Promise<R> {
  const result = await run
  await channelList.reload()
  return result
}

export const testAllChannels = () => channelsApi.testAll()
export const updateAllBalances = () => thenReload(channelsApi.updateAllBalances())
export const removeDisabledChannels = () => thenReload(channelsApi.removeDisabled())
export const checkAccounts = (act: channelsApi.AccountCheck) => thenReload(channelsApi.checkAccounts(act))
export const fixAbilities = () => thenReload(channelsApi.fix())

/** One channel in full, its key included (the edit drawer). Quiet: the drawer shows the failure. */
export const loadChannel = (id: number): Promise<Channel> => channelsApi.one(id, true)

/** Creates a channel, or one per key line (batch); the list starts again on the first page. */
export async function createChannels(body: ChannelBody): Promise<Channel[]> {
  const created = await channelsApi.create(body)
  void channelList.reload()
  return created
}

/** Saves the edit form; the row shows what the server stored. */
export async function saveChannel(id: number, body: ChannelBody): Promise<Channel> {
  const updated = await channelsApi.update({ ...body, id })
  channelList.replace(updated)
  return updated
}

/**
 * The model ids of a channel: through the server for a saved channel whose key it holds, else
 * asked of the upstream by the browser with the typed key. Throws UpstreamError when that fails.
 */
export function fetchChannelModels(id: number | null, baseUrl: string, typedKey: string): Promise<string[]> {
  return id !== null && !typedKey ? channelsApi.fetchModels(id) : channelsApi.upstreamModels(baseUrl, typedKey)
}
