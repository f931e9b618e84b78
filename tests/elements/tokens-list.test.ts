import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import type { Token } from '../../src/api/types.ts'
import { statusInfo } from '../../src/screens/tokens/token-rules.ts'
import { prefetch } from '../../src/screens/tokens/tokens-screen.tsx'
import {
  $,
  cleanup,
  fill,
  inputNamed,
  loadStatus,
  registerAndSignIn,
  setOptions,
  textOf,
  waitFor,
  toastTexts,
  waitForText,
  waitForToast,
  expectPrefetchTakenOver,
} from './helpers.ts'
import { type Sl, api, serverTokens, createToken, watchFetch, named, rows, row, click, mountTokens } from './tokens-helpers.ts'

describe('<tollgate-tokens> inline edit', () => {
  afterEach(cleanup)

  it("says 'expiry time format error' and saves nothing, then saves name, quota and expiry", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'inline', remain_quota: 100 })
    const el = await mountTokens()
    await click(row(el, 'inline')!.querySelector('[data-action="quick-edit"]'))
    await waitFor(() => $(el, '[data-testid="quick-edit"]'), 'the inline form')
    await fill(el, 'quick_expired_time', '31/12/2030')
    await click($(el, '[data-action="quick-save"]'))
    await waitForText(el, 'expiry time format error')
    expect(textOf(el)).to.not.include('Expiry time format error!')
    expect((await serverTokens())[0]!.expired_time).to.equal(-1)

    await fill(el, 'quick_name', 'inline 2')
    await fill(el, 'quick_remain_quota', '42')
    await fill(el, 'quick_expired_time', '2030-12-31 23:59:00')
    await click($(el, '[data-action="quick-save"]'))
    await waitForToast(el, 'token updated successfully')
    const [saved] = await serverTokens()
    expect(saved).to.include({
      id: token.id,
      name: 'inline 2',
      remain_quota: 42,
      expired_time: new Date(2030, 11, 31, 23, 59, 0).getTime() / 1000,
    })
    await waitFor(() => !$(el, '[data-testid="quick-edit"]'), 'the inline form to close')
    expect(row(el, 'inline 2')).to.not.equal(undefined)
  })

  it('closes with Escape without saving', async () => {
    await registerAndSignIn()
    await createToken({ name: 'esc' })
    const el = await mountTokens()
    await click(row(el, 'esc')!.querySelector('[data-action="quick-edit"]'))
    await waitFor(() => inputNamed(el, 'quick_name'))
    inputNamed(el, 'quick_name')!.focus()
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !$(el, '[data-testid="quick-edit"]'), 'the inline form to close')
  })
})

