// What the console element tests share (split from console.test.ts by topic).
import { $$, goTo, mount } from './helpers.ts'

export const navKeys = (el: Element) => $$(el, 'nav[part="sidebar"] [data-nav]').map((a) => a.getAttribute('data-nav'))

export async function consoleAt(path: string): Promise<HTMLElement> {
  goTo(path)
  return mount('<tollgate-console></tollgate-console>')
}
