import type { DetailedHTMLProps, HTMLAttributes } from 'react'

/** Shoelace tags in TSX. React 19 sets known properties and `on<event-name>` listeners on custom elements. */
type ShoelaceProps = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  class?: string
  part?: string
  exportparts?: string
  [attribute: string]: unknown
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'sl-alert': ShoelaceProps
      'sl-avatar': ShoelaceProps
      'sl-button': ShoelaceProps
      'sl-dialog': ShoelaceProps
      'sl-divider': ShoelaceProps
      'sl-drawer': ShoelaceProps
      'sl-dropdown': ShoelaceProps
      'sl-icon': ShoelaceProps
      'sl-icon-button': ShoelaceProps
      'sl-input': ShoelaceProps
      'sl-menu': ShoelaceProps
      'sl-menu-item': ShoelaceProps
      'sl-menu-label': ShoelaceProps
      'sl-skeleton': ShoelaceProps
      'sl-spinner': ShoelaceProps
      'sl-tag': ShoelaceProps
      'sl-radio-button': ShoelaceProps
      'sl-radio-group': ShoelaceProps
      'sl-switch': ShoelaceProps
      'sl-textarea': ShoelaceProps
      'sl-checkbox': ShoelaceProps
      'sl-option': ShoelaceProps
      'sl-select': ShoelaceProps
    }
  }
}
