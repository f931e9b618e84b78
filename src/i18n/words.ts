import { atom, map } from 'nanostores'
import type { Locale } from '../stores/prefs.ts'

type Words = Record<string, string>

/** A part of the dictionary: a screen's words (src/i18n/en/<part>.ts) and the loader of its Chinese twin. */
interface Part {
  zh: () => Promise<{ default: Words }>
  /** the Chinese words on their way or here */
  loading?: Promise<void>
  loaded?: boolean
}

/**
 * The words each locale has so far. English parts come with the screens that show them (each
 * screen imports its part, which adds itself here); the Chinese twin of every part added loads
 * once Chinese is wanted (the page's choice, a `lang` attribute, the switch), and the parts added
 * after that (a console screen opened later) follow on their own.
 */
export const words: Record<Locale, Words> = { en: {}, zh: {} }
const parts = new Map<string, Part>()

/** Where each locale's words are: all here, some on their way, or some not loadable (that text stays English). */
export const $dictionaries = map<Partial<Record<Locale, 'ready' | 'loading' | 'failed'>>>({ en: 'ready' })

/** Counts the Chinese parts that arrived, so text shown in Chinese re-renders when a late part lands. */
export const $partsArrived = atom(0)

/** Adds a part's English words; when Chinese is wanted already, its Chinese words start loading too. */
export function addWords(name: string, en: Words, zh: Part['zh']): void {
  if (parts.has(name)) return
  Object.assign(words.en, en)
  parts.set(name, { zh })
  if ($dictionaries.get().zh) void loadLocale('zh')
}

/** After a part arrived or failed: ready once every part is here, failed when none is on its way and one could not load. */
function settle() {
  const all = [...parts.values()]
  if (all.every((p) => p.loaded)) $dictionaries.setKey('zh', 'ready')
  else if (!all.some((p) => p.loading && !p.loaded) && $dictionaries.get().zh !== 'ready') $dictionaries.setKey('zh', 'failed')
  $partsArrived.set($partsArrived.get() + 1)
}

/** Loads a locale's words for every part added so far (once each); resolves when they are here or could not be loaded. */
export function loadLocale(locale: Locale): Promise<void> {
  if (locale === 'en') return Promise.resolve()
  const loads = [...parts.values()].map(
    (part) =>
      (part.loading ??= part.zh().then(
        (m) => {
          Object.assign(words.zh, m.default)
          part.loaded = true
          settle()
        },
        () => {
          // asked again the next time Chinese is wanted
          part.loading = undefined
          settle()
        },
      )),
  )
  if ($dictionaries.get().zh !== 'ready') $dictionaries.setKey('zh', 'loading')
  return Promise.all(loads).then(() => undefined)
}

/**
 * Resolves once the Chinese words of every part added so far are here (or could not load), when
 * Chinese was wanted on this page: a screen loaded later (a console route) waits for its words
 * with its code, so its first text is not English on a Chinese page.
 */
export function partsReady(): Promise<void> {
  return $dictionaries.get().zh ? loadLocale('zh') : Promise.resolve()
}
