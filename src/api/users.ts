import { get, post, put } from './client.ts'
import type { User } from './types.ts'

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete'

export interface NewUser {
  username: string
  display_name: string
  password: string
}

export interface UserChanges {
  id: number
  username?: string
  display_name?: string
  password?: string
  group?: string
  quota?: number
}

/** GET /api/user/?p=: 10 per call, newest first. */
export async function list(p: number): Promise<User[]> {
  return (await get<User[]>('/api/user/', { p })).data ?? []
}

/** GET /api/user/search?keyword=&group= */
export async function search(keyword: string, group: string): Promise<User[]> {
  return (await get<User[]>('/api/user/search', { keyword: keyword.trim(), group })).data ?? []
}

/** GET /api/user/{id}. Quiet: the drawer and the info dialog show the failure themselves. */
export async function one(id: number, quiet = false): Promise<User> {
  return (await get<User>(`/api/user/${id}`, undefined, { quiet })).data
}

export async function create(body: NewUser): Promise<User> {
  return (await post<User>('/api/user/', body)).data
}

export async function update(body: UserChanges): Promise<User> {
  return (await put<User>('/api/user/', body)).data
}

/** POST /api/user/manage: the user's status and role afterwards. */
export async function manage(username: string, action: ManageAction): Promise<{ status: number; role: number }> {
  return (await post<{ status: number; role: number }>('/api/user/manage', { username, action })).data
}

/** GET /api/group/: the group names (the keys of GroupRatio). */
export async function groups(): Promise<string[]> {
  return (await get<string[]>('/api/group/', undefined, { quiet: true })).data ?? []
}
