import { persistentMap } from '@nanostores/persistent'

export type Theme = 'light' | 'dark'
export type Locale = 'en' | 'zh'

interface Prefs {
  theme: Theme
  locale: Locale
  /** the user's own choice; unset: follow the screen width and DefaultCollapseSidebar */
  'sidebar-collapsed'?: boolean
  /** channel list page size (spec: "saved locally under page-size") */
  'page-size': number
  /** channel list sorted by id (spec: "id-sort flag") */
  'id-sort': boolean
  'token-page-size': number
  'log-page-size': number
}

export const PAGE_SIZES = [10, 20, 50, 100] as const
const DEFAULT_PAGE_SIZE = 10

function browserLocale(): Locale {
  const langs = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language]
  return /^zh\b/i.test(langs[0] ?? '') ? 'zh' : 'en'
}

function browserTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** Local, non-secret settings: localStorage keys 'tollgate:theme', 'tollgate:page-size', … */
export const $prefs = persistentMap<Prefs>(
  'tollgate:',
  {
    theme: browserTheme(),
    locale: browserLocale(),
    'page-size': DEFAULT_PAGE_SIZE,
    'id-sort': false,
    'token-page-size': DEFAULT_PAGE_SIZE,
    'log-page-size': DEFAULT_PAGE_SIZE,
  },
  {
    encode: (v) => JSON.stringify(v),
    decode: (s) => {
      try {
        return JSON.parse(s)
      } catch {
        return undefined
      }
    },
  },
)

/**
 * A stored value this version does not know (an older version's, or a host page's "zh-CN") is read
 * as the nearest one it knows: an unknown locale or theme left every element blank.
 */
function repair(p: Prefs): void {
  const locale = p.locale as string
  if (locale !== 'en' && locale !== 'zh') $prefs.setKey('locale', /^zh/i.test(String(locale)) ? 'zh' : browserLocale())
  const theme = p.theme as string
  if (theme !== 'light' && theme !== 'dark') $prefs.setKey('theme', browserTheme())
}
repair($prefs.get())
$prefs.listen(repair)

export function setTheme(theme: Theme): void {
  $prefs.setKey('theme', theme)
}

export function toggleTheme(): void {
  setTheme($prefs.get().theme === 'dark' ? 'light' : 'dark')
}

export function setLocale(locale: Locale): void {
  $prefs.setKey('locale', locale)
}

export function setSidebarCollapsed(collapsed: boolean): void {
  $prefs.setKey('sidebar-collapsed', collapsed)
}
