import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $prefs, setLocale, setTheme } from '../../src/stores/prefs.ts'
import { $, cleanup, goTo, mount, registerAndSignIn, signInAs, textOf, waitFor, waitForText, cleanupAndResize } from './helpers.ts'
import { newChannel, type Control, waitRow, named, mountChannels, click, action } from './channels-helpers.ts'

describe('<tollgate-channels> in the console', () => {
  afterEach(cleanup)

  it('opens the drawer at /channel/add and goes back to /channel when closed', async () => {
    await signInAs('root', '123456')
    goTo('/channel/add')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $<Control>(el, 'sl-drawer[data-drawer="channel"]')?.open, 'the add drawer')
    await click(action($(el, 'sl-drawer[data-drawer="channel"]')!, 'close'))
    await waitFor(() => location.pathname === '/channel', 'the list path')
    await waitFor(() => !$<Control>(el, 'sl-drawer[data-drawer="channel"]')!.open)
  })

  it("edits at /channel/edit/{id}; an unknown id says 'channel not found, refresh and retry'", async () => {
    await signInAs('root', '123456')
    const c = await newChannel()
    goTo(`/channel/edit/${c.id}`)
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => named($(el, 'sl-drawer[data-drawer="channel"]')!, 'sl-input', 'name')?.value === c.name, 'the loaded channel')
    await click(action($(el, 'sl-drawer[data-drawer="channel"]')!, 'close'))
    await waitFor(() => location.pathname === '/channel')
    await click(await waitFor(() => $(el, `tr[data-id="${c.id}"] [data-action="edit"]`)))
    await waitFor(() => location.pathname === `/channel/edit/${c.id}`, 'the edit path')
    el.remove()
    goTo('/channel/edit/99999999')
    const again = await mount('<tollgate-console></tollgate-console>')
    await waitForText(again, 'channel not found, refresh and retry')
  })
})

describe('<tollgate-channels> roles, states and looks', () => {
  afterEach(cleanupAndResize)

  it('asks visitors to sign in and tells ordinary users the page is for administrators', async () => {
    const visitor = await mount('<tollgate-channels></tollgate-channels>')
    await waitForText(visitor, 'Sign in as an administrator to use this page')
    visitor.remove()
    await registerAndSignIn()
    const user = await mount('<tollgate-channels></tollgate-channels>')
    await waitForText(user, 'This page is for administrators')
    expect($(user, 'table')).to.equal(null)
    const res = await fetch('/api/channel/?p=0')
    expect(res.status).to.equal(403)
  })

  it('shows a skeleton while the list loads', async () => {
    await signInAs('root', '123456')
    const el = document.createElement('tollgate-channels')
    let sawSkeleton = false
    const watch = new MutationObserver(() => {
      if (el.shadowRoot!.querySelector('[aria-busy="true"]') && !el.shadowRoot!.querySelector('table')) sawSkeleton = true
    })
    watch.observe(el.shadowRoot!, { childList: true, subtree: true })
    document.body.append(el)
    try {
      await waitFor(() => $(el, 'table[data-table="channels"]') || $(el, '[part="empty-state"]'), 'the list')
      expect(sawSkeleton).to.equal(true)
    } finally {
      watch.disconnect()
      el.remove()
    }
  })

  it('shows the error panel with retry when the list cannot load', async () => {
    const root = await signInAs('root', '123456')
    await registerAndSignIn()
    // the browser still holds the administrator, the server session is an ordinary user's
    const { $session } = await import('../../src/stores/session.ts')
    $session.set(root)
    const el = await mount('<tollgate-channels></tollgate-channels>')
    await waitFor(() => $(el, 'sl-alert[variant="danger"]'), 'the error panel')
    expect(textOf(el)).to.include('Retry')
  })

  it('speaks Simplified Chinese and follows dark mode', async () => {
    await signInAs('root', '123456')
    setLocale('zh')
    setTheme('dark')
    const el = await mountChannels()
    await waitForText(el, '添加渠道')
    await waitForText(el, '测试所有渠道')
    expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
    await waitForText(el, '请先选择要删除的渠道！')
  })

  it('shows each row as a card on a 375 px screen', async () => {
    await signInAs('root', '123456')
    const c = await newChannel()
    $prefs.setKey('id-sort', true)
    await setViewport({ width: 375, height: 800 })
    const el = await mountChannels()
    const row = await waitRow(el, c.id)
    expect(getComputedStyle($(el, 'thead')!).display).to.equal('none')
    expect(getComputedStyle(row).display).to.equal('block')
    expect(row.getBoundingClientRect().width).to.be.at.most(375)
    $prefs.setKey('id-sort', false)
  })
})
