import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { setLocale } from '../../src/stores/prefs.ts'
import {
  CONSOLE_HEADER,
  $,
  cleanup,
  fill,
  goTo,
  lastMail,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  setOptions,
  stayOnPage,
  submit,
  textOf,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

async function fillForm(el: Element, values: { username?: string; password?: string; password2?: string }) {
  if (values.username !== undefined) await fill(el, 'username', values.username)
  if (values.password !== undefined) await fill(el, 'password', values.password)
  if (values.password2 !== undefined) await fill(el, 'password2', values.password2)
}

describe('<tollgate-register> validation', () => {
  afterEach(cleanup)

  it('asks for username and password', async () => {
    const el = await mount('<tollgate-register></tollgate-register>')
    await submit(el)
    await waitForText(el, 'please enter username and password')
  })

  it("says 'password length must not be under 8'", async () => {
    const el = await mount('<tollgate-register></tollgate-register>')
    await fillForm(el, { username: 'shorty', password: '1234567', password2: '1234567' })
    await submit(el)
    await waitForText(el, 'password length must not be under 8')
  })

  it("says 'the two passwords differ'", async () => {
    const el = await mount('<tollgate-register></tollgate-register>')
    await fillForm(el, { username: 'twice', password: 'password123', password2: 'password124' })
    await submit(el)
    await waitForText(el, 'the two passwords differ')
  })

  it('says it in Simplified Chinese', async () => {
    setLocale('zh')
    const el = await mount('<tollgate-register></tollgate-register>')
    await fillForm(el, { username: 'twice', password: 'password123', password2: 'password124' })
    await submit(el)
    await waitForText(el, '两次输入的密码不一致')
  })

  it('states the length limits in the placeholders', async () => {
    const el = await mount('<tollgate-register></tollgate-register>')
    await waitFor(() => $(el, 'form'))
    const placeholders = [...el.shadowRoot!.querySelectorAll('sl-input')].map((i) => i.placeholder)
    expect(placeholders.join(' | ')).to.include('at most 12').and.include('8 to 20')
  })
})

describe('<tollgate-register> against the real server', () => {
  afterEach(cleanup)

  it("creates the account, says 'registered' and asks for /login", async () => {
    const nav = stayOnPage()
    try {
      const username = uniqueName('reg')
      const el = await mount('<tollgate-register></tollgate-register>')
      await fillForm(el, { username, password: 'password123', password2: 'password123' })
      await submit(el)
      await waitForToast(el, 'registered')
      expect(nav.targets).to.deep.equal(['/login'])
      const row = await serverCommand<{ username: string; inviter_id: number } | null>('tg-user', { username })
      expect(row?.username).to.equal(username)
      expect(row?.inviter_id).to.equal(0)
    } finally {
      nav.stop()
    }
  })

  it("shows the server's refusal (a taken username) as an error toast", async () => {
    const nav = stayOnPage()
    try {
      const el = await mount('<tollgate-register></tollgate-register>')
      await fillForm(el, { username: 'root', password: 'password123', password2: 'password123' })
      await submit(el)
      await waitForToast(el, 'the username (or e-mail) is already taken, or belongs to a cancelled account')
      expect(nav.targets).to.deep.equal([])
    } finally {
      nav.stop()
    }
  })

  it('sends the ?aff= invite code as aff_code', async () => {
    const inviter = await registerAndSignIn()
    const aff = (await fetch('/api/user/aff', CONSOLE_HEADER).then((r) => r.json())).data as string
    await fetch('/api/user/logout', CONSOLE_HEADER)
    const nav = stayOnPage()
    try {
      goTo(`/register?aff=${encodeURIComponent(aff)}`)
      const username = uniqueName('inv')
      const el = await mount('<tollgate-register></tollgate-register>')
      await waitForText(el, aff)
      await fillForm(el, { username, password: 'password123', password2: 'password123' })
      await submit(el)
      await waitForToast(el, 'registered')
      const row = await serverCommand<{ inviter_id: number }>('tg-user', { username })
      expect(row.inviter_id).to.equal(inviter.id)
    } finally {
      nav.stop()
    }
  })

  it('with e-mail verification: sends a code (30 s lock) and registers with it', async () => {
    await setOptions({ EmailVerificationEnabled: true })
    await loadStatus()
    const nav = stayOnPage()
    try {
      const username = uniqueName('mail')
      const email = `${username}@example.com`
      const el = await mount('<tollgate-register></tollgate-register>')
      const send = await waitFor(() => $<HTMLElement & { disabled: boolean }>(el, '[data-action="send-code"]'), 'the send-code button')
      send.click()
      await waitForText(el, 'please enter the e-mail address')

      await fill(el, 'email', email)
      await fillForm(el, { username, password: 'password123', password2: 'password123' })
      await submit(el)
      await waitForText(el, 'please enter the e-mail address and the verification code')

      send.click()
      await waitForToast(el, 'verification code sent, check your inbox')
      await waitFor(() => send.disabled, 'the resend lock')
      expect(send.textContent).to.match(/Resend in (30|29) s/)

      const mail = await lastMail(email)
      const code = /verification code is: ([0-9a-f]{6})/.exec(mail)![1]!
      await fill(el, 'verification_code', code)
      await submit(el)
      await waitForToast(el, 'registered')
      const row = await serverCommand<{ email: string }>('tg-user', { username })
      expect(row.email).to.equal(email)
    } finally {
      nav.stop()
    }
  })

  it('hides the e-mail fields when verification is off', async () => {
    await loadStatus()
    const el = await mount('<tollgate-register></tollgate-register>')
    await waitFor(() => $(el, 'form'))
    expect($(el, '[data-action="send-code"]')).to.equal(null)
    expect(textOf(el)).to.not.include('Verification code')
  })
})
