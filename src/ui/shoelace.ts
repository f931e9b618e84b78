/**
 * The only module that imports Shoelace: what is imported here is what the build ships.
 * Components are cherry-picked, icons come from an inline library (nothing is fetched at run time)
 * and the light and dark themes are exported as CSS text for each element's shadow root.
 */
import '@shoelace-style/shoelace/dist/components/alert/alert.js'
import '@shoelace-style/shoelace/dist/components/avatar/avatar.js'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/divider/divider.js'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'
import '@shoelace-style/shoelace/dist/components/dropdown/dropdown.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/menu/menu.js'
import '@shoelace-style/shoelace/dist/components/menu-item/menu-item.js'
import '@shoelace-style/shoelace/dist/components/menu-label/menu-label.js'
import '@shoelace-style/shoelace/dist/components/skeleton/skeleton.js'
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '@shoelace-style/shoelace/dist/components/textarea/textarea.js'
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import { registerIconLibrary } from '@shoelace-style/shoelace/dist/utilities/icon-library.js'
import lightCss from '@shoelace-style/shoelace/dist/themes/light.css?inline'
import darkCss from '@shoelace-style/shoelace/dist/themes/dark.css?inline'
import { ICONS } from './icons.ts'

function svg(name: string): string {
  const body = ICONS[name]
  if (!body) return ''
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" fill="currentColor" viewBox="0 0 16 16">${body}</svg>`)}`
}

// `default` is the library <sl-icon name="…"> uses when no library is named; Shoelace's own
// would fetch SVG files from a base path.
registerIconLibrary('default', { resolver: svg, mutator: (el) => el.setAttribute('fill', 'currentColor') })

/** Light theme tokens on :host. */
export const themeLightCss: string = lightCss

/**
 * Dark theme tokens, on the `.sl-theme-dark` class only: the file also targets :host, which
 * would make every element dark once both sheets are adopted.
 */
export const themeDarkCss: string = darkCss.replace(/^\s*:host,\s*/, '')
