// What the topup element tests share (split from topup.test.ts by topic).
import { $session } from '../../src/stores/session.ts'
import { $, api, CONSOLE_HEADER, loadStatus, mount, setOptions, signInAs, sleep, waitFor } from './helpers.ts'

export type Sl = HTMLElement & { value: string; open: boolean; updateComplete?: Promise<unknown> }

export { api } from './helpers.ts'

/** A redemption code made by root through the admin API (signs root out again). */
export async function codeFromRoot(quota: number): Promise<string> {
  await signInAs('root', '123456')
  const res = await api<string[]>('POST', '/api/redemption/', { name: 'wallet test', quota, count: 1 })
  await fetch('/api/user/logout', CONSOLE_HEADER)
  $session.set(null)
  if (!res.success) throw new Error(res.message)
  return res.data[0]!
}

export async function selfQuota(): Promise<number> {
  return (await api<{ quota: number }>('GET', '/api/user/self')).data.quota
}

/** Records the URLs the page fetches; `fail` makes matching calls fail as an unreachable network does. */
export function watchFetch(fail: (url: string) => boolean = () => false) {
  const original = window.fetch
  const urls: string[] = []
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    urls.push(url)
    if (fail(url)) throw new TypeError('Failed to fetch')
    return original(input, init)
  }
  return { urls, restore: () => (window.fetch = original) }
}

export async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Sl).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

export async function mountTopup(attrs = ''): Promise<HTMLElement> {
  const el = await mount(`<tollgate-topup ${attrs}></tollgate-topup>`)
  await waitFor(() => $(el, '[data-balance], .tg-panel'), 'the wallet')
  return el
}

/** The number payable (the yuan sign stands beside it). */
export const payable = (el: Element) => $(el, '[data-payable] [data-amount]')!.textContent
export const dialog = (el: Element) => $<Sl>(el, '[data-testid="pay-dialog"]')!

/** Options that turn online top-up on, paying into the test server's stand-in platform. */
export async function enableOnlineTopup(extra: Record<string, string | number> = {}) {
  await setOptions({
    PayAddress: `${location.origin}/__pay`,
    EpayId: '1001',
    EpayKey: 'epay-test-key',
    ServerAddress: location.origin,
    Price: 7.3,
    ...extra,
  })
  await loadStatus()
}
