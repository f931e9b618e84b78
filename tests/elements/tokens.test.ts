import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $prefs, setLocale, setTheme } from '../../src/stores/prefs.ts'
import { configure } from '../../src/stores/config.ts'
import { setClock } from '../../src/stores/clock.ts'
import type { Token } from '../../src/api/types.ts'
import { expiryToInput, statusInfo } from '../../src/screens/tokens/token-rules.ts'
import {
  $,
  $$,
  cleanup,
  fill,
  goTo,
  inputNamed,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  setOptions,
  sleep,
  textOf,
  toastTexts,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

// --- helpers of this file ---------------------------------------------------------------------

type Sl = HTMLElement & { value: string; disabled: boolean; checked: boolean; open: boolean; updateComplete?: Promise<unknown> }

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ success: boolean; message: string; data: T }> {
  const res = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  })
  return res.json()
}

/** My tokens as the server has them (newest first). */
async function serverTokens(): Promise<Token[]> {
  const res = await api<Token[]>('GET', '/api/token/?p=0&size=100')
  if (!res.success) throw new Error(res.message)
  return res.data
}

async function createToken(body: Partial<Token> & { name: string }): Promise<Token> {
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
function watchFetch() {
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

/** Replaces the clipboard: `refuse` makes writeText fail as a browser without permission does. */
function stubClipboard(refuse = false) {
  const written: string[] = []
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        if (refuse) throw new DOMException('denied', 'NotAllowedError')
        written.push(text)
      },
    },
  })
  return { written, restore: () => delete (navigator as unknown as Record<string, unknown>).clipboard }
}

/** A Shoelace control by its name property (React sets name as a property, not an attribute). */
const named = <T extends Element = Sl>(el: Element, tag: string, name: string) =>
  $$<T>(el, tag).find((c) => (c as unknown as { name: string }).name === name)!

const rows = (el: Element) => $$(el, 'tr.tg-row[data-token-id]')
const row = (el: Element, name: string) => rows(el).find((r) => r.querySelector('.tg-tokens-table__title')?.textContent === name)
const drawer = (el: Element) => $<Sl>(el, 'sl-drawer.tg-token-drawer')!

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Sl).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

async function mountTokens(): Promise<HTMLElement> {
  const el = await mount('<tollgate-tokens></tollgate-tokens>')
  await waitFor(() => $(el, '.tg-table, .tg-panel, sl-alert[variant="danger"]'), 'the list to load')
  return el
}

async function openCreate(el: HTMLElement) {
  await click($(el, '[data-action="create"]'))
  await waitFor(() => drawer(el).open, 'the drawer')
}

async function save(el: HTMLElement) {
  await click($(el, 'sl-drawer [data-action="save"]'))
}

// --- tests -------------------------------------------------------------------------------------

describe('<tollgate-tokens> states', () => {
  afterEach(cleanup)

  it('offers the way to sign in when nobody is signed in', async () => {
    const el = await mount('<tollgate-tokens></tollgate-tokens>')
    await waitForText(el, 'Sign in to manage your tokens')
    expect($(el, 'a[href="/login"]')).to.not.equal(null)
  })

  it('shows skeleton rows while the first page loads, then the empty state', async () => {
    await registerAndSignIn()
    const net = watchFetch()
    const release = net.hold((url) => url.includes('/api/token/?'))
    try {
      const el = await mount('<tollgate-tokens></tollgate-tokens>')
      await waitFor(() => $(el, '.tg-skeleton[aria-busy="true"]'), 'the skeleton')
      expect($(el, '.tg-table')).to.equal(null)
      release()
      await waitForText(el, 'No tokens yet')
      expect($(el, '[part="empty-state"] sl-button')!.textContent).to.include('Create token')
    } finally {
      net.restore()
    }
  })

  it('shows the error panel with Retry when the gateway cannot be reached, and recovers', async () => {
    await registerAndSignIn()
    configure({ apiBase: 'http://127.0.0.1:9' })
    const el = await mountTokens()
    await waitFor(() => $(el, 'sl-alert[variant="danger"]'), 'the error panel')
    expect(textOf(el)).to.include('Something went wrong')
    configure({ apiBase: '' })
    await click([...$$(el, 'sl-alert sl-button')].find((b) => b.textContent === 'Retry'))
    await waitForText(el, 'No tokens yet')
  })
})

