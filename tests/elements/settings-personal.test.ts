import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import {
  $,
  $$,
  cleanup,
  inputNamed,
  lastMail,
  loadStatus,
  recordEvents,
  serverCommand,
  setOptions,
  sleep,
  stayOnPage,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import {
  type Dialog,
  user,
  serverUser,
  mountSettings,
  card,
  fact,
  action,
  dialog,
  type,
  submitDialog,
  stubClipboard,
} from './settings-helpers.ts'

describe('<tollgate-settings> personal tab', () => {
  afterEach(cleanup)

  it('asks to sign in when nobody is signed in', async () => {
    const el = await mountSettings()
    await waitForText(el, 'Sign in to change your settings')
  })

  it('shows name, role badge, id, group, balance, used quota and request count from the server', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const { username } = await user({ display_name: 'Ada L.', quota: 250000, used_quota: 12000, request_count: 42 })
    const el = await mountSettings()
    const profile = card(el, 'profile')
    await waitFor(() => fact(el, 'requests') === '42', 'the fresh user')
    expect(profile.querySelector('h2')!.textContent).to.equal('Ada L.')
    expect(profile.textContent).to.include(`@${username}`)
    expect(profile.querySelector('[data-role]')!.textContent!.trim()).to.equal('User')
    expect(fact(el, 'id')).to.equal(String((await serverUser(username)).id))
    expect(fact(el, 'group')).to.equal('default')
    expect(fact(el, 'quota')).to.equal('250k')
    expect(fact(el, 'used')).to.equal('12k')
  })

  it('names the administrator and super-administrator roles on the badge', async () => {
    await user({ role: 10 })
    let el = await mountSettings()
    expect($(el, '[data-role]')!.textContent!.trim()).to.equal('Administrator')
    el.remove()
    await user({ role: 100 })
    el = await mountSettings()
    expect($(el, '[data-role]')!.textContent!.trim()).to.equal('Super administrator')
  })

  it("lists the models of the user's group and copies one on click or Enter", async () => {
    const group = `g${Date.now().toString(36)}`
    await serverCommand('tg-h3-models', { group, models: ['gpt-4o', 'claude-3-5-sonnet'] })
    await user({ group })
    const copied: string[] = []
    const restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountSettings()
      const chips = await waitFor(
        () => $$(el, '[data-models] button').length === 2 && $$<HTMLElement>(el, '[data-models] button'),
        'the models',
      )
      expect(chips.map((c) => c.textContent)).to.deep.equal(['claude-3-5-sonnet', 'gpt-4o'])
      chips[0]!.click()
      await waitForToast(el, 'copied to clipboard')
      chips[1]!.focus()
      await sendKeys({ press: 'Enter' })
      await waitFor(() => copied.length === 2, 'the second copy')
      expect(copied).to.deep.equal(['claude-3-5-sonnet', 'gpt-4o'])
    } finally {
      restore()
    }
  })

  it('says so when the group has no model', async () => {
    await user({ group: `empty${Date.now().toString(36)}` })
    const el = await mountSettings()
    await waitForText(el, 'No model is available to your group yet.')
  })

  it('shows the invite link with the aff code, the earnings and the invite count, and copies the link', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const { username } = await user({ aff_quota: 700000, aff_history_quota: 2100000, aff_count: 3 })
    const code = (await serverUser(username)).aff_code as string
    const copied: string[] = []
    const restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountSettings()
      const link = await waitFor(() => inputNamed(el, 'invite-link')?.value || undefined, 'the invite link')
      expect(link).to.equal(`${location.origin}/register?aff=${code}`)
      expect(fact(el, 'aff-quota')).to.equal('700k')
      expect(fact(el, 'aff-history')).to.equal('2.1M')
      expect(fact(el, 'aff-count')).to.equal('3')
      action(el, 'copy-invite').click()
      await waitForToast(el, 'copied to clipboard')
      expect(copied).to.deep.equal([link])
    } finally {
      restore()
    }
  })

  it("refuses a transfer under one quota unit ('the transfer amount is at least …') and moves the rest to the balance", async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const { username } = await user({ aff_quota: 700000, quota: 1000 })
    const el = await mountSettings()
    await waitFor(() => fact(el, 'aff-quota') === '700k', 'the earnings')
    action(el, 'transfer').click()
    const d = await waitFor(() => dialog(el, 'transfer'), 'the transfer dialog')
    expect(inputNamed(el, 'transfer-quota')!.value).to.equal('700000')
    await type(d, 'transfer-quota', '499999')
    await submitDialog(d)
    await waitForText(el, 'the transfer amount is at least 500k')
    expect((await serverUser(username)).aff_quota).to.equal(700000)
    await type(d, 'transfer-quota', '500000')
    await submitDialog(d)
    await waitForToast(el, 'transferred to your balance')
    const after = await serverUser(username)
    expect([after.aff_quota, after.quota]).to.deep.equal([200000, 501000])
    await waitFor(() => fact(el, 'aff-quota') === '200k', 'the card to follow')
  })

  it('words the transfer minimum as currency when the site shows currency', async () => {
    await setOptions({ DisplayInCurrencyEnabled: true })
    await loadStatus()
    await user({ aff_quota: 100 })
    const el = await mountSettings()
    action(el, 'transfer').click()
    const d = await waitFor(() => dialog(el, 'transfer'))
    await submitDialog(d)
    await waitForText(el, 'the transfer amount is at least $1.00')
  })

  it('binds an e-mail: address needed for the code, address and code for the bind, a 30-second resend lock', async () => {
    const { username } = await user()
    const email = `${username}@example.com`
    const el = await mountSettings()
    action(el, 'bind-email').click()
    const d = await waitFor(() => dialog(el, 'bind-email'), 'the e-mail dialog')
    const send = d.querySelector<HTMLElement & { disabled: boolean }>('[data-action="send-code"]')!
    send.click()
    await waitForText(el, 'please enter the e-mail address')
    await type(d, 'bind-email', email)
    await submitDialog(d)
    await waitForText(el, 'please enter the e-mail address and the verification code')
    send.click()
    await waitForToast(el, 'verification code sent, check your inbox')
    // the lock started before this moment
    const sent = Date.now()
    await waitFor(() => send.disabled, 'the lock')
    expect(send.textContent).to.match(/Resend in (30|29) s/)
    const code = /verification code is: (\w+)/.exec(await lastMail(email))![1]!
    // the lock outlives the dialog
    ;[...d.querySelectorAll<HTMLElement>('sl-button')].find((b) => b.textContent === 'Cancel')!.click()
    await waitFor(() => !dialog(el, 'bind-email'), 'the dialog to close')
    action(el, 'bind-email').click()
    const again = await waitFor(() => dialog(el, 'bind-email'))
    const send2 = again.querySelector<HTMLElement & { disabled: boolean }>('[data-action="send-code"]')!
    await sleep(50)
    expect(send2.disabled).to.equal(true)
    // 28.5 s later still locked, 30.5 s later free again
    const realNow = Date.now
    try {
      Date.now = () => sent + 28_500
      await sleep(1100)
      expect(send2.disabled).to.equal(true)
      Date.now = () => sent + 30_500
      await waitFor(() => !send2.disabled, 'the lock to lift', 3000)
      expect(send2.textContent).to.equal('Send code')
    } finally {
      Date.now = realNow
    }
    await type(again, 'bind-email', email)
    await type(again, 'bind-code', code)
    await submitDialog(again)
    await waitForToast(el, 'bound')
    expect((await serverUser(username)).email).to.equal(email)
    await waitFor(() => $(el, '[data-binding="email"] [data-bound="true"]')?.textContent === email, 'the bound address')
  })

  it('binds WeChat with a non-empty code through the real server', async () => {
    const outside = await serverCommand<string>('tg-outside-base')
    await setOptions({ WeChatAuthEnabled: true, WeChatServerAddress: `${outside}/wechat`, WeChatServerToken: 'wx-token' })
    await loadStatus()
    await serverCommand('tg-h3-user', { where: { wechat_id: 'wx-open-id-1' }, set: { wechat_id: '' } })
    const { username } = await user()
    const el = await mountSettings()
    action(el, 'bind-wechat').click()
    const d = await waitFor(() => dialog(el, 'bind-wechat'), 'the WeChat dialog')
    await submitDialog(d)
    await waitForText(el, 'please enter the verification code')
    await type(d, 'wechat-code', '246810')
    await submitDialog(d)
    await waitForToast(el, 'bound')
    expect((await serverUser(username)).wechat_id).to.equal('wx-open-id-1')
    await waitFor(() => $(el, '[data-binding="wechat"] [data-bound="true"]'), 'the bound WeChat row')
  })

  it('offers GitHub and Telegram binding only when the site enables them', async () => {
    await setOptions({ GitHubOAuthEnabled: false, TelegramOAuthEnabled: false, WeChatAuthEnabled: false })
    await loadStatus()
    await user()
    let el = await mountSettings()
    expect($(el, '[data-action="bind-github"]')).to.equal(null)
    expect($(el, '[data-action="bind-wechat"]')).to.equal(null)
    expect($(el, '[data-binding="telegram"] iframe')).to.equal(null)
    el.remove()
    await setOptions({
      GitHubOAuthEnabled: true,
      GitHubClientId: 'gh-client',
      GitHubClientSecret: 'gh-secret',
      TelegramOAuthEnabled: true,
      TelegramBotName: 'tollgate_bot',
      TelegramBotToken: '1:abc',
    })
    await loadStatus()
    el = await mountSettings()
    expect($(el, '[data-action="bind-github"]')).to.not.equal(null)
    const frame = await waitFor(() => $(el, '[data-binding="telegram"] iframe'), 'the Telegram widget')
    expect(frame.getAttribute('data-auth-url')).to.equal('/api/oauth/telegram/bind')
    // the widget's answer comes back with the one-time state this session started (issue 10 item 2)
    const returnTo = new URL(new URL(frame.getAttribute('src')!).searchParams.get('return_to')!)
    expect(returnTo.pathname).to.equal('/api/oauth/telegram/bind')
    expect(returnTo.searchParams.get('state')).to.match(/^\d+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/)
    el.remove()
    await user({ github_id: '4242', telegram_id: '777' })
    el = await mountSettings()
    expect($(el, '[data-binding="github"] [data-bound="true"]')!.textContent).to.equal('4242')
    expect($(el, '[data-binding="telegram"] [data-bound="true"]')!.textContent).to.equal('777')
    expect($(el, '[data-binding="telegram"] iframe')).to.equal(null)
  })

  it("generates an access token, copies it and says 'token reset and copied'", async () => {
    const { username } = await user()
    const copied: string[] = []
    let restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountSettings()
      action(el, 'access-token').click()
      await waitForToast(el, 'token reset and copied')
      const token = copied[0]!
      expect(token).to.match(/^[A-Za-z0-9]{32}$/)
      // the server keeps only its hash, never the token
      expect((await serverUser(username)).access_token).to.not.equal(token)
      expect(inputNamed(el, 'access-token')!.value).to.equal(token)
      // the token works as a bearer credential
      const me = await fetch('/api/user/self', { credentials: 'omit', headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
      expect(me.data.username).to.equal(username)
      restore()
      restore = stubClipboard(async () => {
        throw new Error('denied')
      })
      action(el, 'access-token').click()
      const manual = await waitFor(
        () =>
          $$<Dialog>(el, 'sl-dialog').find((d) => d.open && d.textContent!.includes('unable to copy to clipboard, please copy manually')),
        'the manual-copy dialog',
      )
      await waitFor(async () => manual.querySelector('textarea')!.value !== token, 'the new token')
      expect(manual.querySelector('textarea')!.value).to.match(/^[A-Za-z0-9]{32}$/)
    } finally {
      restore()
    }
  })

  it("changes the password only when both entries match ('the two passwords differ')", async () => {
    const { username } = await user()
    const el = await mountSettings()
    action(el, 'change-password').click()
    const d = await waitFor(() => dialog(el, 'password'))
    await type(d, 'new-password', 'brand-new-pass')
    await type(d, 'new-password2', 'brand-new-pasS')
    await submitDialog(d)
    await waitForText(el, 'the two passwords differ')
    await type(d, 'new-password2', 'brand-new-pass')
    await submitDialog(d)
    await waitForToast(el, 'password changed')
    const login = await fetch('/api/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'brand-new-pass' }),
    }).then((r) => r.json())
    expect(login.success).to.equal(true)
  })

  it('deletes the account only after the own username is typed, then logs out and clears the stored user', async () => {
    const { username, password } = await user()
    const nav = stayOnPage()
    const events = recordEvents('tollgate-logout')
    try {
      const el = await mountSettings()
      action(el, 'delete-account').click()
      const d = await waitFor(() => dialog(el, 'delete'))
      await type(d, 'confirm-username', `${username}x`)
      await submitDialog(d)
      await waitForText(el, 'please enter your account name to confirm deletion')
      expect($session.get()).to.not.equal(null)
      await type(d, 'confirm-username', username)
      await submitDialog(d)
      await waitForToast(el, 'account deleted')
      await waitFor(() => $session.get() === null, 'the stored user to go')
      expect(localStorage.getItem('tollgate:user')).to.equal(null)
      await waitFor(() => nav.targets.includes('/login'), 'the way to /login')
      expect(events.events).to.have.length(1)
      const login = await fetch('/api/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      }).then((r) => r.json())
      expect(login.success).to.equal(false)
    } finally {
      nav.stop()
      events.stop()
    }
  })

  it('speaks Simplified Chinese, follows dark mode and fits a 375 px screen', async () => {
    setLocale('zh')
    setTheme('dark')
    await setViewport({ width: 375, height: 800 })
    try {
      await user()
      const el = await mountSettings()
      await waitForText(el, '邀请好友')
      expect(textOf(el)).to.include('账户绑定')
      expect($(el, '[data-role]')!.textContent!.trim()).to.equal('普通用户')
      expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      action(el, 'delete-account').click()
      const d = await waitFor(() => dialog(el, 'delete'))
      await submitDialog(d)
      await waitForText(el, '请输入你的账户名以确认删除')
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })
})
