import { del, get, post, put } from './client.ts'
import type { Redemption } from './types.ts'

/** GET /api/redemption/?p=: 10 per call, newest first. */
export async function list(p: number): Promise<Redemption[]> {
  return (await get<Redemption[]>('/api/redemption/', { p })).data ?? []
}

/** GET /api/redemption/search?keyword= (id, or the start of the name) */
export async function search(keyword: string): Promise<Redemption[]> {
  return (await get<Redemption[]>('/api/redemption/search', { keyword: keyword.trim() })).data ?? []
}

export async function one(id: number): Promise<Redemption> {
  return (await get<Redemption>(`/api/redemption/${id}`)).data
}

/** POST /api/redemption/: the generated codes. */
export async function create(body: { name: string; quota: number; count: number }): Promise<string[]> {
  return (await post<string[]>('/api/redemption/', body)).data ?? []
}

export async function update(body: { id: number; name: string; quota: number }): Promise<Redemption> {
  return (await put<Redemption>('/api/redemption/', body)).data
}

/** PUT /api/redemption/?status_only=true: 1 enables, 2 disables. */
export async function setStatus(id: number, status: 1 | 2): Promise<Redemption> {
  return (await put<Redemption>('/api/redemption/', { id, status }, { status_only: true })).data
}

export async function remove(id: number): Promise<void> {
  await del<null>(`/api/redemption/${id}/`)
}