describe('<tollgate-tokens> create and edit drawer', () => {
  afterEach(cleanup)

  it('opens with the defaults: quota 500000, never expires, model limits off with their select disabled, one token', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    expect(inputNamed(el, 'remain_quota')!.value).to.equal('500000')
    expect(inputNamed(el, 'remain_quota')!.disabled).to.equal(false)
    expect(inputNamed(el, 'expired_time')!.value).to.equal('')
    expect(inputNamed(el, 'count')!.value).to.equal('1')
    const limits = named<Sl & { show(): Promise<void> }>(el, 'sl-select', 'model_limits')
    expect(limits.disabled).to.equal(true)
    await click(named(el, 'sl-switch', 'model_limits_enabled'))
    await waitFor(() => !limits.disabled, 'the model select to be enabled')
    await click(named(el, 'sl-switch', 'model_limits_enabled'))
    await waitFor(() => limits.disabled, 'the model select to be disabled again')
  })

  it('disables the quota input while the token is unlimited', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    await click(named(el, 'sl-switch', 'unlimited_quota'))
    await waitFor(() => inputNamed(el, 'remain_quota')!.disabled, 'the quota input to be disabled')
    expect($$<Sl>(el, '[data-quota-preset]').every((b) => b.disabled)).to.equal(true)
    await click(named(el, 'sl-switch', 'unlimited_quota'))
    await waitFor(() => !inputNamed(el, 'remain_quota')!.disabled, 'the quota input to be enabled')
  })

  it('offers the quota presets of 1, 10, 50, 100, 500 and 1000 dollars', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    const presets = $$(el, '[data-quota-preset]')
    expect(presets.map((b) => b.getAttribute('data-quota-preset'))).to.deep.equal([
      '500000',
      '5000000',
      '25000000',
      '50000000',
      '250000000',
      '500000000',
    ])
    expect(presets.map((b) => b.textContent)).to.deep.equal(['$1', '$10', '$50', '$100', '$500', '$1000'])
    await click(presets[3])
    expect(inputNamed(el, 'remain_quota')!.value).to.equal('50000000')
  })

  it('requires a name on create and saves nothing', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    await save(el)
    await waitForText(el, 'please enter a name')
    expect(await serverTokens()).to.have.length(0)
  })

  it("stops on an expiry it cannot read with 'Expiry time format error!'", async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    await fill(el, 'name', 'bad expiry')
    await fill(el, 'expired_time', 'next tuesday')
    await save(el)
    await waitForText(el, 'Expiry time format error!')
    await fill(el, 'expired_time', '2031-02-30 10:00')
    await save(el)
    await waitForText(el, 'Expiry time format error!')
    expect(await serverTokens()).to.have.length(0)
    expect(drawer(el).open).to.equal(true)
  })

  it('creates a token: expiry shortcut, quota parsed as an integer, model limits from /api/user/models', async () => {
    const user = await registerAndSignIn()
    const models = [`${user.username}-alpha`, `${user.username}-beta`]
    await serverCommand('tg-abilities', { channelId: 810001, rows: models.map((model) => ({ group: 'default', model })) })
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000)
    setClock(() => fixed)
    try {
      const el = await mountTokens()
      await openCreate(el)
      await fill(el, 'name', 'with limits')
      await fill(el, 'remain_quota', '1234.9')
      await click($(el, 'sl-drawer [data-expiry="day"]'))
      expect(inputNamed(el, 'expired_time')!.value).to.equal(expiryToInput(fixed.getTime() / 1000 + 86400))
      await click(named(el, 'sl-switch', 'model_limits_enabled'))
      const select = named<Sl & { show(): Promise<void> }>(el, 'sl-select', 'model_limits')
      await waitFor(() => !select.disabled && select.querySelectorAll('sl-option').length >= 2, 'the model choices')
      expect([...select.querySelectorAll('sl-option')].map((o) => o.getAttribute('value'))).to.include.members(models)
      // choose with the keyboard: the list may hold other models of the default group too
      const index = [...select.querySelectorAll('sl-option')].findIndex((o) => o.getAttribute('value') === models[1])
      select.focus()
      for (let i = 0; i <= index; i++) await sendKeys({ press: 'ArrowDown' })
      await sendKeys({ press: 'Enter' })
      await waitFor(() => String(select.value) === models[1], 'the model to be chosen')
      await save(el)
      await waitForToast(el, '1 tokens created successfully, click copy in the list to get the token')
      const [token] = await serverTokens()
      expect(token).to.include({
        name: 'with limits',
        remain_quota: 1234,
        expired_time: fixed.getTime() / 1000 + 86400,
        model_limits_enabled: true,
        model_limits: models[1],
        unlimited_quota: false,
      })
      await waitFor(() => row(el, 'with limits'), 'the new row')
      expect(row(el, 'with limits')!.querySelector('[data-model-limits]')!.textContent).to.equal('enabled: model limits')
      await waitFor(() => !drawer(el).open, 'the drawer to close')
    } finally {
      await serverCommand('tg-abilities', { channelId: 810001, rows: [] })
    }
  })

  it('sets the expiry shortcuts one hour, one day and one month (30 days) ahead, and never as -1', async () => {
    await registerAndSignIn()
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000)
    setClock(() => fixed)
    const el = await mountTokens()
    await openCreate(el)
    const base = fixed.getTime() / 1000
    for (const [key, seconds] of [
      ['hour', 3600],
      ['day', 86400],
      ['month', 30 * 86400],
    ] as const) {
      await click($(el, `sl-drawer [data-expiry="${key}"]`))
      expect(inputNamed(el, 'expired_time')!.value).to.equal(expiryToInput(base + seconds))
    }
    await click($(el, 'sl-drawer [data-expiry="never"]'))
    expect(inputNamed(el, 'expired_time')!.value).to.equal('')
    await fill(el, 'name', 'forever')
    await save(el)
    await waitForToast(el, '1 tokens created successfully, click copy in the list to get the token')
    expect((await serverTokens())[0]!.expired_time).to.equal(-1)
  })

  it('creates a batch: the first keeps the name, the others get a random suffix, one call each', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    const net = watchFetch()
    try {
      await openCreate(el)
      await fill(el, 'name', 'batch')
      expect($$(el, '[data-batch]').map((b) => b.textContent)).to.deep.equal(['10', '20', '30', '100'])
      await click($(el, '[data-batch="10"]'))
      expect(inputNamed(el, 'count')!.value).to.equal('10')
      await save(el)
      await waitForToast(el, '10 tokens created successfully, click copy in the list to get the token', 10000)
    } finally {
      net.restore()
    }
    expect(net.urls.filter((u) => new URL(u, location.href).pathname === '/api/token/' && !u.includes('?'))).to.have.length(10)
    const names = (await serverTokens()).map((t) => t.name).reverse()
    expect(names[0]).to.equal('batch')
    for (const name of names.slice(1)) expect(name).to.match(/^batch-[A-Za-z0-9]{6}$/)
    expect(new Set(names).size).to.equal(10)
    await waitFor(() => rows(el).length === 10, 'the list to show the batch')
  })

  it('stops a batch at the first failure', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    // 25 characters: the first name fits the server's 30, the suffixed ones do not
    await fill(el, 'name', 'abcdefghijklmnopqrstuvwxy')
    await click($(el, '[data-batch="10"]'))
    await save(el)
    await waitForToast(el, '1 tokens created successfully, click copy in the list to get the token')
    // the server refuses the second name (HTTP 200, success false) and its reason is shown as is
    expect(toastTexts(el).some((m) => m.includes('name must be at most 30 characters'))).to.equal(true)
    const tokens = await serverTokens()
    expect(tokens.map((t) => t.name)).to.deep.equal(['abcdefghijklmnopqrstuvwxy'])
  })

  it("edits in the drawer: starts at quota 0 while loading, saves, 'token updated successfully'", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'to edit', remain_quota: 777 })
    const el = await mountTokens()
    const net = watchFetch()
    const release = net.hold((url) => url.endsWith(`/api/token/${token.id}`))
    try {
      await click(row(el, 'to edit')!.querySelector('[data-action="edit"]'))
      await waitFor(() => drawer(el).open, 'the drawer')
      expect(drawer(el).getAttribute('label')).to.equal('Edit token')
      expect(inputNamed(el, 'remain_quota')!.value).to.equal('0')
      expect(inputNamed(el, 'count')).to.equal(undefined)
      release()
      await waitFor(() => inputNamed(el, 'remain_quota')!.value === '777', 'the token to load')
    } finally {
      net.restore()
    }
    expect(inputNamed(el, 'name')!.value).to.equal('to edit')
    await fill(el, 'name', 'edited')
    await fill(el, 'remain_quota', '5000')
    await click(named(el, 'sl-switch', 'unlimited_quota'))
    await save(el)
    await waitForToast(el, 'token updated successfully')
    const [saved] = await serverTokens()
    expect(saved).to.include({ id: token.id, name: 'edited', remain_quota: 5000, unlimited_quota: true })
    await waitFor(() => row(el, 'edited'), 'the row to change')
    expect(row(el, 'edited')!.querySelector('[data-quota="remain"]')!.textContent).to.equal('Unlimited')
  })
})

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
    } finally {
      net.restore()
    }
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

