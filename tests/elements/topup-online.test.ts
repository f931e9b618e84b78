import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import {
  $,
  $$,
  cleanup,
  fill,
  goTo,
  inputNamed,
  loadStatus,
  mount,
  recordEvents,
  registerAndSignIn,
  setOptions,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
  expectPaintsDark,
} from './helpers.ts'
import { type Sl, codeFromRoot, watchFetch, click, mountTopup, payable, dialog, enableOnlineTopup } from './topup-helpers.ts'

describe('<tollgate-topup> online top-up', () => {
  afterEach(cleanup)

  it('forces the amount to at least 1', async () => {
    await registerAndSignIn()
    const el = await mountTopup()
    await fill(el, 'amount', '0')
    expect(inputNamed(el, 'amount')!.value).to.equal('1')
    await fill(el, 'amount', '-7')
    expect(inputNamed(el, 'amount')!.value).to.equal('1')
    await fill(el, 'amount', '12')
    expect(inputNamed(el, 'amount')!.value).to.equal('12')
  })

  it('shows the amount payable from /api/user/amount as the amount changes', async () => {
    await setOptions({ Price: 7.3 })
    await loadStatus()
    await registerAndSignIn()
    const el = await mountTopup()
    await waitFor(() => payable(el) === '7.30', 'the price of 1')
    await fill(el, 'amount', '3')
    await waitFor(() => payable(el) === '21.90', 'the price of 3')
    await setOptions({ Price: 8 })
    await fill(el, 'amount', '4')
    await waitFor(() => payable(el) === '32.00', 'the server price')
  })

  it("shows a refused amount as 'Error: {detail}'", async () => {
    await setOptions({ MinTopUp: 5 })
    await registerAndSignIn()
    const el = await mountTopup()
    await fill(el, 'amount', '2')
    await waitForToast(el, 'Error: top-up amount cannot be less than 5')
    expect(payable(el)).to.equal('0.00')
  })

  it("refuses an amount below min_topup: 'top-up amount cannot be less than {min}'", async () => {
    await enableOnlineTopup({ MinTopUp: 5 })
    await registerAndSignIn()
    const el = await mountTopup()
    await waitFor(() => inputNamed(el, 'amount')!.value === '5', 'the minimum as the first amount')
    await fill(el, 'amount', '3')
    const net = watchFetch()
    try {
      await click($(el, '[data-action="topup"]'))
      await waitForToast(el, 'top-up amount cannot be less than 5')
      expect(dialog(el).open).to.equal(false)
      expect(net.urls.some((u) => u.includes('/api/user/pay'))).to.equal(false)
    } finally {
      net.restore()
    }
  })

  it("looks disabled and says 'admin has not enabled online top-up' when the site has no payment set up", async () => {
    await setOptions({ PayAddress: '', EpayId: '', EpayKey: '' })
    await loadStatus()
    await registerAndSignIn()
    const el = await mountTopup()
    const card = $<HTMLElement>(el, '[part="online-topup"]')!
    expect(card.dataset.online).to.equal('off')
    const notice = $<HTMLElement>(el, '[data-online-off]')!
    expect(notice.textContent).to.include('admin has not enabled online top-up')
    expect(card.getAttribute('aria-describedby')).to.equal(notice.id)
    const button = $<Sl & { disabled: boolean }>(el, '[data-action="topup"]')!
    expect(button.disabled).to.equal(true)
    expect((inputNamed(el, 'amount') as unknown as { disabled: boolean }).disabled).to.equal(true)
    expect($$<HTMLElement & { disabled: boolean }>(el, 'sl-radio-button').every((r) => r.disabled)).to.equal(true)
    expect(Number(getComputedStyle($(el, '[part="online-topup"] .tg-form')!).opacity)).to.be.below(1)
    await click(button)
    expect(dialog(el).open).to.equal(false)
  })

  it('looks ready, with no notice, once online top-up is set up', async () => {
    await enableOnlineTopup()
    await registerAndSignIn()
    const el = await mountTopup()
    expect($<HTMLElement>(el, '[part="online-topup"]')!.dataset.online).to.equal('on')
    expect($(el, '[data-online-off]')).to.equal(null)
    expect($<HTMLElement & { disabled: boolean }>(el, '[data-action="topup"]')!.disabled).to.equal(false)
  })

  it('shows the amount payable in yuan: ¥7.30, in both languages', async () => {
    await setOptions({ Price: 7.3 })
    await loadStatus()
    await registerAndSignIn()
    const el = await mountTopup()
    await waitFor(() => payable(el) === '7.30', 'the price of 1')
    expect($(el, '[data-payable] strong')!.textContent).to.equal('¥7.30')
    expect($(el, '[data-payable]')!.textContent).to.match(/Amount to pay:\s*¥7\.30/)
    setLocale('zh')
    try {
      await waitFor(() => $(el, '[data-payable]')!.textContent!.includes('实付金额'), 'Chinese')
      expect($(el, '[data-payable] strong')!.textContent).to.equal('¥7.30')
    } finally {
      setLocale('en')
    }
  })

  it('confirms, then posts the hidden payment form with the order fields to the pay-target frame', async () => {
    await enableOnlineTopup()
    await registerAndSignIn()
    const frame = document.createElement('iframe')
    frame.name = 'tollgate-pay-test'
    document.body.append(frame)
    try {
      const el = await mountTopup('pay-target="tollgate-pay-test"')
      await fill(el, 'amount', '2')
      await waitFor(() => payable(el) === '14.60', 'the payable amount')
      await click($(el, 'sl-radio-button[data-method="wx"]'))
      await click($(el, '[data-action="topup"]'))
      await waitFor(() => dialog(el).open, 'the confirmation')
      expect($(el, '[data-summary="amount"]')!.textContent).to.equal('$2')
      expect($(el, '[data-summary="payable"]')!.textContent).to.equal('¥14.60')
      expect($(el, '[data-summary="method"]')!.textContent).to.equal('WeChat Pay')
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }))
      await click($(el, '[data-action="pay"]'))
      await loaded
      const fields = JSON.parse(frame.contentDocument!.getElementById('fields')!.textContent!)
      expect(fields).to.include({ pid: '1001', type: 'wxpay', money: '14.60', name: 'TUC2' })
      expect(fields.out_trade_no).to.match(/^USR\d+NO/)
      expect(fields.sign).to.be.a('string').and.not.equal('')
      await waitFor(() => !dialog(el).open, 'the dialog to close')
      expect(location.pathname).to.not.include('__pay')
      expect(document.querySelectorAll('form').length).to.equal(0)
    } finally {
      frame.remove()
    }
  })

  it("shows the server's reason when /api/user/pay refuses", async () => {
    await enableOnlineTopup({ ServerAddress: '' })
    await registerAndSignIn()
    const el = await mountTopup('pay-target="nowhere"')
    await click($(el, '[data-action="topup"]'))
    await waitFor(() => dialog(el).open, 'the confirmation')
    await click($(el, '[data-action="pay"]'))
    await waitForToast(el, 'the administrator has not set the server address')
    expect(dialog(el).open).to.equal(true)
  })

  it("says 'request failed' when the pay call fails", async () => {
    await enableOnlineTopup()
    await registerAndSignIn()
    const el = await mountTopup('pay-target="nowhere"')
    await click($(el, '[data-action="topup"]'))
    await waitFor(() => dialog(el).open, 'the confirmation')
    const net = watchFetch((url) => url.includes('/api/user/pay'))
    try {
      await click($(el, '[data-action="pay"]'))
      await waitForToast(el, 'request failed')
    } finally {
      net.restore()
    }
  })
})

