/**
 * The outside accounts one may sign in with (spec section 7): asking GitHub and the WeChat login
 * server who a code belongs to, and checking a Telegram login widget's answer. A provider that
 * refuses, or cannot be reached, is a refusal with its reason.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { nowSeconds, refuse } from '../http.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { useOnceBefore } from './one-time.ts'
import { text } from '../i18n/index.ts'
import type { OptionStore } from '../options.ts'
import type { OutsideAccountColumn } from '../db/users.ts'

export type Provider = 'github' | 'wechat' | 'telegram'

/** The users column holding each provider's account id, and the switch that turns it on. */
export const PROVIDER_COLUMN: Readonly<Record<Provider, OutsideAccountColumn>> = {
  github: 'github_id',
  wechat: 'wechat_id',
  telegram: 'telegram_id',
}
export const PROVIDER_SWITCH: Readonly<Record<Provider, string>> = {
  github: 'GitHubOAuthEnabled',
  wechat: 'WeChatAuthEnabled',
  telegram: 'TelegramOAuthEnabled',
}

/** how old a Telegram login-widget answer may be; each answer is accepted once within it */
export const TELEGRAM_MAX_AGE_SECONDS = 5 * 60
const FETCH_TIMEOUT_MS = 10_000

export interface Profile {
  id: string
  displayName: string
  email: string
}

async function getJson(url: string, init: RequestInit, provider: 'github' | 'wechat'): Promise<Record<string, unknown>> {
  let res: Response
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
  } catch {
    refuse(`oauth.unreachable.${provider}`)
  }
  const body: unknown = await res.json().catch(() => undefined)
  if (!body || typeof body !== 'object') refuse(text(`oauth.unreadable.${provider}`, { status: res.status }))
  return body as Record<string, unknown>
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** Exchanges the code at GitHub and reads the account (the numeric id is the stable key). */
export async function githubProfile(o: OptionStore, code: string): Promise<Profile> {
  const oauthBase = (process.env.GITHUB_OAUTH_URL || 'https://github.com').replace(/\/+$/, '')
  const apiBase = (process.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  const grant = await getJson(
    `${oauthBase}/login/oauth/access_token`,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: o.get('GitHubClientId'), client_secret: o.get('GitHubClientSecret'), code }),
    },
    'github',
  )
  const token = str(grant.access_token)
  const why = str(grant.error_description) || str(grant.error)
  if (!token) refuse(why ? text('oauth.githubRefused', { reason: why }) : 'oauth.githubNoToken')
  const user = await getJson(
    `${apiBase}/user`,
    { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'user-agent': 'Tollgate' } },
    'github',
  )
  const id = str(user.id)
  if (!/^\d+$/.test(id)) refuse(str(user.message) ? text('oauth.githubNoAccount', { reason: str(user.message) }) : 'oauth.githubNoId')
  return { id, displayName: str(user.name) || str(user.login), email: str(user.email) }
}

/** Asks the WeChat login server which WeChat account the (QR-code) verification code belongs to. */
export async function wechatProfile(o: OptionStore, code: string): Promise<Profile> {
  const base = o.get('WeChatServerAddress').trim().replace(/\/+$/, '')
  if (!base) refuse('oauth.wechatNoServer')
  const answer = await getJson(
    `${base}/api/wechat/user?code=${encodeURIComponent(code)}`,
    { headers: { authorization: o.get('WeChatServerToken'), accept: 'application/json' } },
    'wechat',
  )
  const id = str(answer.data)
  if (answer.success !== true || !id) {
    refuse(str(answer.message) ? text('oauth.wechatSays', { reason: str(answer.message) }) : 'oauth.wechatCodeWrong')
  }
  return { id, displayName: '', email: '' }
}

/**
 * Checks the Telegram login widget's answer: HMAC-SHA256 over the sorted `key=value` lines of the
 * fields it sent (all but hash, and our own lang and state), keyed with SHA-256 of the bot token.
 * An answer older than TELEGRAM_MAX_AGE_SECONDS, or one already used, is refused (no replay).
 */
export async function telegramProfile(db: Kysely<DB>, o: OptionStore, query: Record<string, string>, now = nowSeconds()): Promise<Profile> {
  const botToken = o.get('TelegramBotToken')
  if (!botToken) refuse('oauth.telegramNoToken')
  const hash = (query.hash ?? '').toLowerCase()
  const check = Object.keys(query)
    .filter((k) => k !== 'hash' && k !== 'lang' && k !== 'state' && query[k] !== '')
    .sort()
    .map((k) => `${k}=${query[k]}`)
    .join('\n')
  const key = createHash('sha256').update(botToken).digest()
  const want = createHmac('sha256', key).update(check).digest('hex')
  if (!/^[0-9a-f]{64}$/.test(hash) || !timingSafeEqual(Buffer.from(want), Buffer.from(hash))) refuse('oauth.telegramUnverified')
  const authDate = Number(query.auth_date)
  if (!Number.isFinite(authDate) || now - authDate > TELEGRAM_MAX_AGE_SECONDS) refuse('oauth.telegramExpired')
  if (!(await useOnceBefore(db, 'telegram-answer', hash, authDate + TELEGRAM_MAX_AGE_SECONDS, now))) refuse('oauth.telegramUsed')
  const id = query.id ?? ''
  if (!/^-?\d+$/.test(id)) refuse('oauth.telegramUnverified')
  const name = [query.first_name, query.last_name].filter(Boolean).join(' ')
  return { id, displayName: name || query.username || '', email: '' }
}
