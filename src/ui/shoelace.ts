/**
 * What every element needs of Shoelace before any component renders: the icon library (icons
 * come inline, one module per icon: src/ui/icons/library.ts) and the light theme as CSS text for
 * each element's shadow root; the dark theme loads when dark is wanted (src/ui/dark-theme.ts). No
 * component is imported here: every module that renders an `<sl-…>` tag imports that component
 * itself (`import '@shoelace-style/shoelace/dist/components/<name>/<name>.js'`), so an element
 * ships only the components its screens render (scripts/size.ts checks the rule).
 */
import lightCss from '@shoelace-style/shoelace/dist/themes/light.css?inline'
import './icons/library.ts'

/** Light theme tokens on :host. */
export const themeLightCss: string = lightCss
