import * as usersApi from '../api/users.ts'
import type { ManageAction } from '../api/users.ts'
import type { User } from '../api/types.ts'
import { createPagedList } from './paged-list.ts'

export type { ManageAction } from '../api/users.ts'

/** The users of the administrator list (10 per call, spec section 7), shared by every element of the page. */
export const userList = createPagedList<User, Record<string, never>>({
  pageSize: 10,
  filters: {},
  idOf: (u) => u.id,
  fetchPage: (p) => usersApi.list(p),
})

/** Searches by keyword and group; neither lists the pages again. */
export function searchUsers(keyword: string, group: string): Promise<void> {
  if (!keyword.trim() && !group) return userList.reload()
  return userList.showSearch(() => usersApi.search(keyword, group))
}

/** Promotes, demotes, disables, enables or deletes a user; the row follows what the server stored. */
export async function manageUser(u: User, action: ManageAction): Promise<void> {
  const next = await usersApi.manage(u.username, action)
  if (action === 'delete') userList.remove(u.id)
  else userList.replace({ id: u.id, status: next.status, role: next.role })
}

/** The group names (the keys of GroupRatio); none when the call fails. */
export const loadGroups = (): Promise<string[]> => usersApi.groups().catch(() => [])
