import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { $status, refreshStatus } from '../../src/stores/status.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { setClock } from '../../src/stores/clock.ts'
import { dismissToast, showToast } from '../../src/stores/toasts.ts'
import {
  $,
  $$,
  cleanup,
  fill,
  goTo,
  loadStatus,
  mount,
  recordEvents,
  registerAndSignIn,
  setOptions,
  signInAs,
  sleep,
  submit,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

const navKeys = (el: Element) => $$(el, 'nav[part="sidebar"] [data-nav]').map((a) => a.getAttribute('data-nav'))

async function consoleAt(path: string): Promise<HTMLElement> {
  goTo(path)
  return mount('<tollgate-console></tollgate-console>')
}

describe('<tollgate-console> sidebar', () => {
  afterEach(cleanup)

  it('shows the entries for a visitor, in order, without admin entries or disabled features', async () => {
    await setOptions({ DataExportEnabled: false, DrawingEnabled: false, ChatLink: '' })
    await loadStatus()
    const el = await consoleAt('/')
    await waitFor(() => navKeys(el).length, 'the sidebar')
    expect(navKeys(el)).to.deep.equal([
      'home',
      'token',
      'wallet',
      'pricing',
      'log',
      'music',
      'luma',
      'viggle',
      'runway',
      'ideo',
      'kling',
      'pika',
      'setting',
    ])
  })

  it('adds chat, data dashboard and drawing when the status enables them', async () => {
    await setOptions({ DataExportEnabled: true, DrawingEnabled: true, ChatLink: 'https://chat.example.com' })
    await loadStatus()
    const el = await consoleAt('/')
    await waitFor(() => navKeys(el).includes('chat'), 'the chat entry')
    expect(navKeys(el)).to.include.members(['chat', 'detail', 'drawing'])
    expect(navKeys(el).indexOf('chat')).to.equal(1)
  })

  it('shows every label in full, wrapping a long one (Image generation (Ideogram)) to two lines', async () => {
    await setViewport({ width: 1280, height: 800 })
    const el = await consoleAt('/')
    const link = await waitFor(() => $<HTMLElement>(el, 'nav[part="sidebar"] [data-nav="ideo"]'), 'the Ideogram entry')
    const label = link.querySelector<HTMLElement>('.tg-nav__label')!
    expect(label.textContent).to.equal('Image generation (Ideogram)')
    expect(label.scrollWidth).to.be.at.most(label.clientWidth)
    expect(label.getBoundingClientRect().right).to.be.at.most($(el, 'nav[part="sidebar"]')!.getBoundingClientRect().right)
    for (const l of $$<HTMLElement>(el, 'nav[part="sidebar"] .tg-nav__label'))
      expect(l.scrollWidth, l.textContent!).to.be.at.most(l.clientWidth)
  })

  it('adds channel, redemption and user management for administrators only', async () => {
    await registerAndSignIn()
    const user = await consoleAt('/')
    await waitFor(() => navKeys(user).length, 'the sidebar')
    expect(navKeys(user)).to.not.include.members(['channel'])
    expect(navKeys(user)).to.not.include('redemption')
    expect(navKeys(user)).to.not.include('user')
    await cleanup()

    await signInAs('root', '123456')
    const admin = await consoleAt('/')
    await waitFor(() => navKeys(admin).includes('channel'), 'the admin entries')
    expect(navKeys(admin)).to.include.members(['channel', 'redemption', 'user'])
    expect(navKeys(admin).slice(0, 2)).to.deep.equal(['home', 'channel'])
  })

  it('marks the current entry', async () => {
    const el = await consoleAt('/pricing')
    const link = await waitFor(() => $(el, '[data-nav="pricing"]'))
    expect(link.getAttribute('aria-current')).to.equal('page')
    expect($(el, '[data-nav="home"]')!.hasAttribute('aria-current')).to.equal(false)
  })

  it('is collapsed when DefaultCollapseSidebar is on, expanded otherwise, and the toggle overrides it', async () => {
    await setOptions({ DefaultCollapseSidebar: true })
    await loadStatus()
    const el = await consoleAt('/')
    const nav = await waitFor(() => $(el, 'nav[part="sidebar"]'))
    await waitFor(() => nav.getAttribute('data-collapsed') === 'true', 'collapsed')
    ;($(el, '[data-action="menu"]') as HTMLElement).click()
    await waitFor(() => nav.getAttribute('data-collapsed') === 'false', 'expanded by the toggle')
    expect($prefs.get()['sidebar-collapsed']).to.equal(false)
    await cleanup()

    await setOptions({ DefaultCollapseSidebar: false })
    await loadStatus()
    const again = await consoleAt('/')
    const nav2 = await waitFor(() => $(again, 'nav[part="sidebar"]'))
    expect(nav2.getAttribute('data-collapsed')).to.equal('false')
  })

  it('is a drawer behind the menu button on a 375 px screen', async () => {
    await setViewport({ width: 375, height: 740 })
    try {
      const el = await consoleAt('/')
      await waitFor(() => $(el, '[data-action="menu"]'))
      expect($(el, '.tg-sidebar:not(.tg-sidebar--drawer)')).to.equal(null)
      const drawer = $<HTMLElement & { open: boolean }>(el, 'sl-drawer')!
      expect(drawer.open).to.equal(false)
      ;($(el, '[data-action="menu"]') as HTMLElement).click()
      await waitFor(() => drawer.open, 'the drawer to open')
      expect(drawer.querySelectorAll('[data-nav]').length).to.be.greaterThan(5)
      ;(drawer.querySelector('[data-nav="pricing"]') as HTMLElement).click()
      await waitFor(() => location.pathname === '/pricing' && !drawer.open, 'navigation and the drawer to close')
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })
})

describe('<tollgate-console> routes', () => {
  afterEach(cleanup)

  it('sends a visitor from a guarded route to /login', async () => {
    const el = await consoleAt('/token')
    await waitFor(() => location.pathname === '/login', 'the redirect')
    await waitFor(() => $(el, 'form[part="form"]'), 'the sign-in form')
    expect(textOf(el)).to.not.include('later release')
  })

  it('guards admin routes and task lists too', async () => {
    for (const path of ['/channel/edit/3', '/user/edit', '/setting', '/kling', '/topup']) {
      const el = await consoleAt(path)
      await waitFor(() => location.pathname === '/login', `the redirect from ${path}`)
      el.remove()
    }
  })

  it('lets a visitor open the public routes', async () => {
    const el = await consoleAt('/pricing')
    await waitFor(() => $(el, '[data-screen="pricing"]'), 'the pricing screen')
    expect(location.pathname).to.equal('/pricing')
  })

  it("shows the not-found page: 'page does not exist, check your browser address'", async () => {
    const el = await consoleAt('/no/such/page')
    await waitForText(el, 'page does not exist, check your browser address')
    expect($(el, 'main[part="content"]')!.getAttribute('data-route')).to.equal('not-found')
  })

  it('renders the tokens screen at /token for a signed-in user', async () => {
    await registerAndSignIn()
    const el = await consoleAt('/token')
    await waitFor(() => $(el, '[data-screen="tokens"]'), 'the tokens screen')
    expect(location.pathname).to.equal('/token')
  })

  it('tells an ordinary user that admin pages are for administrators', async () => {
    await registerAndSignIn()
    const el = await consoleAt('/channel')
    await waitForText(el, 'This page is for administrators')
  })

  it('routes with the History API: links, back and forward', async () => {
    const el = await consoleAt('/')
    ;(await waitFor(() => $<HTMLAnchorElement>(el, '[data-nav="pricing"]'))).click()
    await waitFor(() => location.pathname === '/pricing')
    await waitFor(() => $(el, '[data-screen="pricing"]'), 'the pricing screen')
    ;($(el, '[data-nav="about"]') ?? $<HTMLAnchorElement>(el, 'a[href="/about"]'))!.click()
    await waitFor(() => location.pathname === '/about')
    history.back()
    await waitFor(() => location.pathname === '/pricing', 'back')
    await waitFor(() => $(el, '[data-screen="pricing"]'), 'the pricing screen')
    history.forward()
    await waitFor(() => location.pathname === '/about', 'forward')
    await waitFor(() => $(el, 'main[part="content"]')!.getAttribute('data-route') === '/about')
  })

  it('follows a link with the keyboard', async () => {
    const el = await consoleAt('/')
    const link = await waitFor(() => $<HTMLAnchorElement>(el, '[data-nav="pricing"]'))
    link.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => location.pathname === '/pricing', 'navigation by Enter')
  })

  it('lets the host take over: a cancelled tollgate-navigate leaves the URL alone', async () => {
    const el = await consoleAt('/')
    const cancel = (e: Event) => e.preventDefault()
    const rec = recordEvents('tollgate-navigate')
    document.addEventListener('tollgate-navigate', cancel)
    try {
      ;(await waitFor(() => $<HTMLAnchorElement>(el, '[data-nav="pricing"]'))).click()
      await sleep(50)
      expect(location.pathname).to.equal('/')
      expect(rec.events.map((e) => e.detail.to)).to.deep.equal(['/pricing'])
      expect(rec.events[0]!.target).to.equal(el)
    } finally {
      document.removeEventListener('tollgate-navigate', cancel)
      rec.stop()
    }
  })

  it('signs in, lands on /token and emits tollgate-login; signs out from the account menu', async () => {
    const username = (await registerAndSignIn()).username
    await fetch('/api/user/logout')
    $session.set(null)
    const rec = recordEvents('tollgate-login', 'tollgate-logout')
    try {
      const el = await consoleAt('/login')
      await fill(el, 'username', username)
      await fill(el, 'password', 'password123')
      await submit(el)
      await waitFor(() => location.pathname === '/token', 'landing on /token')
      await waitFor(() => $(el, '[data-screen="tokens"]'), 'the tokens screen')
      expect(rec.events.map((e) => e.type)).to.deep.equal(['tollgate-login'])
      expect(rec.events[0]!.detail.user.username).to.equal(username)

      const account = await waitFor(() => $<HTMLElement>(el, '[data-action="account"]'), 'the account menu')
      expect(account.textContent).to.include(username)
      const logout = $<HTMLElement>(el, 'sl-menu-item[data-action="logout"]')!
      const dropdown = logout.closest('sl-dropdown') as HTMLElement & { show(): Promise<void> }
      await dropdown.show()
      logout.click()
      await waitFor(() => location.pathname === '/login', 'the sign-in page')
      await waitForToast(el, 'signed out')
      expect($session.get()).to.equal(null)
      expect(rec.events.map((e) => e.type)).to.deep.equal(['tollgate-login', 'tollgate-logout'])
      const self = await fetch('/api/user/self')
      expect(self.status).to.equal(401)
      expect($(el, '[data-link="login"]')).to.exist
    } finally {
      rec.stop()
    }
  })
})

describe('<tollgate-console> footer', () => {
  afterEach(cleanup)

  it('shows the default credit line without custom footer HTML', async () => {
    const el = await consoleAt('/')
    const footer = await waitFor(() => $(el, 'footer[part="footer"]'))
    expect(footer.querySelector('[data-footer="default"]')!.textContent).to.include('source under the MIT licence')
  })

  it('shows the custom footer HTML sanitised, polled until the status brings it', async () => {
    await setOptions({
      Footer: '<b class="brand">Acme gateway</b><img src="x" onerror="window.__tgXss = 1"><script>window.__tgXss = 2</script>',
    })
    expect($status.get()).to.equal(null)
    const el = await consoleAt('/')
    // at first nothing is known and the credit line shows; then the status load brings the HTML
    expect($(el, '[data-footer="default"]')).to.exist
    void refreshStatus()
    await waitFor(() => $(el, '[data-footer="custom"]'), 'the custom footer')
    const custom = $(el, '[data-footer="custom"]')!
    expect(custom.querySelector('b.brand')!.textContent).to.equal('Acme gateway')
    expect(custom.querySelector('script')).to.equal(null)
    expect(custom.querySelector('img')!.hasAttribute('onerror')).to.equal(false)
    await sleep(100)
    expect((window as unknown as { __tgXss?: number }).__tgXss).to.equal(undefined)
  })

  it('stops polling after 5 tries (1 s): a footer that arrives later shows on the next load', async () => {
    await loadStatus()
    const el = await consoleAt('/')
    await waitFor(() => $(el, '[data-footer="default"]'))
    await sleep(1300)
    $status.set({ ...$status.get()!, footer_html: '<i>late footer</i>' })
    await sleep(300)
    expect($(el, '[data-footer="custom"]')).to.equal(null)
    expect($(el, '[data-footer="default"]')).to.exist
  })

  it('is hidden by the no-footer attribute', async () => {
    goTo('/')
    const el = await mount('<tollgate-console no-footer></tollgate-console>')
    await waitFor(() => $(el, 'header[part="header"]'))
    expect($(el, 'footer')).to.equal(null)
  })
})

describe('<tollgate-console> top bar', () => {
  afterEach(cleanup)

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

  it('stacks toasts bottom right in its own shadow root, clear of the page header button', async () => {
    await registerAndSignIn()
    const el = await consoleAt('/token')
    const action = await waitFor(() => $(el, '.tg-page-header sl-button, .tg-page-header .tg-button'), 'the page header action')
    const id = showToast('success', 'saved at the bottom', Infinity)
    try {
      await waitForToast(el, 'saved at the bottom')
      const region = el.shadowRoot!.querySelector<HTMLElement>('.tg-toasts')!
      expect(region, 'toast region in the shadow root').to.not.equal(null)
      const box = el.shadowRoot!.querySelector('.tg-toast')!.getBoundingClientRect()
      expect(innerHeight - box.bottom).to.be.within(0, 32)
      expect(innerWidth - box.right).to.be.within(0, 32)
      const a = action.getBoundingClientRect()
      const overlaps = box.left < a.right && box.right > a.left && box.top < a.bottom && box.bottom > a.top
      expect(overlaps, 'toast over the header action').to.equal(false)
    } finally {
      dismissToast(id)
    }
  })

  it('centres the toasts at the bottom on a phone', async () => {
    await setViewport({ width: 375, height: 740 })
    const id = showToast('success', 'centred on a phone', Infinity)
    try {
      await registerAndSignIn()
      const el = await consoleAt('/token')
      await waitForToast(el, 'centred on a phone')
      const box = el.shadowRoot!.querySelector('.tg-toast')!.getBoundingClientRect()
      expect(innerHeight - box.bottom).to.be.within(0, 32)
      expect(Math.abs(box.left - (innerWidth - box.right))).to.be.at.most(2)
    } finally {
      dismissToast(id)
      await setViewport({ width: 1280, height: 800 })
    }
  })
})
