import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import {
  CONSOLE_HEADER,
  $,
  cleanup,
  fill,
  goTo,
  lastMail,
  mount,
  registerAndSignIn,
  serverCommand,
  signInAs,
  submit,
  submitButton,
  textOf,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
  stubClipboard,
} from './helpers.ts'

async function userWithEmail(): Promise<{ username: string; email: string }> {
  const username = uniqueName('rst')
  await registerAndSignIn(username, 'password123')
  await fetch('/api/user/logout', CONSOLE_HEADER)
  const email = `${username}@example.com`
  await serverCommand('tg-set-email', { username, email })
  return { username, email }
}

describe('<tollgate-reset>', () => {
  afterEach(cleanup)

  it('asks for the e-mail address', async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await submit(el)
    await waitForText(el, 'please enter the e-mail address')
  })

  it('mails a reset link through the real server and locks the button for 30 s', async () => {
    const { email } = await userWithEmail()
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await fill(el, 'email', email)
    await submit(el)
    await waitForToast(el, 'reset e-mail sent, check your inbox')
    const button = submitButton(el.shadowRoot!) as HTMLElement & { disabled: boolean }
    await waitFor(() => button.disabled, 'the lock')
    expect(button.textContent).to.match(/Send again in (30|29) s/)
    expect(await lastMail(email)).to.include('/user/reset?email=')
  })

  it("shows the server's refusal for an unknown address", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await fill(el, 'email', `${uniqueName('none')}@example.com`)
    await submit(el)
    await waitForToast(el, 'no account uses this e-mail address')
  })
})

describe('<tollgate-reset-confirm>', () => {
  let restoreClipboard: (() => void) | null = null
  afterEach(async () => {
    restoreClipboard?.()
    restoreClipboard = null
    await cleanup()
  })

  it('says the link is incomplete without email and token in the query', async () => {
    goTo('/user/reset')
    const el = await mount('<tollgate-reset-confirm></tollgate-reset-confirm>')
    await waitForText(el, 'this reset link is incomplete; request a new reset e-mail')
  })

  it('resets through the real server, shows the new password once and copies it', async () => {
    const { username, email } = await userWithEmail()
    const token = await serverCommand<string>('tg-reset-token', { email })
    const copied: string[] = []
    restoreClipboard = stubClipboard(async (text) => {
      copied.push(text)
    })
    goTo(`/user/reset?email=${encodeURIComponent(email)}&token=${token}`)
    const el = await mount('<tollgate-reset-confirm></tollgate-reset-confirm>')
    await waitForText(el, email)
    await submit(el)
    await waitForToast(el, 'new password copied to clipboard')
    const shown = await waitFor(() => $<HTMLInputElement>(el, '[data-new-password]'), 'the new password')
    expect(shown.value).to.have.length.greaterThan(7)
    expect(copied).to.deep.equal([shown.value])
    expect(submitButton(el.shadowRoot!)).to.equal(undefined)
    const user = await signInAs(username, shown.value)
    expect(user.username).to.equal(username)
  })

  it("opens 'unable to copy to clipboard, please copy manually' with the password when copying fails", async () => {
    const { email } = await userWithEmail()
    const token = await serverCommand<string>('tg-reset-token', { email })
    restoreClipboard = stubClipboard(() => Promise.reject(new Error('denied')))
    goTo(`/user/reset?email=${encodeURIComponent(email)}&token=${token}`)
    const el = await mount('<tollgate-reset-confirm></tollgate-reset-confirm>')
    await submit(el)
    const dialog = await waitFor(() => $<HTMLElement>(el, 'sl-dialog[open]'), 'the fallback dialog')
    expect(dialog.textContent).to.include('unable to copy to clipboard, please copy manually')
    const shown = $<HTMLInputElement>(el, '[data-new-password]')!
    expect(dialog.querySelector('textarea')!.value).to.equal(shown.value)
  })

  it("shows the server's refusal for a spent token", async () => {
    const { email } = await userWithEmail()
    goTo(`/user/reset?email=${encodeURIComponent(email)}&token=0123456789abcdef0123456789abcdef`)
    const el = await mount('<tollgate-reset-confirm></tollgate-reset-confirm>')
    await submit(el)
    await waitForToast(el, 'the reset link is wrong or has expired')
    expect(textOf(el)).to.not.include('Your new password')
  })
})
