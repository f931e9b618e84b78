import darkCss from '@shoelace-style/shoelace/dist/themes/dark.css?inline'

/**
 * Shoelace's dark tokens, on the `.sl-theme-dark` class only: the file also targets :host, which
 * would make every element dark. A module of its own, loaded when dark is first wanted (dark-theme.ts).
 */
export const themeDarkCss: string = darkCss.replace(/^\s*:host,\s*/, '')
