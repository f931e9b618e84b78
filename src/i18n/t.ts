import { createContext, useCallback, useContext } from 'react'
import { useStore } from '@nanostores/react'
import { $prefs, type Locale } from '../stores/prefs.ts'
import { en, type MessageKey } from './en.ts'
import { zhCN } from './zh-CN.ts'

export type { MessageKey }
export type Params = Record<string, string | number>
export type Translate = (key: MessageKey, params?: Params) => string

const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, zh: zhCN }

/** Reads a `lang` value ('zh', 'zh-CN', 'en-GB' …) as one of our locales, or null. */
export function parseLocale(value: string | null | undefined): Locale | null {
  if (!value) return null
  if (/^zh\b/i.test(value)) return 'zh'
  if (/^en\b/i.test(value)) return 'en'
  return null
}

export function format(locale: Locale, key: MessageKey, params?: Params): string {
  const text = dictionaries[locale][key] ?? en[key] ?? key
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text
}

/** Outside React (toasts of the API client): the page's locale from $prefs. */
export function translate(key: MessageKey, params?: Params): string {
  return format($prefs.get().locale, key, params)
}

/** A `lang` attribute on an element forces its locale; null follows $prefs. */
export const LocaleOverride = createContext<Locale | null>(null)

export function useLocale(): Locale {
  const forced = useContext(LocaleOverride)
  const { locale } = useStore($prefs, { keys: ['locale'] })
  return forced ?? locale
}

/** The translate function for the current locale. */
export function useT(): Translate {
  const locale = useLocale()
  return useCallback((key: MessageKey, params?: Params) => format(locale, key, params), [locale])
}
