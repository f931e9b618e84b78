import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { configure } from '../../src/stores/config.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import { formatUsd } from '../../src/screens/pricing/pricing-rules.ts'
import { callPrice, completionPricePerMillion, promptPricePerMillion } from '../../domain/pricing.ts'
import {
  CONSOLE_HEADER,
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
  waitFor,
  waitForText,
  waitForToast,
  expectPaintsDark,
  recordClipboard,
} from './helpers.ts'

// --- helpers of this file ---------------------------------------------------------------------

type Sl = HTMLElement & { value: string; checked: boolean; open: boolean; updateComplete?: Promise<unknown> }

const CHANNEL = 820001
let counter = 0

interface Models {
  usage: string
  cheap: string
  call: string
  vip: string
}

/**
 * Abilities and ratio options on the real server: three models for the default group (two per
 * usage, one per call), one for the vip group only; the default group's ratio is 1.5, vip's 0.5.
 */
async function arrangePricing(): Promise<Models> {
  const prefix = `pz${Date.now().toString(36)}${++counter}`
  const m = { usage: `${prefix}-usage`, cheap: `${prefix}-cheap`, call: `${prefix}-call`, vip: `${prefix}-vip` }
  await serverCommand('tg-abilities', {
    channelId: CHANNEL,
    rows: [
      { group: 'default', model: m.usage },
      { group: 'default', model: m.cheap },
      { group: 'default', model: m.call },
      { group: 'vip', model: m.usage },
      { group: 'vip', model: m.vip },
    ],
  })
  await setOptions({
    ModelRatio: JSON.stringify({ [m.usage]: 2.5, [m.cheap]: 0.075, [m.vip]: 15 }),
    CompletionRatio: JSON.stringify({ [m.usage]: 4 }),
    ModelPrice: JSON.stringify({ [m.call]: 0.04 }),
    GroupRatio: JSON.stringify({ default: 1.5, vip: 0.5 }),
  })
  return m
}

const row = (el: Element, model: string) => $(el, `tr[data-model="${model}"]`)
const priceOf = (el: Element, model: string, kind: string) => row(el, model)?.querySelector(`[data-price="${kind}"] strong`)?.textContent
const named = <T extends Element = Sl>(el: Element, tag: string, name: string) =>
  $$<T>(el, tag).find((c) => (c as unknown as { name: string }).name === name)!

async function mountPricing(): Promise<HTMLElement> {
  const el = await mount('<tollgate-pricing></tollgate-pricing>')
  await waitFor(() => $(el, '.tg-table, .tg-panel, sl-alert[variant="danger"]'), 'the price list')
  return el
}

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Sl).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

function stubFetch(match: (url: string) => boolean, answer: () => Promise<Response>) {
  const original = window.fetch
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    return match(url) ? answer() : original(input, init)
  }
  return () => (window.fetch = original)
}

afterEach(async () => {
  await serverCommand('tg-abilities', { channelId: CHANNEL, rows: [] })
})

// --- tests -------------------------------------------------------------------------------------

describe('pricing formulas', () => {
  it('prices per 1M tokens as model ratio x 2 x group ratio, completion times its ratio, per call as price x group ratio', () => {
    expect(promptPricePerMillion(2.5, 1.5)).to.equal(7.5)
    expect(completionPricePerMillion(2.5, 4, 1.5)).to.equal(30)
    expect(callPrice(0.04, 1.5)).to.be.closeTo(0.06, 1e-12)
    expect(formatUsd(0.075 * 2 * 1.5)).to.equal('$0.225')
    expect(formatUsd(30)).to.equal('$30.00')
  })
})

