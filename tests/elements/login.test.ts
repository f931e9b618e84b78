import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { $status } from '../../src/stores/status.ts'
import { setLocale } from '../../src/stores/prefs.ts'
import {
  CONSOLE_HEADER,
  $,
  $$,
  cleanup,
  fill,
  inputNamed,
  submitButton,
  goTo,
  loadStatus,
  mount,
  recordEvents,
  registerAndSignIn,
  serverCommand,
  setOptions,
  sleep,
  stayOnPage,
  submit,
  textOf,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

describe('<tollgate-login> validation', () => {
  afterEach(cleanup)

  it("says 'please enter username and password' when either is missing", async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    await submit(el)
    await waitForText(el, 'please enter username and password')
    await fill(el, 'username', 'someone')
    await submit(el)
    await waitForText(el, 'please enter username and password')
  })

  it('says it in Simplified Chinese when the language is zh', async () => {
    setLocale('zh')
    const el = await mount('<tollgate-login></tollgate-login>')
    await submit(el)
    await waitForText(el, '请输入用户名和密码')
  })

  it('shows the expiry notice when the URL carries the expiry marker', async () => {
    goTo('/login?expired=true')
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitForText(el, 'not logged in or login expired, please log in again')
  })

  it('shows no expiry notice without the marker', async () => {
    goTo('/login')
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(el, 'form'))
    expect(textOf(el)).to.not.include('login expired')
  })
})

describe('<tollgate-login> against the real server', () => {
  afterEach(cleanup)

  it("shows the server's message as an error toast on a wrong password and stores nobody", async () => {
    const nav = stayOnPage()
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      await fill(el, 'username', 'root')
      await fill(el, 'password', 'wrong-password')
      await submit(el)
      await waitForToast(el, 'wrong username or password, or the user has been banned')
      expect($session.get()).to.equal(null)
      expect(nav.targets).to.deep.equal([])
    } finally {
      nav.stop()
    }
  })

  it("signs in: stores the user, says 'logged in', emits tollgate-login and asks for /token", async () => {
    const username = uniqueName('login')
    await registerAndSignIn(username, 'password123')
    await fetch('/api/user/logout', CONSOLE_HEADER)
    $session.set(null)
    const nav = stayOnPage()
    const rec = recordEvents('tollgate-login')
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      await fill(el, 'username', username)
      await fill(el, 'password', 'password123')
      await submit(el)
      await waitForToast(el, 'logged in')
      expect($session.get()?.username).to.equal(username)
      expect(JSON.parse(localStorage.getItem('tollgate:user')!).username).to.equal(username)
      expect(rec.events).to.have.length(1)
      const event = rec.events[0]!
      expect(event.target).to.equal(el)
      expect(event.bubbles && event.composed).to.equal(true)
      expect(event.detail.user.username).to.equal(username)
      expect(nav.targets).to.deep.equal(['/token'])
      expect(toastTexts(el).some((t) => t.includes('default super-administrator password'))).to.equal(false)
      // the cookie the server set is a real session
      const self = await fetch('/api/user/self').then((r) => r.json())
      expect(self.data.username).to.equal(username)
    } finally {
      nav.stop()
      rec.stop()
    }
  })

  it('warns root signing in with the default password 123456', async () => {
    const nav = stayOnPage()
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      await fill(el, 'username', 'root')
      await fill(el, 'password', '123456')
      await submit(el)
      await waitForToast(el, 'logged in')
      await waitFor(() => toastTexts(el).some((t) => t.includes('default super-administrator password')), 'the warning')
    } finally {
      nav.stop()
    }
  })

  it('submits with the Enter key', async () => {
    const nav = stayOnPage()
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      await fill(el, 'username', 'root')
      await fill(el, 'password', 'wrong-again')
      const input = inputNamed(el, 'password')!
      const inner = input.shadowRoot!.querySelector('input')!
      inner.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }))
      await waitForToast(el, 'wrong username or password, or the user has been banned')
    } finally {
      nav.stop()
    }
  })
})

