/**
 * The server speaks the caller's language (DESIGN §3): every message a route writes is a key of
 * the catalogue (server/i18n/messages/*.ts, English and Simplified Chinese side by side), turned
 * into words only when the answer is written, in the language of the request's Accept-Language
 * (the elements send the language they show). The spec's English wording is kept verbatim.
 */
import type { Context } from 'hono'
import { fillParams } from '../../domain/problem.ts'
// part 1: accounts, users, sign-in, mail, wallet, options, redemptions and their log details
import { account, users } from './messages/account.ts'
import { accountLogs } from './messages/account-logs.ts'
import { mail } from './messages/mail.ts'
import { oauth } from './messages/oauth.ts'
import { options } from './messages/options.ts'
import { redemptions } from './messages/redemptions.ts'
import { wallet } from './messages/wallet.ts'
import { common } from './messages/common.ts'
import { problems } from './messages/problems.ts'
// part 2: channels, tokens, logs, data
import { channels } from './messages/channels.ts'
import { tokens } from './messages/tokens.ts'
import { logs } from './messages/logs.ts'

export type Locale = 'en' | 'zh-CN'
/** A message's parameters: a value, or a message of its own (said in the same language). */
export type Params = Readonly<Record<string, string | number | Text>>

/** One message in both languages. */
export interface Words {
  readonly en: string
  readonly zh: string
}

/** Every catalogue, merged. A new area adds its file here. */
const CATALOG = {
  // part 1: accounts, users, sign-in, mail, wallet, options, redemptions and their log details
  ...account,
  ...users,
  ...accountLogs,
  ...mail,
  ...oauth,
  ...options,
  ...redemptions,
  ...wallet,
  ...common,
  ...problems,
  // part 2: channels, tokens, logs, data
  ...channels,
  ...tokens,
  ...logs,
} satisfies Record<string, Words>

export type MessageKey = keyof typeof CATALOG

/** A message not yet in words: its key and parameters, rendered in the reader's language. */
export interface Text {
  readonly key: MessageKey
  readonly params?: Params
}

export function text(key: MessageKey, params?: Params): Text {
  return params ? { key, params } : { key }
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(CATALOG, value)
}

/** The language of an Accept-Language value: the first of its languages we speak (by q), else English. */
export function parseAcceptLanguage(header: string | undefined | null): Locale {
  if (!header) return 'en'
  let best: { locale: Locale; q: number } | null = null
  for (const part of header.split(',')) {
    const [tag = '', ...rest] = part.trim().split(';')
    const qParam = rest.find((r) => r.trim().startsWith('q='))
    const q = qParam ? Number(qParam.trim().slice(2)) : 1
    if (!Number.isFinite(q) || q <= 0) continue
    const lang = tag.trim().toLowerCase()
    const locale: Locale | null = lang.startsWith('zh') ? 'zh-CN' : lang.startsWith('en') ? 'en' : null
    if (locale && (!best || q > best.q)) best = { locale, q }
  }
  return best?.locale ?? 'en'
}

const LOCALE = Symbol('locale')

/** The caller's language, read once per request. */
export function localeOf(c: Context): Locale {
  const holder = c as unknown as { [LOCALE]?: Locale }
  return (holder[LOCALE] ??= parseAcceptLanguage(c.req.header('accept-language')))
}

/** A message in words. */
export function say(locale: Locale, key: MessageKey, params?: Params): string {
  const words = CATALOG[key] as Words
  return fillParams(locale === 'zh-CN' ? words.zh : words.en, params && inWords(locale, params), locale)
}

/** The parameters with the messages among them in words. */
function inWords(locale: Locale, params: Params): Readonly<Record<string, string | number>> {
  let out: Record<string, string | number> | null = null
  for (const [name, v] of Object.entries(params))
    if (typeof v === 'object') (out ??= { ...(params as Record<string, string | number>) })[name] = say(locale, v.key, v.params)
  return out ?? (params as Readonly<Record<string, string | number>>)
}

/** A Text, or (while routes move to the catalogue) a literal English string, in the caller's language. */
export function render(locale: Locale, message: Text | string): string {
  if (typeof message === 'string') return isMessageKey(message) ? say(locale, message) : message
  return say(locale, message.key, message.params)
}

/** Both languages of every key (the catalogue tests read it). */
export function catalog(): Readonly<Record<string, Words>> {
  return CATALOG
}
