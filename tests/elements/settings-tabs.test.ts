import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { $, $$, cleanup, goTo, mount, recordEvents, stayOnPage, waitFor, waitForToast } from './helpers.ts'
import { user, mountSettings, action, dialog, type, submitDialog } from './settings-helpers.ts'

describe('<tollgate-settings> tabs', () => {
  afterEach(cleanup)

  const tabs = (el: Element) => $$(el, '[role="tab"]').map((t) => t.getAttribute('data-tab-name'))
  const active = (el: Element) => $(el, '[data-screen="settings"]')!.dataset.tab

  it('shows only the personal tab to users and administrators, whatever ?tab= asks', async () => {
    await user({ role: 10 })
    const el = await mountSettings('tab="system"')
    expect(tabs(el)).to.deep.equal([])
    expect(active(el)).to.equal('personal')
    expect($(el, '[data-card="profile"]')).to.not.equal(null)
  })

  it('gives the super administrator personal, operation, system and other, opening the asked tab', async () => {
    await user({ role: 100 })
    const el = await mountSettings('tab="other"')
    expect(tabs(el)).to.deep.equal(['personal', 'operation', 'system', 'other'])
    expect(active(el)).to.equal('other')
    el.setAttribute('tab', 'nonsense')
    await waitFor(() => active(el) === 'personal', 'the default tab')
    const subtitle = () => $(el, '.tg-page-header p')!.textContent
    expect(subtitle()).to.equal('Your profile, invitations, bound accounts and security.')
    $<HTMLElement>(el, '[role="tab"][data-tab-name="system"]')!.click()
    await waitFor(() => active(el) === 'system', 'the system tab')
    // the subtitle says what the open tab holds
    expect(subtitle()).to.equal('The server address, payments, sign-in and registration, mail and the bot check.')
    expect(location.search).to.not.include('tab=')
    // arrow keys move between the tabs and open them; End and Home jump
    $<HTMLElement>(el, '[role="tab"][aria-selected="true"]')!.focus()
    await sendKeys({ press: 'ArrowRight' })
    await waitFor(() => active(el) === 'other', 'the next tab')
    await sendKeys({ press: 'Home' })
    await waitFor(() => active(el) === 'personal', 'the first tab')
    await sendKeys({ press: 'ArrowLeft' })
    await waitFor(() => active(el) === 'other', 'the last tab, wrapping round')
    expect(el.shadowRoot!.activeElement!.getAttribute('data-tab-name')).to.equal('other')
    expect($$(el, '[role="tab"]').map((t) => t.getAttribute('tabindex'))).to.deep.equal(['-1', '-1', '-1', '0'])
  })

  it('keeps ?tab= in step inside the console', async () => {
    await user({ role: 100 })
    goTo('/setting?tab=operation')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $(el, '[data-screen="settings"]')?.dataset.tab === 'operation', 'the operation tab')
    $<HTMLElement>(el, '[role="tab"][data-tab-name="other"]')!.click()
    await waitFor(() => location.search === '?tab=other', 'the address bar')
    $<HTMLElement>(el, '[role="tab"][data-tab-name="personal"]')!.click()
    await waitFor(() => location.pathname === '/setting' && location.search === '', 'the plain address')
    await waitFor(() => $(el, '[data-card="profile"]'), 'the personal tab')
  })
})

describe('<tollgate-console> at /setting', () => {
  afterEach(cleanup)

  it('deleting the account inside the console emits tollgate-logout from the console', async () => {
    const { username } = await user()
    const nav = stayOnPage()
    const events = recordEvents('tollgate-logout')
    try {
      goTo('/setting')
      const el = await mount('<tollgate-console></tollgate-console>')
      const button = await waitFor(() => action(el, 'delete-account'), 'the personal tab inside the console')
      button.click()
      const d = await waitFor(() => dialog(el, 'delete'))
      await type(d, 'confirm-username', username)
      await submitDialog(d)
      await waitForToast(el, 'account deleted')
      await waitFor(() => events.events.length === 1, 'tollgate-logout from the console')
      expect($session.get()).to.equal(null)
    } finally {
      nav.stop()
      events.stop()
    }
  })
})
