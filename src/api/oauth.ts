import { get } from './client.ts'
import type { User } from './types.ts'

/** GET /api/oauth/state: the anti-forgery state for the code-hosting sign-in. */
export async function state(): Promise<string> {
  return (await get<string>('/api/oauth/state')).data
}

export function githubAuthorizeUrl(clientId: string, state: string): string {
  const q = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' })
  return `https://github.com/login/oauth/authorize?${q}`
}

/** GET /api/oauth/github: message 'bind' when it bound the account, otherwise a sign-in returning the user. */
export async function github(code: string, stateValue: string): Promise<{ bound: boolean; user: User | null }> {
  const res = await get<User | null>('/api/oauth/github', { code, state: stateValue })
  return { bound: res.message === 'bind', user: res.message === 'bind' ? null : res.data }
}

export async function wechat(code: string): Promise<User> {
  return (await get<User>('/api/oauth/wechat', { code })).data
}

export const TELEGRAM_LOGIN_PATH = '/api/oauth/telegram/login'