describe('<tollgate-login> outside sign-in methods', () => {
  afterEach(cleanup)

  it('shows none of them when the public status enables none', async () => {
    await loadStatus()
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(el, 'form'))
    expect($(el, '[data-oauth]')).to.equal(null)
    expect($(el, '.tg-turnstile')).to.equal(null)
  })

  it('shows GitHub, WeChat and Telegram when the status enables them', async () => {
    await setOptions({
      GitHubOAuthEnabled: true,
      GitHubClientId: 'gh-client',
      WeChatAuthEnabled: true,
      WeChatAccountQRCodeImageURL: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      TelegramOAuthEnabled: true,
      TelegramBotName: 'tollgate_bot',
    })
    await loadStatus()
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(el, '[data-provider="github"]'), 'the GitHub button')
    expect($(el, '[data-provider="wechat"]')).to.exist
    const telegram = $(el, '[data-provider="telegram"] iframe') as HTMLIFrameElement
    expect(telegram.getAttribute('data-auth-url')).to.equal('/api/oauth/telegram/login')
    expect(new URL(telegram.src).searchParams.get('return_to')).to.equal(new URL('/api/oauth/telegram/login', location.href).href)
  })

  it('opens the WeChat dialog with the QR code and asks for the code', async () => {
    await setOptions({ WeChatAuthEnabled: true, WeChatAccountQRCodeImageURL: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' })
    await loadStatus()
    const el = await mount('<tollgate-login></tollgate-login>')
    ;(await waitFor(() => $<HTMLElement>(el, '[data-provider="wechat"]'))).click()
    const dialog = await waitFor(() => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[open]'), 'the dialog')
    expect(dialog.querySelector('img')!.getAttribute('src')).to.include('data:image/gif')
    submitButton(dialog)!.click()
    await waitFor(() => dialog.textContent!.includes('please enter the verification code'), 'the message')
  })

  it('asks to retry when the bot check is on and has no result yet', async () => {
    await setOptions({ TurnstileCheckEnabled: true, TurnstileSiteKey: 'site-key' })
    await loadStatus()
    expect($status.get()?.turnstile_check).to.equal(true)
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(el, '.tg-turnstile'), 'the bot-check widget')
    await fill(el, 'username', 'root')
    await fill(el, 'password', '123456')
    await submit(el)
    await waitForText(el, 'please retry in a few seconds, the bot check is still running')
    expect($session.get()).to.equal(null)
    expect($$(el, '.tg-toast__message').length).to.equal(0)
  })
})

describe('<tollgate-login> outside sign-in against the real server', () => {
  afterEach(async () => {
    delete (window as unknown as { turnstile?: unknown }).turnstile
    await cleanup()
  })

  it('signs in with the WeChat code (GET /api/oauth/wechat?code=)', async () => {
    const outside = await serverCommand<string>('tg-outside-base')
    await setOptions({ WeChatAuthEnabled: true, WeChatServerAddress: `${outside}/wechat`, WeChatServerToken: 'wx-token' })
    await loadStatus()
    const nav = stayOnPage()
    const rec = recordEvents('tollgate-login')
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      ;(await waitFor(() => $<HTMLElement>(el, '[data-provider="wechat"]'))).click()
      const dialog = await waitFor(() => $<HTMLElement>(el, 'sl-dialog[open]'), 'the dialog')
      await fill(el, 'wechat-code', '000000')
      submitButton(dialog)!.click()
      await waitForToast(el, 'the WeChat verification code is wrong or has expired')
      expect($session.get()).to.equal(null)
      await fill(el, 'wechat-code', '246810')
      submitButton(dialog)!.click()
      await waitForToast(el, 'logged in')
      expect($session.get()?.wechat_id).to.equal('wx-open-id-1')
      expect(rec.events).to.have.length(1)
      expect(nav.targets).to.deep.equal(['/token'])
    } finally {
      nav.stop()
      rec.stop()
    }
  })

  it('passes the bot-check result as ?turnstile= on sign-in', async () => {
    await setOptions({ TurnstileCheckEnabled: true, TurnstileSiteKey: 'site-key', TurnstileSecretKey: 'secret' })
    await loadStatus()
    let give: (token: string) => void = () => {}
    ;(window as unknown as { turnstile: unknown }).turnstile = {
      render: (_el: HTMLElement, options: { sitekey: string; callback: (t: string) => void }) => {
        expect(options.sitekey).to.equal('site-key')
        give = options.callback
        return 'widget-1'
      },
      remove: () => {},
    }
    const nav = stayOnPage()
    try {
      const el = await mount('<tollgate-login></tollgate-login>')
      await waitFor(() => $(el, '.tg-turnstile'))
      await fill(el, 'username', 'root')
      await fill(el, 'password', '123456')
      give('bad-token')
      await sleep(50)
      await submit(el)
      await waitForToast(el, 'the bot check failed; refresh the page and retry')
      give('good-token')
      await sleep(50)
      await submit(el)
      await waitForToast(el, 'logged in')
      expect($session.get()?.username).to.equal('root')
    } finally {
      nav.stop()
    }
  })
})
