import { themeDarkCss, themeLightCss } from './shoelace.ts'
import baseCss from './base.css?inline'
import brandCss from './brand.css?inline'

/**
 * The CSS every element's shadow root adopts, in order: Shoelace light tokens (on :host), dark
 * tokens (on .sl-theme-dark), the primary scale from --tollgate-brand, then our base styles. Screens add their own CSS with a <style>.
 */
export const elementCss: readonly string[] = [themeLightCss, themeDarkCss, brandCss, baseCss]
