import { themeLightCss } from './shoelace.ts'
import { darkThemeSheet } from './dark-theme.ts'
import baseCss from './base.css?inline'
import brandCss from './brand.css?inline'

function sheetOf(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  return sheet
}

let sheets: CSSStyleSheet[] | null = null

/**
 * The sheets every element's shadow root adopts, one set shared by the page, in order: Shoelace
 * light tokens (on :host), dark tokens (on .sl-theme-dark; filled when dark is first wanted), the
 * primary scale from --tollgate-brand, then our base styles. Screens add their own CSS with a <style>.
 */
export function elementSheets(): CSSStyleSheet[] {
  return (sheets ??= [sheetOf(themeLightCss), darkThemeSheet(), sheetOf(brandCss), sheetOf(baseCss)])
}