describe('<tollgate-topup> small screens, dark mode, Chinese and the console', () => {
  afterEach(cleanup)

  it('fits a 375 px screen', async () => {
    await registerAndSignIn()
    await setViewport({ width: 375, height: 740 })
    try {
      const el = await mountTopup()
      await waitFor(() => payable(el) !== '…')
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      const cards = [$(el, '[part="redeem"]')!, $(el, '[part="online-topup"]')!]
      expect(cards[1]!.getBoundingClientRect().top).to.be.greaterThan(cards[0]!.getBoundingClientRect().bottom - 1)
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })

  it('follows dark mode', async () => {
    await registerAndSignIn()
    setTheme('dark')
    const el = await mountTopup()
    expectPaintsDark(el, '.tg-wallet-card')
  })

  it('speaks Simplified Chinese', async () => {
    await setOptions({ PayAddress: '' })
    await loadStatus()
    await registerAndSignIn()
    setLocale('zh')
    const el = await mountTopup()
    await click($(el, '[data-action="redeem"]'))
    await waitForText(el, '请输入兑换码！')
    expect($(el, '[data-online-off]')!.textContent).to.include('管理员未开启在线充值')
    expect(textOf(el)).to.include('当前余额')
  })

  it('is the /topup screen of the console', async () => {
    await registerAndSignIn()
    goTo('/topup')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $(el, '[data-screen="wallet"] [data-balance]'), 'the wallet screen')
  })
})

describe('<tollgate-console> at /topup', () => {
  afterEach(cleanup)

  it('redeeming inside the console emits tollgate-topup from the console', async () => {
    const code = await codeFromRoot(1_000_000)
    await registerAndSignIn()
    const rec = recordEvents('tollgate-topup')
    try {
      goTo('/topup')
      const el = await mount('<tollgate-console></tollgate-console>')
      await waitFor(() => $(el, '[data-action="redeem"]'), 'the wallet inside the console')
      await fill(el, 'code', code)
      await click($(el, '[data-action="redeem"]'))
      await waitForToast(el, 'redeemed successfully')
      await waitFor(() => rec.events.length === 1, 'tollgate-topup from the console')
      expect(rec.events[0]!.detail).to.deep.equal({ quota: 1_000_000 })
    } finally {
      rec.stop()
    }
  })
})
