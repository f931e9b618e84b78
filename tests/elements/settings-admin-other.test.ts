import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/settings.ts'
import { $status } from '../../src/stores/status.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import {
  $,
  $$,
  fill,
  loadStatus,
  mount,
  registerAndSignIn,
  sleep,
  textOf,
  toastTexts,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import {
  rootTab,
  asRoot,
  tab,
  section,
  save,
  fillArea,
  switchOf,
  readOptions,
  puts,
  done,
  inputNamedFocus,
} from './settings-admin-helpers.ts'

describe('settings tabs: other', () => {
  afterEach(done)

  it('previews the sanitised HTML of the notice live and saves it as written', async () => {
    const el = await rootTab('other')
    const raw =
      '<h3 id="t">Maintenance</h3><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="window.__pwned = 1"><script>window.__pwned = 2</script><a href="javascript:alert(1)">link</a>'
    await fillArea(el, 'Notice', raw, false)
    const preview = await waitFor(() => section(el, 'notice').querySelector('[data-preview-body]'), 'the preview')
    expect(preview.querySelector('h3')!.textContent).to.equal('Maintenance')
    expect(preview.querySelector('script')).to.equal(null)
    expect(preview.querySelector('img')!.hasAttribute('onerror')).to.equal(false)
    expect(preview.querySelector('a')!.getAttribute('href') ?? '').to.not.include('javascript')
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined)
    // live: the preview follows every keystroke
    await fillArea(el, 'Notice', '<p>second <b>version</b></p>', false)
    await waitFor(() => section(el, 'notice').querySelector('[data-preview-body] b')?.textContent === 'version', 'the updated preview')
    await save(el, 'notice')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'Notice', value: '<p>second <b>version</b></p>' }])
    expect((await readOptions()).Notice).to.equal('<p>second <b>version</b></p>')
  })

  it('previews the home page, about and footer; an address is shown as an embedded page', async () => {
    await asRoot()
    const el = await tab('other')
    await fillArea(el, 'HomePageContent', 'https://home.example.com/page', false)
    await waitFor(() =>
      section(el, 'home')
        .querySelector('[data-preview]')!
        .textContent!.includes('This address is shown as an embedded page: https://home.example.com/page'),
    )
    await fillArea(el, 'About', '<p onclick="x()">About us</p>', false)
    const about = await waitFor(() => section(el, 'about').querySelector('[data-preview-body] p'))
    expect(about.textContent).to.equal('About us')
    expect(about.hasAttribute('onclick')).to.equal(false)
    await fillArea(el, 'Footer', '<span class="f">© Example</span><style>body{display:none}</style>', false)
    const footer = await waitFor(() => section(el, 'footer').querySelector('[data-preview-body]'))
    expect(footer.querySelector('.f')!.textContent).to.equal('© Example')
    expect(footer.querySelector('style')).to.equal(null)
    expect(section(el, 'notice').querySelector('[data-preview]')!.textContent).to.include('Nothing to preview yet.')
  })

  it('saves the system name, logo and footer each on its own and refreshes the public status', async () => {
    await asRoot()
    await loadStatus()
    const el = await tab('other')
    puts()
    await fill(el, 'SystemName', 'Acme Gateway')
    await fill(el, 'Logo', 'https://cdn.example.com/logo.png')
    await waitFor(() => $(el, 'img[data-logo-preview]')?.getAttribute('src') === 'https://cdn.example.com/logo.png', 'the logo preview')
    await save(el, 'systemName')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'SystemName', value: 'Acme Gateway' }])
    await waitFor(() => $status.get()?.system_name === 'Acme Gateway', 'the refreshed status')
    expect(section(el, 'logo').querySelector('[data-dirty]')).to.not.equal(null)
    await save(el, 'logo')
    await fillArea(el, 'Footer', '<b>Acme</b> footer', false)
    await save(el, 'footer')
    await waitFor(
      () => $status.get()?.footer_html === '<b>Acme</b> footer' && $status.get()?.logo === 'https://cdn.example.com/logo.png',
      'the footer and logo in the status',
    )
    expect(puts().map((p) => p.key)).to.deep.equal(['SystemName', 'Logo', 'Footer'])
  })
})

