import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { $status, refreshStatus } from '../../src/stores/status.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import {
  CONSOLE_HEADER,
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
import { navKeys, consoleAt } from './console-helpers.ts'

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
    await fetch('/api/user/logout', CONSOLE_HEADER)
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

  it('keeps a footer from covering the page: no style attribute, and the box contains its content', async () => {
    await setOptions({ Footer: '<div data-overlay style="position:fixed;inset:0;z-index:99999;background:#f00">Pay here</div>' })
    const el = await consoleAt('/')
    void refreshStatus()
    const overlay = await waitFor(() => $<HTMLElement>(el, '[data-footer="custom"] [data-overlay]'), 'the footer HTML')
    expect(overlay.hasAttribute('style')).to.equal(false)
    expect(getComputedStyle(overlay).position).to.equal('static')
    expect(getComputedStyle($(el, '[data-footer="custom"]')!).contain).to.include('paint')
    expect(overlay.getBoundingClientRect().height).to.be.lessThan(window.innerHeight / 2)
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
