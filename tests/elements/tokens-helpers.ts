// What the tokens element tests share (split from tokens.test.ts by topic).
import type { Token } from '../../src/api/types.ts'
import { $, $$, api, mount, sleep, waitFor } from './helpers.ts'

export type Sl = HTMLElement & { value: string; disabled: boolean; checked: boolean; open: boolean; updateComplete?: Promise<unknown> }

export { api } from './helpers.ts'

/** My tokens as the server has them (newest first). */
export async function serverTokens(): Promise<Token[]> {
  const res = await api<Token[]>('GET', '/api/token/?p=0&size=100')
  if (!res.success) throw new Error(res.message)
  return res.data
}

export async function createToken(body: Partial<Token> & { name: string }): Promise<Token> {
  const res = await api<Token>('POST', '/api/token/', {
    remain_quota: 500000,
    expired_time: -1,
    unlimited_quota: false,
    model_limits_enabled: false,
    model_limits: '',
    ...body,
  })
  if (!res.success) throw new Error(res.message)
  return res.data
}

/** Records the URLs the page fetches and can hold back answers until released. */
export function watchFetch() {
  const original = window.fetch
  const urls: string[] = []
  const holds: Array<{ match: (url: string) => boolean; gate: Promise<void> }> = []
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    urls.push(url)
    const hold = holds.find((h) => h.match(url))
    if (hold) await hold.gate
    return original(input, init)
  }
  return {
    urls,
    hold(match: (url: string) => boolean): () => void {
      let release!: () => void
      holds.push({ match, gate: new Promise<void>((r) => (release = r)) })
      return () => release()
    },
    restore: () => (window.fetch = original),
  }
}

/** A Shoelace control by its name property (React sets name as a property, not an attribute). */
export const named = <T extends Element = Sl>(el: Element, tag: string, name: string) =>
  $$<T>(el, tag).find((c) => (c as unknown as { name: string }).name === name)!

export const rows = (el: Element) => $$(el, 'tr.tg-row[data-token-id]')
export const row = (el: Element, name: string) => rows(el).find((r) => r.querySelector('.tg-tokens-table__title')?.textContent === name)
export const drawer = (el: Element) => $<Sl>(el, 'sl-drawer.tg-token-drawer')!

export async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Sl).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

export async function mountTokens(): Promise<HTMLElement> {
  const el = await mount('<tollgate-tokens></tollgate-tokens>')
  await waitFor(() => $(el, '.tg-table, .tg-panel, sl-alert[variant="danger"]'), 'the list to load')
  return el
}

export async function openCreate(el: HTMLElement) {
  await click($(el, '[data-action="create"]'))
  await waitFor(() => drawer(el).open, 'the drawer')
}

export async function save(el: HTMLElement) {
  await click($(el, 'sl-drawer [data-action="save"]'))
}