describe('settings tabs: keyboard, small screens, dark mode, Chinese', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 })
    await done()
  })

  it('saves a form with Enter from a text field', async () => {
    const el = await rootTab('operation')
    await fill(el, 'SunoVersion', '5.40.0')
    inputNamedFocus(el, 'SunoVersion')
    await sendKeys({ press: 'Enter' })
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'SunoVersion', value: '5.40.0' }])
  })

  it('fits a 375 px screen without sideways scrolling', async () => {
    await setViewport({ width: 375, height: 800 })
    await asRoot()
    for (const name of ['operation', 'system', 'other'] as const) {
      const el = await tab(name)
      await sleep(100)
      const wide = $$(el, '.tg-opt').filter((s) => s.getBoundingClientRect().right > 376)
      expect(
        wide.map((s) => s.getAttribute('data-section')),
        name,
      ).to.deep.equal([])
      expect(document.documentElement.scrollWidth, name).to.be.at.most(375)
      el.remove()
    }
  })

  it('follows dark mode', async () => {
    $prefs.setKey('theme', 'dark')
    await asRoot()
    const el = await tab('system')
    const card = section(el, 'login')
    const bg = getComputedStyle(card).backgroundColor
    const [r, g, b] = bg.match(/\d+/g)!.map(Number)
    expect(r! + g! + b!, bg).to.be.below(200)
    const text = getComputedStyle(card.querySelector('h2')!).color.match(/\d+/g)!.map(Number)
    expect(text[0]! + text[1]! + text[2]!).to.be.above(500)
  })

  it('speaks Simplified Chinese', async () => {
    $prefs.setKey('locale', 'zh')
    await asRoot()
    const el = await tab('operation')
    await waitForText(el, '通用设置')
    expect(textOf(el)).to.include('倍率设置')
    await save(el, 'general')
    await waitForToast(el, '你似乎并没有修改什么')
    await fill(el, 'QuotaForInviter', '-5')
    await save(el, 'quota')
    await waitFor(() => toastTexts(el).some((m) => m.includes('必须是不小于 0 的整数')), 'the Chinese number message')
  })
})

describe('settings tabs inside <tollgate-settings>', () => {
  afterEach(done)

  it('shows the three tabs to the super administrator and saves from them', async () => {
    await asRoot()
    const el = await mount('<tollgate-settings tab="system"></tollgate-settings>')
    await waitFor(() => section(el, 'smtp'), 'the system tab')
    puts()
    await fill(el, 'SMTPPort', '465')
    await waitFor(() => switchOf(el, 'SMTPSSLEnabled').checked, 'SSL switched on')
    await save(el, 'smtp')
    await waitForToast(el, 'saved')
    expect(puts().map((p) => p.key)).to.deep.equal(['SMTPPort', 'SMTPSSLEnabled'])
    $<HTMLElement>(el, '[data-tab-name="other"]')!.click()
    await waitFor(() => section(el, 'notice'), 'the other tab')
    await fillArea(el, 'Notice', '<i>hello</i>', false)
    await waitFor(() => section(el, 'notice').querySelector('[data-preview-body] i')?.textContent === 'hello', 'the preview')
    $<HTMLElement>(el, '[data-tab-name="operation"]')!.click()
    await waitFor(() => section(el, 'ratios'), 'the operation tab')
  })

  it('keeps them from other users', async () => {
    await registerAndSignIn()
    const el = await mount('<tollgate-settings tab="operation"></tollgate-settings>')
    await waitFor(() => $(el, '[data-screen="settings"]'), 'the settings screen')
    await sleep(300)
    expect($(el, '[data-section]')).to.equal(null)
    expect($(el, '[data-tab-name="operation"]')).to.equal(null)
  })
})