describe('<tollgate-pricing> signed out and signed in', () => {
  afterEach(cleanup)

  it('prices for the default group when signed out, with billing type and availability', async () => {
    const m = await arrangePricing()
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage), 'the rows')
    await waitForText(el, 'Prices for the default group (group ratio 1.5)')
    expect(priceOf(el, m.usage, 'input')).to.equal('$7.50')
    expect(priceOf(el, m.usage, 'completion')).to.equal('$30.00')
    expect(priceOf(el, m.cheap, 'input')).to.equal('$0.225')
    expect(priceOf(el, m.cheap, 'completion')).to.equal('$0.225')
    expect(priceOf(el, m.call, 'call')).to.equal('$0.06')
    expect(priceOf(el, m.vip, 'input')).to.equal('$45.00')
    expect(row(el, m.usage)!.querySelector('[data-billing]')!.textContent).to.equal('Per usage')
    expect(row(el, m.call)!.querySelector('[data-billing]')!.textContent).to.equal('Per call')
    expect(row(el, m.call)!.querySelector('[data-price="input"]')).to.equal(null)
    expect(row(el, m.usage)!.getAttribute('data-available')).to.equal('true')
    expect(row(el, m.vip)!.getAttribute('data-available')).to.equal('false')
    expect(row(el, m.vip)!.querySelector('[data-flag]')!.textContent).to.equal('Not in your group')
  })

  it("prices for the signed-in user's group and follows sign-out", async () => {
    const m = await arrangePricing()
    const user = await registerAndSignIn()
    await serverCommand('tg-set-group', { username: user.username, group: 'vip' })
    const el = await mountPricing()
    await waitFor(() => row(el, m.vip), 'the rows')
    await waitForText(el, 'Prices for your group, vip (group ratio 0.5)')
    expect(row(el, m.vip)!.getAttribute('data-available')).to.equal('true')
    expect(row(el, m.usage)!.getAttribute('data-available')).to.equal('true')
    expect(row(el, m.cheap)!.getAttribute('data-available')).to.equal('false')
    expect(priceOf(el, m.vip, 'input')).to.equal('$15.00')
    expect(priceOf(el, m.usage, 'completion')).to.equal('$10.00')
    expect(priceOf(el, m.call, 'call')).to.equal('$0.02')

    await fetch('/api/user/logout', CONSOLE_HEADER)
    $session.set(null)
    await waitForText(el, 'Prices for the default group (group ratio 1.5)')
    await waitFor(() => priceOf(el, m.vip, 'input') === '$45.00', 'the default prices')
    expect(row(el, m.vip)!.getAttribute('data-available')).to.equal('false')
  })

  it('shows the quota beside the dollars when the site does not display currency', async () => {
    const m = await arrangePricing()
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const el = await mountPricing()
    await waitFor(() => row(el, m.cheap))
    expect(row(el, m.cheap)!.querySelector('[data-price-quota="input"]')!.textContent).to.equal('= 112.5k quota')
    await setOptions({ DisplayInCurrencyEnabled: true })
    await loadStatus()
    await waitFor(() => !row(el, m.cheap)!.querySelector('[data-price-quota]'), 'dollars only')
  })
})

describe('<tollgate-pricing> search and filters', () => {
  afterEach(cleanup)

  it('searches by name, trimmed and in any case', async () => {
    const m = await arrangePricing()
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    await fill(el, 'search', `  ${m.cheap.toUpperCase()}  `)
    await waitFor(() => $$(el, 'tr[data-model]').length === 1, 'one match')
    expect(row(el, m.cheap)).to.not.equal(null)
    await fill(el, 'search', 'no-such-model-anywhere')
    await waitForText(el, 'No model matches the search and filters')
  })

  it('filters by billing type and by availability', async () => {
    const m = await arrangePricing()
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    const billing = named(el, 'sl-select', 'billing')
    billing.value = 'call'
    billing.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => !row(el, m.usage), 'per-usage rows to go')
    expect(row(el, m.call)).to.not.equal(null)
    expect($$(el, '[data-billing]').every((t) => t.getAttribute('data-billing') === 'call')).to.equal(true)
    billing.value = 'usage'
    billing.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => row(el, m.usage) && !row(el, m.call), 'per-usage rows only')

    billing.value = 'all'
    billing.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => row(el, m.vip))
    await click(named(el, 'sl-switch', 'available_only'))
    await waitFor(() => !row(el, m.vip), 'the unavailable model to go')
    expect(row(el, m.usage)).to.not.equal(null)
    expect($$(el, 'tr[data-model]').every((r) => r.getAttribute('data-available') === 'true')).to.equal(true)
  })

  it('filters with the keyboard', async () => {
    const m = await arrangePricing()
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    inputNamed(el, 'search')!.focus()
    await sendKeys({ type: m.call })
    await waitFor(() => $$(el, 'tr[data-model]').length === 1 && row(el, m.call), 'the typed filter')
  })
})