describe('<tollgate-tokens> copy', () => {
  afterEach(cleanup)

  it("copies one key with sk- and says 'copied to clipboard'", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'copy me' })
    const el = await mountTokens()
    const clip = stubClipboard()
    try {
      await click(row(el, 'copy me')!.querySelector('[data-action="copy"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.written).to.deep.equal([`sk-${token.key}`])
    } finally {
      clip.restore()
    }
  })

  it("copies the selected keys, and says 'please select at least one' when none is selected", async () => {
    await registerAndSignIn()
    const a = await createToken({ name: 'first' })
    await createToken({ name: 'second' })
    const c = await createToken({ name: 'third' })
    const el = await mountTokens()
    await waitFor(() => rows(el).length === 3)
    const clip = stubClipboard()
    try {
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'please select at least one')
      expect(clip.written).to.deep.equal([])
      await click(row(el, 'first')!.querySelector('sl-checkbox'))
      await click(row(el, 'third')!.querySelector('sl-checkbox'))
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.written).to.deep.equal([`third    sk-${c.key}\nfirst    sk-${a.key}`])
      await click($(el, 'sl-checkbox[data-action="select-all"]'))
      await click($(el, '[data-action="copy-selected"]'))
      await waitFor(() => clip.written.length === 2)
      expect(clip.written[1]!.split('\n')).to.have.length(3)
    } finally {
      clip.restore()
    }
  })

  it("opens 'unable to copy to clipboard, please copy manually' with the key when the clipboard is refused", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'refused' })
    const el = await mountTokens()
    const clip = stubClipboard(true)
    try {
      await click(row(el, 'refused')!.querySelector('[data-action="copy"]'))
      const dialog = await waitFor(
        () => [...$$<Sl>(el, 'sl-dialog')].find((d) => d.open && d.querySelector('textarea')),
        'the fallback dialog',
      )
      expect(dialog.textContent).to.include('unable to copy to clipboard, please copy manually')
      expect(dialog.querySelector('textarea')!.value).to.equal(`sk-${token.key}`)
    } finally {
      clip.restore()
    }
  })
})

