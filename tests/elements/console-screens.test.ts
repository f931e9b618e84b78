import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { setClock } from '../../src/stores/clock.ts'
import { dismissToast, showToast } from '../../src/stores/toasts.ts'
import {
  $,
  $$,
  cleanup,
  loadStatus,
  recordEvents,
  registerAndSignIn,
  setOptions,
  sleep,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import { consoleAt } from './console-helpers.ts'

describe('<tollgate-console> top bar', () => {
  afterEach(cleanup)

  it("titles the tab with the screen's name and SystemName, sets <html lang> to the reader's language, and gives both back", async () => {
    const [before, beforeLang] = [document.title, document.documentElement.lang]
    await setOptions({ SystemName: 'Acme Gateway' })
    await loadStatus()
    const el = await consoleAt('/pricing')
    await waitFor(() => document.title === 'Model pricing · Acme Gateway', 'the pricing title')
    $<HTMLAnchorElement>(el, 'nav[part="sidebar"] [data-nav="home"]')!.click()
    await waitFor(() => document.title === 'Home · Acme Gateway', 'the home title')
    expect(document.documentElement.lang).to.equal('en')
    $prefs.setKey('locale', 'zh')
    await waitFor(() => document.title === '首页 · Acme Gateway', 'the title in Chinese')
    expect(document.documentElement.lang).to.equal('zh-CN', '<html lang> follows the switch')
    expect($(el, '[part="root"]')!.getAttribute('lang')).to.equal('zh-CN')
    el.remove()
    expect([document.title, document.documentElement.lang]).to.deep.equal([before, beforeLang])
  })

  const greeting = async (date: Date) => {
    setClock(() => date)
    const el = await consoleAt('/')
    await waitFor(() => $(el, 'header[part="header"]'))
    const tag = $(el, '[data-festive]')
    const text = tag?.textContent ?? null
    await cleanup()
    return text
  }

  it('greets on Jan 1 and Feb 9 to 24 only', async () => {
    expect(await greeting(new Date(2026, 0, 1, 9))).to.equal('Happy New Year!')
    expect(await greeting(new Date(2026, 1, 9, 9))).to.equal('Happy Spring Festival!')
    expect(await greeting(new Date(2026, 1, 24, 23))).to.equal('Happy Spring Festival!')
    expect(await greeting(new Date(2026, 0, 2, 9))).to.equal(null)
    expect(await greeting(new Date(2026, 1, 8, 9))).to.equal(null)
    expect(await greeting(new Date(2026, 1, 25, 9))).to.equal(null)
    expect(await greeting(new Date(2026, 6, 1, 9))).to.equal(null)
  })

  it('switches between light and dark, and remembers it', async () => {
    const el = await consoleAt('/')
    const root = await waitFor(() => $(el, '.tg-root'))
    expect(root.classList.contains('sl-theme-dark')).to.equal(false)
    const lightBackground = getComputedStyle($(el, '.tg-console')!).backgroundColor
    ;($(el, '[data-action="theme"]') as HTMLElement).click()
    await waitFor(() => root.classList.contains('sl-theme-dark'), 'dark mode')
    expect(getComputedStyle($(el, '.tg-console')!).backgroundColor).to.not.equal(lightBackground)
    expect(JSON.parse(localStorage.getItem('tollgate:theme')!)).to.equal('dark')
    ;($(el, '[data-action="theme"]') as HTMLElement).click()
    await waitFor(() => !root.classList.contains('sl-theme-dark'), 'light mode')
  })

  it('switches the language to Simplified Chinese and back', async () => {
    const el = await consoleAt('/')
    await waitForText(el, 'Model pricing')
    const zh = await waitFor(() => $$(el, 'sl-menu-item').find((i) => (i as HTMLElement & { value: string }).value === 'zh'))
    const dropdown = zh.closest('sl-dropdown') as HTMLElement & { show(): Promise<void> }
    await dropdown.show()
    zh.click()
    await waitForText(el, '模型价格')
    expect(JSON.parse(localStorage.getItem('tollgate:locale')!)).to.equal('zh')
    expect($(el, '.tg-root')!.getAttribute('lang')).to.equal('zh-CN')
    const en = $$(el, 'sl-menu-item').find((i) => (i as HTMLElement & { value: string }).value === 'en')!
    await dropdown.show()
    en.click()
    await waitForText(el, 'Model pricing')
  })

  it('shows sign-in and register links to a visitor', async () => {
    const el = await consoleAt('/')
    await waitFor(() => $(el, '[data-link="login"]'))
    expect($(el, '[data-link="register"]')!.getAttribute('href')).to.equal('/register')
    expect($(el, '[data-action="account"]')).to.equal(null)
  })
})

describe('<tollgate-console> home, about and chat', () => {
  afterEach(cleanup)

  it('shows HomePageContent sanitised, with the Notice', async () => {
    await setOptions({
      HomePageContent: '<h2>Our gateway</h2><img src="x" onerror="window.__tgHome = 1">',
      Notice: '<p>Maintenance <b>tonight</b></p><script>window.__tgHome = 2</script>',
    })
    const el = await consoleAt('/')
    const content = await waitFor(() => $(el, '[data-home-content]'), 'the home content')
    expect(content.querySelector('h2')!.textContent).to.equal('Our gateway')
    expect(content.querySelector('img')!.hasAttribute('onerror')).to.equal(false)
    const notice = $(el, '[data-notice]')!
    expect(notice.textContent).to.include('Maintenance tonight')
    expect(notice.querySelector('script')).to.equal(null)
    await sleep(100)
    expect((window as unknown as { __tgHome?: number }).__tgHome).to.equal(undefined)
  })

  it('shows a HomePageContent that is a URL in a sandboxed frame', async () => {
    await setOptions({ HomePageContent: 'https://home.example.com/welcome' })
    const el = await consoleAt('/')
    const frame = await waitFor(() => $<HTMLIFrameElement>(el, 'iframe[data-home-frame]'), 'the frame')
    expect(frame.src).to.equal('https://home.example.com/welcome')
    expect(frame.getAttribute('sandbox')).to.be.a('string')
    expect(frame.getAttribute('sandbox')).to.not.include('allow-same-origin')
  })

  it('shows a welcome page without HomePageContent', async () => {
    await loadStatus()
    const el = await consoleAt('/')
    await waitForText(el, 'Welcome to Tollgate')
  })

  it('shows About sanitised, and a message when it is empty', async () => {
    await setOptions({ About: '<p>We are <em>Acme</em></p><img src=x onerror="window.__tgAbout=1">' })
    const el = await consoleAt('/about')
    const about = await waitFor(() => $(el, '[data-about-content]'), 'the about content')
    expect(about.querySelector('em')!.textContent).to.equal('Acme')
    expect(about.querySelector('img')!.hasAttribute('onerror')).to.equal(false)
    await cleanup()
    const empty = await consoleAt('/about')
    await waitForText(empty, 'The administrator has not written an about page yet.')
  })

  it("says 'admin has not set chat link' without a chat link, and frames it when set", async () => {
    await setOptions({ ChatLink: '' })
    await loadStatus()
    const el = await consoleAt('/chat')
    await waitForText(el, 'admin has not set chat link')
    await cleanup()
    await setOptions({ ChatLink: 'https://chat.example.com/' })
    await loadStatus()
    const framed = await consoleAt('/chat')
    const frame = await waitFor(() => $<HTMLIFrameElement>(framed, 'iframe.tg-chat__frame'), 'the chat frame')
    expect(frame.src).to.equal('https://chat.example.com/')
  })
})

describe('<tollgate-console> /oauth/github', () => {
  afterEach(cleanup)

  it('signs in with the code and state from the query and lands on /token', async () => {
    await setOptions({ GitHubOAuthEnabled: true, GitHubClientId: 'gh-client', GitHubClientSecret: 'gh-secret' })
    const state = (await fetch('/api/oauth/state').then((r) => r.json())).data as string
    const rec = recordEvents('tollgate-login')
    try {
      const el = await consoleAt(`/oauth/github?code=good-code&state=${state}`)
      await waitFor(() => location.pathname === '/token', 'landing on /token')
      await waitForToast(el, 'logged in')
      expect($session.get()?.github_id).to.equal('4242')
      expect(rec.events).to.have.length(1)
    } finally {
      rec.stop()
    }
  })

  it("goes back to /login with the server's message when the state does not match", async () => {
    await setOptions({ GitHubOAuthEnabled: true, GitHubClientId: 'gh-client', GitHubClientSecret: 'gh-secret' })
    const el = await consoleAt('/oauth/github?code=good-code&state=forged')
    await waitFor(() => location.pathname === '/login', 'the sign-in page')
    await waitForToast(el, 'Error: the sign-in state is missing or does not match; start the GitHub sign-in again')
    expect($session.get()).to.equal(null)
  })
})

describe('<tollgate-console> toasts', () => {
  afterEach(cleanup)

  it('stacks toasts at the top centre in its own shadow root, clear of the page header button', async () => {
    await registerAndSignIn()
    const el = await consoleAt('/token')
    const action = await waitFor(() => $(el, '.tg-page-header sl-button, .tg-page-header .tg-button'), 'the page header action')
    const id = showToast('success', 'saved at the top', Infinity)
    try {
      await waitForToast(el, 'saved at the top')
      const region = el.shadowRoot!.querySelector<HTMLElement>('.tg-toasts')!
      expect(region, 'toast region in the shadow root').to.not.equal(null)
      const box = el.shadowRoot!.querySelector('.tg-toast')!.getBoundingClientRect()
      expect(box.top).to.be.within(0, 32)
      expect(Math.abs(box.left - (innerWidth - box.right))).to.be.at.most(2)
      const a = action.getBoundingClientRect()
      const overlaps = box.left < a.right && box.right > a.left && box.top < a.bottom && box.bottom > a.top
      expect(overlaps, 'toast over the header action').to.equal(false)
    } finally {
      dismissToast(id)
    }
  })

  it('centres the toasts at the top on a phone, between the corner buttons', async () => {
    await setViewport({ width: 375, height: 740 })
    const id = showToast('success', 'centred on a phone', Infinity)
    try {
      await registerAndSignIn()
      const el = await consoleAt('/token')
      await waitForToast(el, 'centred on a phone')
      const box = el.shadowRoot!.querySelector('.tg-toast')!.getBoundingClientRect()
      expect(box.top).to.be.within(0, 32)
      expect(Math.abs(box.left - (innerWidth - box.right))).to.be.at.most(2)
      expect(box.left, 'clear of the menu button').to.be.at.least(48)
    } finally {
      dismissToast(id)
      await setViewport({ width: 1280, height: 800 })
    }
  })
})
