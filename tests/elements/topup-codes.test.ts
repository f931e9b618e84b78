import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import {
  $,
  cleanup,
  fill,
  inputNamed,
  loadStatus,
  mount,
  recordEvents,
  registerAndSignIn,
  setOptions,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import { codeFromRoot, selfQuota, watchFetch, click, mountTopup } from './topup-helpers.ts'

describe('<tollgate-topup> balance and states', () => {
  afterEach(cleanup)

  it('offers the way to sign in when nobody is signed in', async () => {
    const el = await mount('<tollgate-topup></tollgate-topup>')
    await waitForText(el, 'Sign in to top up')
    expect($(el, 'a[href="/login"]')).to.not.equal(null)
  })

  it('shows the current balance from GET /api/user/self, not the stored copy', async () => {
    await setOptions({ DisplayInCurrencyEnabled: true, QuotaForNewUser: 1_250_000 })
    await loadStatus()
    const user = await registerAndSignIn()
    expect(user.quota).to.equal(1_250_000)
    $session.set({ ...user, quota: 1 })
    const el = await mountTopup()
    await waitFor(() => $(el, '[data-balance]')!.textContent === '$2.50', 'the balance from the server')
  })

  it('shows the balance compact when the site does not display currency', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false, QuotaForNewUser: 1_250_000 })
    await loadStatus()
    await registerAndSignIn()
    const el = await mountTopup()
    await waitFor(() => $(el, '[data-balance]')!.textContent === '1.3M', 'the compact balance')
  })
})

describe('<tollgate-topup> redemption codes', () => {
  afterEach(cleanup)

  it("says 'please enter redemption code' for an empty code and calls nothing", async () => {
    await registerAndSignIn()
    const el = await mountTopup()
    const net = watchFetch()
    try {
      await fill(el, 'code', '   ')
      await click($(el, '[data-action="redeem"]'))
      await waitForText(el, 'please enter redemption code')
      expect(net.urls.some((u) => u.includes('/api/user/topup'))).to.equal(false)
    } finally {
      net.restore()
    }
  })

  it("redeems a code made by root: 'redeemed successfully', the quota added, the balance refreshed, tollgate-topup", async () => {
    await setOptions({ DisplayInCurrencyEnabled: true })
    await loadStatus()
    const code = await codeFromRoot(2_000_000)
    await registerAndSignIn()
    const before = await selfQuota()
    const rec = recordEvents('tollgate-topup')
    try {
      const el = await mountTopup()
      await fill(el, 'code', ` ${code} `)
      await click($(el, '[data-action="redeem"]'))
      await waitForToast(el, 'redeemed successfully')
      await waitForText(el, 'Added $4.00 to your balance.')
      expect(await selfQuota()).to.equal(before + 2_000_000)
      await waitFor(() => $(el, '[data-balance]')!.textContent === `$${((before + 2_000_000) / 500000).toFixed(2)}`, 'the new balance')
      expect(rec.events.map((e) => e.detail)).to.deep.equal([{ quota: 2_000_000 }])
      expect(inputNamed(el, 'code')!.value).to.equal('')
    } finally {
      rec.stop()
    }
  })

  it("shows the server's refusal for an unknown or a used code and changes nothing", async () => {
    const code = await codeFromRoot(1000)
    await registerAndSignIn()
    const el = await mountTopup()
    await fill(el, 'code', 'no-such-code')
    await click($(el, '[data-action="redeem"]'))
    await waitForToast(el, 'invalid redemption code')
    await fill(el, 'code', code)
    await click($(el, '[data-action="redeem"]'))
    await waitForToast(el, 'redeemed successfully')
    const after = await selfQuota()
    await fill(el, 'code', code)
    await click($(el, '[data-action="redeem"]'))
    await waitForToast(el, 'this redemption code has already been used')
    expect(await selfQuota()).to.equal(after)
  })

  it('redeems with the Enter key', async () => {
    const code = await codeFromRoot(500)
    await registerAndSignIn()
    const el = await mountTopup()
    inputNamed(el, 'code')!.focus()
    await sendKeys({ type: code })
    await sendKeys({ press: 'Enter' })
    await waitForToast(el, 'redeemed successfully')
  })

  it("links to the top-up link when set, else is disabled and says 'super admin has not set top-up link'", async () => {
    await setOptions({ TopUpLink: '' })
    await loadStatus()
    await registerAndSignIn()
    let el = await mountTopup()
    const buy = await waitFor(() => $<HTMLElement & { disabled: boolean }>(el, 'sl-button[data-action="buy-code"]'), 'the button')
    expect(buy.disabled).to.equal(true)
    expect($(el, '[data-buy-code-off]')!.textContent).to.equal('super admin has not set top-up link')
    el.remove()
    await setOptions({ TopUpLink: 'https://shop.example.com/codes' })
    await loadStatus()
    el = await mountTopup()
    const link = await waitFor(() => $<HTMLAnchorElement>(el, 'a[data-action="buy-code"]'), 'the link')
    expect(link.href).to.equal('https://shop.example.com/codes')
    expect(link.target).to.equal('_blank')
    expect(link.rel).to.include('noopener')
    expect($(el, '[data-buy-code-off]')).to.equal(null)
  })
})
