import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import type { Token } from '../../src/api/types.ts'
import { $, $$, cleanup, mount, registerAndSignIn, sleep, waitFor } from './helpers.ts'

// Two elements showing the same resource on one page read one store (src/stores/): a change made
// through one shows in the other at once, without the other loading the list again.

async function createToken(name: string): Promise<Token> {
  const res = await fetch('/api/token/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
    }),
  })
  const body = (await res.json()) as { success: boolean; message: string; data: Token }
  if (!body.success) throw new Error(body.message)
  return body.data
}

const row = (el: Element, name: string) =>
  $$(el, 'tr.tg-row[data-token-id]').find((r) => r.querySelector('.tg-tokens-table__title')?.textContent === name)

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

/** Counts the list requests of my tokens (GET /api/token/?p=…) from now on. */
function countListCalls() {
  const original = window.fetch
  let calls = 0
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if ((init?.method ?? 'GET') === 'GET' && url.includes('/api/token/?p=')) calls++
    return original(input, init)
  }
  return { calls: () => calls, restore: () => (window.fetch = original) }
}

describe('one list shared by the elements of a page', () => {
  afterEach(cleanup)

  it('shows a change made in one <tollgate-tokens> in another without reloading it', async () => {
    await registerAndSignIn()
    await createToken('kept')
    await createToken('switch')
    await createToken('doomed')
    const first = await mount('<tollgate-tokens></tollgate-tokens>')
    const second = await mount('<tollgate-tokens></tollgate-tokens>')
    await waitFor(() => row(first, 'doomed') && row(second, 'doomed'), 'both lists')

    const net = countListCalls()
    try {
      await click(row(first, 'switch')!.querySelector('[data-action="disable"]'))
      await waitFor(() => row(second, 'switch')!.classList.contains('tg-row--inactive'), 'the other row to grey')
      expect(row(second, 'switch')!.querySelector('[data-status-label]')!.textContent).to.equal('Disabled')

      await click(row(first, 'doomed')!.querySelector('[data-action="delete"]'))
      const dialog = await waitFor(() => $<HTMLElement & { open: boolean }>(first, '[data-testid="delete-dialog"]'), 'the confirmation')
      await waitFor(() => dialog.open, 'the confirmation to open')
      await click(dialog.querySelector('[data-action="confirm-delete"]'))
      await waitFor(() => !row(second, 'doomed'), 'the row to go from the other element too')
      expect(row(second, 'kept')).to.not.equal(undefined)
      expect(net.calls(), 'list requests after the first load').to.equal(0)
    } finally {
      net.restore()
    }
  })

  it('starts afresh once every element showing the list is gone', async () => {
    await registerAndSignIn()
    await createToken('before')
    const first = await mount('<tollgate-tokens></tollgate-tokens>')
    await waitFor(() => row(first, 'before'), 'the list')
    first.remove()
    await createToken('after')
    const next = await mount('<tollgate-tokens></tollgate-tokens>')
    await waitFor(() => row(next, 'after'), 'the new token')
    expect(row(next, 'before')).to.not.equal(undefined)
  })
})
