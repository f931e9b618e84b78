import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import {
  $,
  $$,
  cleanup,
  expectPaintsDark,
  fill,
  goTo,
  inputNamed,
  mount,
  registerAndSignIn,
  sleep,
  waitFor,
  waitForText,
  waitForToast,
  recordClipboard,
} from './helpers.ts'
import { type Sl, serverTokens, createToken, rows, row, drawer, click, mountTokens, openCreate, save } from './tokens-helpers.ts'

describe('<tollgate-tokens> copy', () => {
  afterEach(cleanup)

  it("copies one key with sk- and says 'copied to clipboard'", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'copy me' })
    const el = await mountTokens()
    const clip = recordClipboard()
    try {
      await click(row(el, 'copy me')!.querySelector('[data-action="copy"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.written).to.deep.equal([`sk-${token.key}`])
    } finally {
      clip.restore()
    }
  })

  it("copies the selected keys, and says 'please select at least one' when none is selected", async () => {
    await registerAndSignIn()
    const a = await createToken({ name: 'first' })
    await createToken({ name: 'second' })
    const c = await createToken({ name: 'third' })
    const el = await mountTokens()
    await waitFor(() => rows(el).length === 3)
    const clip = recordClipboard()
    try {
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'please select at least one')
      expect(clip.written).to.deep.equal([])
      await click(row(el, 'first')!.querySelector('sl-checkbox'))
      await click(row(el, 'third')!.querySelector('sl-checkbox'))
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.written).to.deep.equal([`third    sk-${c.key}\nfirst    sk-${a.key}`])
      await click($(el, 'sl-checkbox[data-action="select-all"]'))
      await click($(el, '[data-action="copy-selected"]'))
      await waitFor(() => clip.written.length === 2)
      expect(clip.written[1]!.split('\n')).to.have.length(3)
    } finally {
      clip.restore()
    }
  })

  it("opens 'unable to copy to clipboard, please copy manually' with the key when the clipboard is refused", async () => {
    await registerAndSignIn()
    const token = await createToken({ name: 'refused' })
    const el = await mountTokens()
    const clip = recordClipboard(true)
    try {
      await click(row(el, 'refused')!.querySelector('[data-action="copy"]'))
      const dialog = await waitFor(
        () => [...$$<Sl>(el, 'sl-dialog')].find((d) => d.open && d.querySelector('textarea')),
        'the fallback dialog',
      )
      expect(dialog.textContent).to.include('unable to copy to clipboard, please copy manually')
      expect(dialog.querySelector('textarea')!.value).to.equal(`sk-${token.key}`)
    } finally {
      clip.restore()
    }
  })
})

describe('<tollgate-tokens> keyboard, small screens, dark mode and Chinese', () => {
  afterEach(cleanup)

  it('creates a token with the keyboard alone', async () => {
    await registerAndSignIn()
    const el = await mountTokens()
    $<HTMLElement>(el, '[data-action="create"]')!.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => drawer(el).open, 'the drawer')
    await waitFor(() => el.shadowRoot!.activeElement === inputNamed(el, 'name'), 'focus on the name')
    await sendKeys({ type: 'typed' })
    await sendKeys({ press: 'Enter' })
    await waitForToast(el, '1 token created successfully, click copy in the list to get the token')
    expect((await serverTokens()).map((t) => t.name)).to.deep.equal(['typed'])
  })

  it('opens the row menu and the inline edit with the keyboard', async () => {
    await registerAndSignIn()
    await createToken({ name: 'keys only' })
    const el = await mountTokens()
    const trigger = row(el, 'keys only')!.querySelector<HTMLElement>('[data-action="more"]')!
    await (trigger as Sl).updateComplete
    trigger.focus()
    await sendKeys({ press: 'Enter' })
    const dropdown = trigger.closest('sl-dropdown') as unknown as Sl
    await waitFor(() => dropdown.open, 'the menu to open')
    await sendKeys({ press: 'ArrowDown' })
    await sleep(50)
    await sendKeys({ press: 'Enter' })
    await waitFor(() => $(el, '[data-testid="quick-edit"]'), 'the inline form')
  })

  it('turns rows into cards on a 375 px screen without sideways scrolling', async () => {
    await registerAndSignIn()
    await createToken({ name: 'narrow screen token' })
    await setViewport({ width: 375, height: 740 })
    try {
      const el = await mountTokens()
      await waitFor(() => row(el, 'narrow screen token'))
      expect(getComputedStyle(row(el, 'narrow screen token')!).display).to.equal('grid')
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      expect(row(el, 'narrow screen token')!.getBoundingClientRect().right).to.be.at.most(375)
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })

  it('follows dark mode', async () => {
    await registerAndSignIn()
    await createToken({ name: 'dark' })
    setTheme('dark')
    const el = await mountTokens()
    await waitFor(() => row(el, 'dark'))
    expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
    expectPaintsDark(el, '.tg-table-wrap')
  })

  it('speaks Simplified Chinese', async () => {
    await registerAndSignIn()
    await createToken({ name: 'zh' })
    setLocale('zh')
    const el = await mountTokens()
    await waitFor(() => row(el, 'zh'))
    expect(row(el, 'zh')!.querySelector('[data-status-label]')!.textContent).to.equal('已启用')
    expect(row(el, 'zh')!.querySelector('[data-expires]')!.textContent).to.equal('永不过期')
    await openCreate(el)
    await fill(el, 'name', 'x')
    await fill(el, 'expired_time', 'bad')
    await save(el)
    await waitForText(el, '过期时间格式错误！')
    await click($(el, '[data-action="copy-selected"]'))
    await waitForToast(el, '请至少选择一个令牌！')
  })
})

describe('<tollgate-tokens> in the console', () => {
  afterEach(cleanup)

  it('is the /token screen', async () => {
    await registerAndSignIn()
    goTo('/token')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => $(el, '[data-screen="tokens"]'), 'the tokens screen')
    await waitForText(el, 'No tokens yet')
  })
})
