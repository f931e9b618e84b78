import { atom } from 'nanostores'
import { $prefs } from '../stores/prefs.ts'

/** Where Shoelace's dark tokens are: not asked for (a light page), on their way, here, or not loadable. */
export const $darkTheme = atom<'none' | 'loading' | 'ready' | 'failed'>('none')

let sheet: CSSStyleSheet | null = null

/**
 * The dark tokens' sheet every shadow root adopts (src/ui/styles.ts): empty on a light page, filled
 * for every element at once the first time dark is wanted (tokens on the `.sl-theme-dark` class).
 */
export function darkThemeSheet(): CSSStyleSheet {
  return (sheet ??= new CSSStyleSheet())
}

/** Loads the dark tokens once (again after a failure). */
export function loadDarkTheme(): void {
  const state = $darkTheme.get()
  if (state === 'loading' || state === 'ready') return
  $darkTheme.set('loading')
  import('./dark-theme-css.ts').then(
    ({ themeDarkCss }) => {
      darkThemeSheet().replaceSync(themeDarkCss)
      $darkTheme.set('ready')
    },
    () => $darkTheme.set('failed'),
  )
}

// a dark page asks for them with the library, alongside everything else
$prefs.subscribe(({ theme }) => {
  if (theme === 'dark') loadDarkTheme()
})