describe('<tollgate-tokens> keyboard, small screens, dark mode and Chinese', () => {
  afterEach(cleanup)

  it('creates a token with the keyboard alone', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    $<HTMLElement>(el, '[data-action="create"]')!.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => drawer(el).open, 'the drawer')
    await waitFor(() => el.shadowRoot!.activeElement === inputNamed(el, 'name'), 'focus on the name')
    await sendKeys({ type: 'typed' })
    await sendKeys({ press: 'Enter' })
    await waitForToast(el, '1 tokens created successfully, click copy in the list to get the token')
    expect((await serverTokens()).map((t) => t.name)).to.deep.equal(['typed'])
  })

  it('opens the row menu and the inline edit with the keyboard', async () => {
    await registerAndSignIn()
    await createToken({ name: 'keys only' })
    const el = await mountTokens()
    const trigger = row(el, 'keys only')!.querySelector<HTMLElement>('[data-action="more"]')!
    await (trigger as Sl).updateComplete
    trigger.focus()
    await sendKeys({ press: 'Enter' })
    const dropdown = trigger.closest('sl-dropdown') as unknown as Sl
    await waitFor(() => dropdown.open, 'the menu to open')
    await sendKeys({ press: 'ArrowDown' })
    await sleep(50)
    await sendKeys({ press: 'Enter' })
    await waitFor(() => $(el, '[data-testid="quick-edit"]'), 'the inline form')
  })

  it('turns rows into cards on a 375 px screen without sideways scrolling', async () => {
    await registerAndSignIn()
    await createToken({ name: 'narrow screen token' })
    await setViewport({ width: 375, height: 740 })
    try {
      const el = await mountTokens()
      await waitFor(() => row(el, 'narrow screen token'))
      expect(getComputedStyle(row(el, 'narrow screen token')!).display).to.equal('grid')
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      expect(row(el, 'narrow screen token')!.getBoundingClientRect().right).to.be.at.most(375)
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })

  it('follows dark mode', async () => {
    await registerAndSignIn()
    await createToken({ name: 'dark' })
    setTheme('dark')
    const el = await mountTokens()
    await waitFor(() => row(el, 'dark'))
    expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
    const [r, g, b] = getComputedStyle($(el, '.tg-table-wrap')!).backgroundColor.match(/\d+/g)!.map(Number)
    expect(r! + g! + b!).to.be.below(200)
    // used alone on a (light) host page, the element paints its own dark background
    const root = getComputedStyle($(el, '.tg-root')!).backgroundColor
    expect(root).to.not.equal('rgba(0, 0, 0, 0)')
    expect(
      root
        .match(/\d+/g)!
        .slice(0, 3)
        .map(Number)
        .reduce((a, b) => a + b, 0),
    ).to.be.below(200)
  })

  it('speaks Simplified Chinese', async () => {
    await registerAndSignIn()
    await createToken({ name: 'zh' })
    setLocale('zh')
    const el = await mountTokens()
    await waitFor(() => row(el, 'zh'))
    expect(row(el, 'zh')!.querySelector('[data-status-label]')!.textContent).to.equal('已启用')
    expect(row(el, 'zh')!.querySelector('[data-expires]')!.textContent).to.equal('永不过期')
    await openCreate(el)
    await fill(el, 'name', 'x')
    await fill(el, 'expired_time', 'bad')
    await save(el)
    await waitForText(el, '过期时间格式错误！')
    await click($(el, '[data-action="copy-selected"]'))
    await waitForToast(el, '请至少选择一个令牌！')
  })
})

describe('<tollgate-tokens> in the console', () => {
  afterEach(cleanup)

  it('is the /token screen', async () => {
    await registerAndSignIn()
    goTo('/token')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $(el, '[data-screen="tokens"]'), 'the tokens screen')
    await waitForText(el, 'No tokens yet')
  })
})
