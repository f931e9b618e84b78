import * as redemptionsApi from '../api/redemptions.ts'
import type { Redemption } from '../api/types.ts'
import { createPagedList } from './paged-list.ts'
import { REDEMPTION_STATUS } from '../../domain/statuses.ts'

/** The redemption codes of the administrator list (10 per call, spec section 7), shared by every element of the page. */
export const redemptionList = createPagedList<Redemption, Record<string, never>>({
  pageSize: 10,
  filters: {},
  idOf: (r) => r.id,
  fetchPage: (p) => redemptionsApi.list(p),
})

/** Searches by id or the start of the name; an empty keyword lists the pages again. */
export function searchRedemptions(keyword: string): Promise<void> {
  if (!keyword.trim()) return redemptionList.reload()
  return redemptionList.showSearch(() => redemptionsApi.search(keyword))
}

export async function toggleRedemption(r: Redemption): Promise<void> {
  const next = r.status === REDEMPTION_STATUS.unused ? REDEMPTION_STATUS.disabled : REDEMPTION_STATUS.unused
  redemptionList.replace(await redemptionsApi.setStatus(r.id, next))
}

export async function removeRedemption(r: Redemption): Promise<void> {
  await redemptionsApi.remove(r.id)
  redemptionList.remove(r.id)
}
