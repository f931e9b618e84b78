import { useCallback } from 'react'
import { format, languageTag, useLocale, type MessageKey, type Params } from '../i18n/t.ts'
import { fillParams } from '../../domain/problem.ts'

/** Translates a screen's own label or, failing that, a shared message. */
export type Labels<K extends string> = (key: K | MessageKey, params?: Params) => string

/**
 * A hook for the labels only one screen shows (column headers, field names, kinds), kept beside
 * that screen in both languages instead of in the shared dictionary, which every element on every
 * page downloads. Messages the spec quotes stay in src/i18n; the hook falls back to them.
 */
export function labelHook<K extends string>(en: Record<K, string>, zh: Record<K, string>): () => Labels<K> {
  return function useLabels() {
    const locale = useLocale()
    return useCallback<Labels<K>>(
      (key, params) => {
        const own = (locale === 'zh' ? zh : en) as Record<string, string | undefined>
        const text = own[key]
        return text === undefined ? format(locale, key as MessageKey, params) : fillParams(text, params, languageTag(locale))
      },
      [locale],
    )
  }
}