describe('<tollgate-pricing> states and copy', () => {
  afterEach(cleanup)

  it('shows skeleton rows while loading', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const original = window.fetch
    const restore = stubFetch(
      (url) => url.includes('/api/pricing'),
      async () => {
        await gate
        return original('/api/pricing')
      },
    )
    try {
      const el = await mount('<tollgate-pricing></tollgate-pricing>')
      await waitFor(() => $(el, '.tg-skeleton[aria-busy="true"]'), 'the skeleton')
      release()
      await waitFor(() => $(el, '.tg-table, .tg-panel'), 'the list')
    } finally {
      restore()
    }
  })

  it('explains an empty price list', async () => {
    const restore = stubFetch(
      (url) => url.includes('/api/pricing'),
      async () =>
        new Response(JSON.stringify({ success: true, message: '', data: [], group_ratio: 1, group: 'default' }), {
          headers: { 'content-type': 'application/json' },
        }),
    )
    try {
      const el = await mountPricing()
      await waitForText(el, 'No models are priced yet')
    } finally {
      restore()
    }
  })

  it('shows the error panel when the gateway cannot be reached, and recovers with Retry', async () => {
    const m = await arrangePricing()
    configure({ apiBase: 'http://127.0.0.1:9' })
    const el = await mountPricing()
    await waitFor(() => $(el, 'sl-alert[variant="danger"]'), 'the error panel')
    configure({ apiBase: '' })
    await click([...$$(el, 'sl-alert sl-button')].find((b) => b.textContent === 'Retry'))
    await waitFor(() => row(el, m.usage), 'the rows')
  })

  it('copies a model name, and offers the manual copy when the clipboard refuses', async () => {
    const m = await arrangePricing()
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    let clip = recordClipboard()
    try {
      await click(row(el, m.usage)!.querySelector('[data-action="copy-model"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.written).to.deep.equal([m.usage])
    } finally {
      clip.restore()
    }
    clip = recordClipboard(true)
    try {
      await click(row(el, m.call)!.querySelector('[data-action="copy-model"]'))
      const dialog = await waitFor(() => $$<Sl>(el, 'sl-dialog').find((d) => d.open), 'the fallback dialog')
      expect(dialog.textContent).to.include('unable to copy to clipboard, please copy manually')
      expect(dialog.querySelector('textarea')!.value).to.equal(m.call)
    } finally {
      clip.restore()
    }
  })
})

describe('<tollgate-pricing> small screens, dark mode, Chinese and the console', () => {
  afterEach(cleanup)

  it('turns rows into cards on a 375 px screen', async () => {
    const m = await arrangePricing()
    await setViewport({ width: 375, height: 740 })
    try {
      const el = await mountPricing()
      await waitFor(() => row(el, m.usage))
      expect(getComputedStyle(row(el, m.usage)!).display).to.equal('flex')
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })

  it('follows dark mode', async () => {
    const m = await arrangePricing()
    setTheme('dark')
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    expectPaintsDark(el, '.tg-table-wrap')
  })

  it('speaks Simplified Chinese', async () => {
    const m = await arrangePricing()
    setLocale('zh')
    const el = await mountPricing()
    await waitFor(() => row(el, m.usage))
    expect(row(el, m.usage)!.querySelector('[data-billing]')!.textContent).to.equal('按量计费')
    expect(row(el, m.call)!.querySelector('[data-billing]')!.textContent).to.equal('按次计费')
    expect(textOf(el)).to.include('default 分组的价格（分组倍率 1.5）')
  })

  it('is the public /pricing screen of the console', async () => {
    const m = await arrangePricing()
    goTo('/pricing')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $(el, `[data-screen="pricing"] tr[data-model="${m.call}"]`), 'the pricing screen')
    expect(location.pathname).to.equal('/pricing')
  })
})