describe('<tollgate-tokens> list', () => {
  afterEach(cleanup)

  it('labels statuses 1-4 (else unknown), greys rows that are not enabled and offers disable only on enabled rows', async () => {
    await registerAndSignIn()
    await createToken({ name: 'enabled' })
    const disabled = await createToken({ name: 'disabled' })
    await api('PUT', '/api/token/?status_only=true', { id: disabled.id, status: 2 })
    await createToken({ name: 'expired', expired_time: Math.floor(Date.now() / 1000) - 60 })
    await createToken({ name: 'exhausted', remain_quota: 0 })
    const el = await mountTokens()
    await waitFor(() => rows(el).length === 4, 'four rows')
    const expectations: Array<[string, string, boolean, string]> = [
      ['enabled', 'Enabled', false, 'disable'],
      ['disabled', 'Disabled', true, 'enable'],
      ['expired', 'Expired', true, 'enable'],
      ['exhausted', 'Exhausted', true, 'enable'],
    ]
    for (const [name, label, greyed, action] of expectations) {
      const r = row(el, name)!
      expect(r.querySelector('[data-status-label]')!.textContent, name).to.equal(label)
      expect(r.classList.contains('tg-row--inactive'), name).to.equal(greyed)
      expect(r.querySelector(`[data-action="${action}"]`), name).to.not.equal(null)
      expect(r.querySelector(`[data-action="${action === 'enable' ? 'disable' : 'enable'}"]`), name).to.equal(null)
    }
    const bg = (name: string) => getComputedStyle(row(el, name)!).backgroundColor
    expect(bg('disabled')).to.not.equal(bg('enabled'))
    expect(statusInfo(0).label).to.equal('token.status.unknown')
    expect(statusInfo(5).label).to.equal('token.status.unknown')
  })

  it('disables and enables a token on the server', async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'switch' })
    const el = await mountTokens()
    await click(row(el, 'switch')!.querySelector('[data-action="disable"]'))
    await waitForToast(el, 'operation completed successfully')
    await waitFor(() => row(el, 'switch')!.classList.contains('tg-row--inactive'), 'the row to grey')
    expect((await api<Token>('GET', `/api/token/${token.id}`)).data.status).to.equal(2)
    expect(row(el, 'switch')!.querySelector('[data-status-label]')!.textContent).to.equal('Disabled')
    await click(row(el, 'switch')!.querySelector('[data-action="enable"]'))
    await waitFor(() => !row(el, 'switch')!.classList.contains('tg-row--inactive'), 'the row to be enabled')
    expect((await api<Token>('GET', `/api/token/${token.id}`)).data.status).to.equal(1)
  })

  it("shows the server's refusal to enable an expired token", async () => {
    await registerAndSignIn()
    await createToken({ name: 'old', expired_time: Math.floor(Date.now() / 1000) - 60 })
    const el = await mountTokens()
    await click(row(el, 'old')!.querySelector('[data-action="enable"]'))
    await waitForToast(el, 'the token has expired and cannot be enabled; change its expiry time or set it to never expire first')
    expect(row(el, 'old')!.querySelector('[data-status-label]')!.textContent).to.equal('Expired')
  })

  it('closes an earlier error when a later action succeeds', async () => {
    await registerAndSignIn()
    await createToken({ name: 'old', expired_time: Math.floor(Date.now() / 1000) - 60 })
    await createToken({ name: 'fine' })
    const el = await mountTokens()
    const refusal = 'the token has expired and cannot be enabled; change its expiry time or set it to never expire first'
    await click(row(el, 'old')!.querySelector('[data-action="enable"]'))
    await waitForToast(el, refusal)
    await click(row(el, 'fine')!.querySelector('[data-action="disable"]'))
    await waitForToast(el, 'operation completed successfully')
    expect(toastTexts(el)).to.not.include(refusal)
  })

  it('deletes a token after the confirmation', async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'doomed' })
    await createToken({ name: 'kept' })
    const el = await mountTokens()
    await click(row(el, 'doomed')!.querySelector('[data-action="delete"]'))
    const dialog = await waitFor(
      () => $<Sl>(el, '[data-testid="delete-dialog"]')?.open && $<Sl>(el, '[data-testid="delete-dialog"]'),
      'the confirmation',
    )
    expect(dialog.textContent).to.include('doomed')
    await click(dialog.querySelector('[data-action="confirm-delete"]'))
    await waitForToast(el, 'operation completed successfully')
    await waitFor(() => !row(el, 'doomed'), 'the row to go')
    expect((await api('GET', `/api/token/${token.id}`)).success).to.equal(false)
    expect((await serverTokens()).map((t) => t.name)).to.deep.equal(['kept'])
  })

  it('loads page by page and appends; the page size is stored locally', async () => {
    await registerAndSignIn()
    for (let i = 1; i <= 12; i++) await createToken({ name: `t${String(i).padStart(2, '0')}` })
    $prefs.setKey('token-page-size', 10)
    const net = watchFetch()
    try {
      const el = await mountTokens()
      await waitFor(() => rows(el).length === 10, 'the first page')
      expect(rows(el)[0]!.querySelector('.tg-tokens-table__title')!.textContent).to.equal('t12')
      await click($(el, '[data-action="load-more"]'))
      await waitFor(() => rows(el).length === 12, 'the second page appended')
      expect($(el, '[data-action="load-more"]')).to.equal(null)
      const listCalls = net.urls.filter((u) => u.includes('/api/token/?')).map((u) => new URL(u, location.href).search)
      expect(listCalls).to.deep.equal(['?p=0&size=10', '?p=1&size=10'])

      const select = named<Sl & { show(): Promise<void> }>(el, 'sl-select', 'page_size')
      select.value = '20'
      select.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
      await waitFor(() => net.urls.some((u) => u.includes('p=0&size=20')), 'a reload with 20')
      await waitFor(() => rows(el).length === 12 && !$(el, '[data-action="load-more"]'), 'one page of 20')
      expect(localStorage.getItem('tollgate:token-page-size')).to.equal('20')
      $prefs.setKey('locale', 'zh')
      const shown = () => (named(el, 'sl-select', 'page_size') as unknown as { displayLabel: string }).displayLabel
      await waitFor(() => shown() === '每页 20 条', 'the page size in Chinese at once')
    } finally {
      net.restore()
    }
  })

  it("asks for the first page as soon as the screen's code arrives, and the screen takes that answer over", async () => {
    await registerAndSignIn()
    await createToken({ name: 'primed' })
    await expectPrefetchTakenOver(['/api/token/?'], prefetch, async () => {
      const el = await mountTokens()
      await waitFor(() => rows(el).length === 1, 'the primed row')
    })
  })

  it('offers another page when the last one was full, and stops when the next is empty', async () => {
    await registerAndSignIn()
    for (let i = 1; i <= 10; i++) await createToken({ name: `f${i}` })
    $prefs.setKey('token-page-size', 10)
    const el = await mountTokens()
    await waitFor(() => rows(el).length === 10)
    await click($(el, '[data-action="load-more"]'))
    await waitFor(() => !$(el, '[data-action="load-more"]'), 'no more pages')
    expect(rows(el)).to.have.length(10)
  })

  it('searches by name and by key with trimmed keywords; both empty reloads the first page', async () => {
    await registerAndSignIn()
    await createToken({ name: 'alpha one' })
    const beta = await createToken({ name: 'beta two' })
    const el = await mountTokens()
    await waitFor(() => rows(el).length === 2)
    const net = watchFetch()
    try {
      await fill(el, 'keyword', '  alpha  ')
      await click($(el, '[data-action="search"]'))
      await waitFor(() => rows(el).length === 1, 'one result')
      expect(row(el, 'alpha one')).to.not.equal(undefined)
      const searchCall = net.urls.find((u) => u.includes('/api/token/search'))!
      expect(new URL(searchCall, location.href).searchParams.get('keyword')).to.equal('alpha')
      expect(new URL(searchCall, location.href).searchParams.get('token')).to.equal('')

      await fill(el, 'keyword', '')
      await fill(el, 'token', ` sk-${beta.key} `)
      await click($(el, '[data-action="search"]'))
      await waitFor(() => rows(el).length === 1 && row(el, 'beta two'), 'the key result')

      await fill(el, 'token', '   ')
      const before = net.urls.length
      await click($(el, '[data-action="search"]'))
      await waitFor(() => rows(el).length === 2, 'the first page again')
      const after = net.urls.slice(before)
      expect(after.some((u) => u.includes('/api/token/search'))).to.equal(false)
      expect(after.some((u) => u.includes('/api/token/?p=0'))).to.equal(true)
    } finally {
      net.restore()
    }
  })

  it("shows quota as currency or compact, and 'Unlimited'", async () => {
    await registerAndSignIn()
    await createToken({ name: 'half', remain_quota: 250000 })
    await createToken({ name: 'big', remain_quota: 12_500_000 })
    await createToken({ name: 'free', unlimited_quota: true })
    await setOptions({ DisplayInCurrencyEnabled: true })
    await loadStatus()
    let el = await mountTokens()
    await waitFor(() => rows(el).length === 3)
    expect(row(el, 'half')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('$0.50')
    expect(row(el, 'big')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('$25.00')
    expect(row(el, 'free')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('Unlimited')
    expect(row(el, 'half')!.querySelector('[data-quota="used"]')!.textContent).to.equal('$0.00')
    el.remove()
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    el = await mountTokens()
    await waitFor(() => rows(el).length === 3)
    expect(row(el, 'half')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('250k')
    expect(row(el, 'big')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('12.5M')
  })

  it("shows 'Never' for tokens that never expire and the key masked with sk-", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'masked' })
    const el = await mountTokens()
    await waitFor(() => row(el, 'masked'))
    expect(row(el, 'masked')!.querySelector('[data-expires]')!.textContent).to.equal('Never')
    const shown = row(el, 'masked')!.querySelector('[data-key]')!.textContent!
    expect(shown.startsWith(`sk-${token.key.slice(0, 4)}`)).to.equal(true)
    expect(shown).to.not.include(token.key)
  })
})
