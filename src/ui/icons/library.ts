/**
 * The icons Tollgate shows, inlined so no icon is fetched at run time. Path data from Bootstrap
 * Icons (MIT licence), the set Shoelace uses by default.
 *
 * One module per icon (`src/ui/icons/<name>.ts`, which adds its path data here): a module that
 * names an icon (`<sl-icon name="search">`, an `icon="key"` prop, an `icon: 'house'` entry)
 * imports that icon's module, so an element ships only the icons its screens show
 * (scripts/size.ts checks the rule).
 */
import { registerIconLibrary } from '@shoelace-style/shoelace/dist/utilities/icon-library.js'

const icons = new Map<string, string>()

/** Adds an icon (the inside of a 16 x 16 `<svg>`) under its Bootstrap Icons name. */
export function addIcon(name: string, body: string): void {
  icons.set(name, body)
}

function svg(name: string): string {
  const body = icons.get(name)
  if (!body) return ''
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" fill="currentColor" viewBox="0 0 16 16">${body}</svg>`)}`
}

// `default` is the library <sl-icon name="…"> uses when no library is named; Shoelace's own
// would fetch SVG files from a base path.
registerIconLibrary('default', { resolver: svg, mutator: (el) => el.setAttribute('fill', 'currentColor') })
