import { createContext, useCallback, useContext } from 'react'
import { useStore } from '@nanostores/react'
import { $prefs, type Locale } from '../stores/prefs.ts'
import { en, type MessageKey } from './en.ts'
import { zhCN } from './zh-CN.ts'
import { fillParams, type Problem, type ProblemId } from '../../domain/problem.ts'

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
  return fillParams(dictionaries[locale][key] ?? en[key] ?? key, params)
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

/** The dictionaries word each problem of the domain rules (domain/problem.ts) under `problem.<id>`. */
type ProblemKey = `problem.${ProblemId}`

// Compile-time checks: every problem has its words, and no words outlive their problem.
type None<T extends never> = T
type _EveryProblemWorded = None<Exclude<ProblemKey, MessageKey>>
type _NoStaleProblemWords = None<Exclude<Extract<MessageKey, `problem.${string}`>, ProblemKey>>

/** A problem in the reader's language; `params` replaces the problem's own (a quota shown formatted, say). */
export function problemMessage(t: Translate, p: Problem, params?: Params): string {
  return t(`problem.${p.id}` as ProblemKey & MessageKey, params ? { ...p.params, ...params } : p.params)
}
