import { createContext, useCallback, useContext } from 'react'
import { useStore } from '@nanostores/react'
import { $prefs, type Locale } from '../stores/prefs.ts'
import type { MessageKey } from './en.ts'
import { $dictionaries, $partsArrived, loadLocale, words } from './words.ts'
import './en/common.ts'
import { fillParams, type Problem, type ProblemId } from '../../domain/problem.ts'

export type { MessageKey }
export type Params = Record<string, string | number>
export type Translate = (key: MessageKey, params?: Params) => string

export { $dictionaries, loadLocale }

/** The locale text is shown in: the wanted one once its words are here, English until then. */
const shownLocale = (wanted: Locale, state = $dictionaries.get()): Locale => (state[wanted] === 'ready' ? wanted : 'en')

// the page's own language starts loading with the library, alongside everything else
$prefs.subscribe(({ locale }) => void loadLocale(locale))

/** Reads a `lang` value ('zh', 'zh-CN', 'en-GB' …) as one of our locales, or null. */
export function parseLocale(value: string | null | undefined): Locale | null {
  if (!value) return null
  if (/^zh\b/i.test(value)) return 'zh'
  if (/^en\b/i.test(value)) return 'en'
  return null
}

/** The BCP 47 tag of a locale, for Intl (plural rules, numbers, dates). */
export const languageTag = (locale: Locale): string => (locale === 'zh' ? 'zh-CN' : 'en')

export function format(locale: Locale, key: MessageKey, params?: Params): string {
  const shown = shownLocale(locale)
  return fillParams(words[shown][key] ?? words.en[key] ?? key, params, languageTag(shown))
}

/**
 * Resolves once the page language's words are here (or could not load): code outside React that
 * words a message right away (a failed request's toast) waits for it, so the message is not in
 * English on a page whose Chinese words are still on their way.
 */
export function wordsReady(): Promise<void> {
  return loadLocale($prefs.get().locale)
}

/** Outside React (toasts of the API client): the page's locale from $prefs (see wordsReady). */
export function translate(key: MessageKey, params?: Params): string {
  return format($prefs.get().locale, key, params)
}

/** A `lang` attribute on an element forces its locale; null follows $prefs. */
export const LocaleOverride = createContext<Locale | null>(null)

/** The locale an element wants: its `lang` attribute, else the user's choice. */
function useWantedLocale(): Locale {
  const forced = useContext(LocaleOverride)
  const { locale } = useStore($prefs, { keys: ['locale'] })
  return forced ?? locale
}

/**
 * The locale the element shows: the wanted one once its words are loaded (asking for them if
 * needed), the one before until then, so a switch never shows keys or half-translated text.
 */
export function useLocale(): Locale {
  const wanted = useWantedLocale()
  const state = useStore($dictionaries)
  if (!state[wanted]) void loadLocale(wanted)
  return shownLocale(wanted, state)
}

/** False while the wanted locale's words are on their way (an element then waits to show its first text). */
export function useLocaleReady(): boolean {
  const wanted = useWantedLocale()
  const state = useStore($dictionaries)[wanted]
  if (!state) void loadLocale(wanted)
  return state === 'ready' || state === 'failed'
}

/** The translate function for the current locale. */
export function useT(): Translate {
  const locale = useLocale()
  // a screen's Chinese words that arrive after the rest re-render it
  const arrived = useStore($partsArrived)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function when words arrive
  return useCallback((key: MessageKey, params?: Params) => format(locale, key, params), [locale, arrived])
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
