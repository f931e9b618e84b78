import { del, get, post, put } from './client.ts'
import type { User } from './types.ts'

/** The signed-in user's own account: the personal settings tab (spec sections 2 and 7). */

/** GET /api/user/token: a new system access token (the old one stops working). */
export async function accessToken(): Promise<string> {
  return (await get<string>('/api/user/token')).data
}

/** GET /api/user/aff: the invite code. */
export async function affCode(): Promise<string> {
  return (await get<string>('/api/user/aff')).data
}

/** POST /api/user/aff_transfer: moves invite earnings to the balance. */
export async function affTransfer(quota: number): Promise<void> {
  await post<null>('/api/user/aff_transfer', { quota })
}

/** GET /api/user/models: the models the user's group may call. */
export async function models(): Promise<string[]> {
  return (await get<string[]>('/api/user/models')).data ?? []
}

/** PUT /api/user/self with a new password. */
export async function changePassword(password: string): Promise<void> {
  await put<User>('/api/user/self', { password })
}

/** DELETE /api/user/self. */
export async function deleteAccount(): Promise<void> {
  await del<null>('/api/user/self')
}

/** GET /api/verification: mails a code for binding the address (the server sees the session). */
export async function sendBindCode(email: string, turnstile = ''): Promise<void> {
  await get<null>('/api/verification', { email, turnstile })
}

/** GET /api/oauth/email/bind. */
export async function bindEmail(email: string, code: string): Promise<void> {
  await get<null>('/api/oauth/email/bind', { email, code })
}

/** GET /api/oauth/wechat/bind with the code the messaging-app account sent. */
export async function bindWechat(code: string): Promise<void> {
  await get<User>('/api/oauth/wechat/bind', { code })
}

/** GET /api/oauth/telegram/state: the one-time state the widget's bind answer must come back with. */
export async function telegramBindState(): Promise<string> {
  return (await get<string>('/api/oauth/telegram/state')).data
}

/** Where the chat-app widget sends its answer to bind the account. */
export const TELEGRAM_BIND_PATH = '/api/oauth/telegram/bind'
