import { get, post } from './client.ts'
import type { User } from './types.ts'

/** The bot-check result rides along as ?turnstile= on the calls that accept it. */
const turnstileQuery = (turnstile?: string) => (turnstile ? { turnstile } : undefined)

export interface RegisterBody {
  username: string
  password: string
  password2: string
  email: string
  verification_code: string
  aff_code: string
}

export async function register(body: RegisterBody, turnstile?: string): Promise<string> {
  return (await post<null>('/api/user/register', body, turnstileQuery(turnstile))).message
}

export async function login(username: string, password: string, turnstile?: string): Promise<User> {
  return (await post<User>('/api/user/login', { username, password }, turnstileQuery(turnstile))).data
}

export async function logout(): Promise<void> {
  await get<null>('/api/user/logout')
}

/** GET /api/user/self. Quiet: a background refresh; a 401 still expires the session. */
export async function self(): Promise<User> {
  return (await get<User>('/api/user/self', undefined, { quiet: true })).data
}

/** GET /api/verification: mails a registration code. */
export async function sendVerification(email: string, turnstile?: string): Promise<void> {
  await get<null>('/api/verification', { email, turnstile: turnstile ?? '' })
}

/** GET /api/reset_password: mails a reset link. */
export async function requestPasswordReset(email: string, turnstile?: string): Promise<void> {
  await get<null>('/api/reset_password', { email, turnstile: turnstile ?? '' })
}

/** POST /api/user/reset: returns the new password. */
export async function confirmPasswordReset(email: string, token: string): Promise<string> {
  return (await post<string>('/api/user/reset', { email, token })).data
}
