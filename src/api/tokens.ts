import { del, get, post, put } from './client.ts'
import type { Token } from './types.ts'

/** The fields of a token the create and edit calls send (spec section 7). */
export interface TokenBody {
  name: string
  remain_quota: number
  /** unix seconds, or -1: never expires */
  expired_time: number
  /** comma-joined model names */
  model_limits: string
  model_limits_enabled: boolean
  unlimited_quota: boolean
}

/** GET /api/token/?p=&size=: one page of my tokens, newest first (p from 0). Quiet: the list shows its own error. */
export async function list(p: number, size: number): Promise<Token[]> {
  return (await get<Token[]>('/api/token/', { p, size }, { quiet: true })).data ?? []
}

/** GET /api/token/search?keyword=&token=: tokens by name and by key (with or without sk-). */
export async function search(keyword: string, token: string): Promise<Token[]> {
  return (await get<Token[]>('/api/token/search', { keyword, token })).data ?? []
}

export async function load(id: number): Promise<Token> {
  return (await get<Token>(`/api/token/${id}`)).data
}

/** POST /api/token/: one call per token created. */
export async function create(body: TokenBody): Promise<Token> {
  return (await post<Token>('/api/token/', body)).data
}

/** PUT /api/token/: the token fields plus id. */
export async function update(id: number, body: Partial<TokenBody>): Promise<Token> {
  return (await put<Token>('/api/token/', { ...body, id })).data
}

/** PUT /api/token/?status_only=true: enable (1) or disable (2); returns the status the server stored. */
export async function setStatus(id: number, status: 1 | 2): Promise<number> {
  return (await put<Token>('/api/token/', { id, status }, { status_only: true })).data.status
}

/** DELETE /api/token/{id}/ */
export async function remove(id: number): Promise<void> {
  await del<null>(`/api/token/${id}/`)
}

/** GET /api/user/models: the models the user's group may call (the choices of model limits). */
export async function userModels(): Promise<string[]> {
  return (await get<string[]>('/api/user/models')).data ?? []
}
