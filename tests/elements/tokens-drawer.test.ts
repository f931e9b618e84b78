import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { configure } from '../../src/stores/config.ts'
import { setClock } from '../../src/stores/clock.ts'
import { setLocale } from '../../src/stores/prefs.ts'
import { loadLocale } from '../../src/i18n/t.ts'
import { dismissToast, showToast } from '../../src/stores/toasts.ts'
import { expiryToInput } from '../../src/screens/tokens/token-rules.ts'
import {
  $,
  $$,
  cleanup,
  fill,
  inputNamed,
  mount,
  registerAndSignIn,
  serverCommand,
  textOf,
  toastTexts,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import {
  type Sl,
  serverTokens,
  createToken,
  watchFetch,
  named,
  rows,
  row,
  drawer,
  click,
  mountTokens,
  openCreate,
  save,
} from './tokens-helpers.ts'

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

  it('refuses model limits that are on with no model chosen before saving, in both languages', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    await openCreate(el)
    await fill(el, 'name', 'nothing allowed')
    await click(named(el, 'sl-switch', 'model_limits_enabled'))
    const net = watchFetch()
    const inForm = () => drawer(el).querySelector('form [data-message]')?.textContent ?? ''
    try {
      await save(el)
      await waitFor(() => inForm() === 'choose at least one model, or turn the model limit off', 'the message in the form')
      expect(drawer(el).open).to.equal(true)
      setLocale('zh')
      await loadLocale('zh')
      await save(el)
      await waitFor(() => inForm() === '请至少选择一个模型，或关闭模型限制', 'the message in Chinese')
      expect(net.urls.filter((u) => u.includes('/api/token'))).to.deep.equal([], 'nothing is sent')
    } finally {
      net.restore()
      setLocale('en')
    }
    expect(await serverTokens()).to.have.length(0)
    await click(named(el, 'sl-switch', 'model_limits_enabled'))
    await save(el)
    await waitForToast(el, '1 token created successfully, click copy in the list to get the token')
    expect(await serverTokens()).to.have.length(1)
  })

  for (const [width, height] of [
    [1280, 800],
    [375, 740],
  ] as const) {
    it(`keeps toasts off the drawer's Cancel and Save and its close button at ${width} px`, async () => {
      await setViewport({ width, height })
      const ids: number[] = []
      try {
        await registerAndSignIn()
        const el = await mountTokens()
        await openCreate(el)
        await waitFor(
          () =>
            drawer(el).shadowRoot?.querySelector('[part="panel"]')?.getBoundingClientRect().left === innerWidth - Math.min(512, innerWidth),
          'the drawer to slide in',
        )
        for (const n of [1, 2, 3]) ids.push(showToast('danger', `error number ${n} with a long explanation of what went wrong`, Infinity))
        await waitFor(() => $$(el, '.tg-toast').length === 3, 'the toasts')
        const controls = [
          ...$$(el, 'sl-drawer .tg-drawer-actions sl-button'),
          drawer(el).shadowRoot!.querySelector('[part~="close-button"]')!,
        ]
        expect(controls).to.have.length(3)
        for (const toastBox of $$(el, '.tg-toast').map((t) => t.getBoundingClientRect())) {
          for (const control of controls) {
            const c = control.getBoundingClientRect()
            const overlaps = toastBox.left < c.right && toastBox.right > c.left && toastBox.top < c.bottom && toastBox.bottom > c.top
            expect(
              overlaps,
              `a toast ${JSON.stringify(toastBox)} over ${control.textContent?.trim() || 'the close button'} ${JSON.stringify(c)}`,
            ).to.equal(false)
          }
        }
      } finally {
        for (const id of ids) dismissToast(id)
        await setViewport({ width: 1280, height: 800 })
      }
    })
  }

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
      await waitForToast(el, '1 token created successfully, click copy in the list to get the token')
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
    await waitForToast(el, '1 token created successfully, click copy in the list to get the token')
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
    await waitForToast(el, '1 token created successfully, click copy in the list to get the token')
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
