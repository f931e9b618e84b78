import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { prefetch } from '../../src/screens/redemptions/redemptions-screen.tsx'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import type { Redemption } from '../../src/api/types.ts'
import { codesFile, createBody, DEFAULT_REDEMPTION } from '../../src/screens/redemptions/redemption-rules.ts'
import {
  $,
  $$,
  cleanup,
  loadStatus,
  mount,
  registerAndSignIn,
  signInAs,
  sleep,
  textOf,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
  expectPrefetchTakenOver,
  cleanupAndResize,
  api,
  type Control,
} from './helpers.ts'

/** Codes made through the API (arrangement); returns the rows. */
async function newCodes(count = 1, quota = 100000): Promise<Redemption[]> {
  const name = uniqueName('rc')
  const res = await api<string[]>('POST', '/api/redemption/', { name, quota, count })
  if (!res.success) throw new Error(res.message)
  return byName(name)
}

async function byName(name: string): Promise<Redemption[]> {
  return (await api<Redemption[]>('GET', `/api/redemption/search?keyword=${encodeURIComponent(name)}`)).data.filter((r) => r.name === name)
}

const readCode = (id: number) => api<Redemption>('GET', `/api/redemption/${id}`)

/** Redeems a code as a fresh user, then signs the administrator back in. */
async function redeem(key: string) {
  await registerAndSignIn()
  const res = await api('POST', '/api/user/topup', { key })
  if (!res.success) throw new Error(res.message)
  await signInAs('root', '123456')
}

function named(scope: Element | ShadowRoot, selector: string, name: string): Control | null {
  return [...scope.querySelectorAll<Control>(selector)].find((c) => (c as unknown as { name: string }).name === name) ?? null
}

const rowOf = (el: Element, id: number) => $<HTMLTableRowElement>(el, `tr[data-id="${id}"]`)
const waitRow = (el: Element, id: number) => waitFor(() => rowOf(el, id), `row ${id}`)
const drawerOf = (el: Element) => $<Control>(el, 'sl-drawer[data-drawer="redemption"]')!

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Control).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

async function setField(scope: Element, name: string, value: string) {
  const control = await waitFor(() => named(scope, 'sl-input', name), `field ${name}`)
  control.value = value
  control.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(60)
}

async function mountCodes(): Promise<HTMLElement> {
  const el = await mount('<tollgate-redemptions></tollgate-redemptions>')
  await waitFor(() => $(el, 'table[data-table="redemptions"]') || $(el, '[part="empty-state"]') || $(el, '[data-gate]'), 'the code list')
  return el
}

async function openAdd(el: HTMLElement): Promise<Control> {
  await click($(el, '[data-action="add"]'))
  return waitFor(() => drawerOf(el).open && named(drawerOf(el), 'sl-input', 'count') && drawerOf(el), 'the create drawer')
}

/** Captures what the screen copies (the test page may not use the real clipboard). */
function captureClipboard(): { texts: string[]; restore: () => void } {
  const texts: string[] = []
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void texts.push(text) } })
  return {
    texts,
    restore: () => {
      delete (navigator as unknown as Record<string, unknown>).clipboard
      if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original)
    },
  }
}

describe('redemption rules (pure)', () => {
  it('defaults to name empty, quota 100000, count 1; an empty name creates nothing; quota and count are integers', () => {
    expect(DEFAULT_REDEMPTION).to.deep.equal({ name: '', quota: '100000', count: '1' })
    expect(createBody({ name: '  ', quota: '5', count: '1' })).to.equal(null)
    expect(createBody({ name: 'gift', quota: '1234.9', count: '3.7' })).to.deep.equal({ name: 'gift', quota: 1234, count: 3 })
  })

  it('names the text file after the name, one code per line', async () => {
    const { fileName, blob } = codesFile('spring', ['A', 'B'])
    expect(fileName).to.equal('spring.txt')
    expect(await blob.text()).to.equal('A\nB')
  })
})

describe('<tollgate-redemptions>', () => {
  beforeEach(() => signInAs('root', '123456'))

  it("asks for the first page as soon as the screen's code arrives, and the screen takes that answer over", async () => {
    const made = await (await newCodes(1))[0]!
    await expectPrefetchTakenOver(['/api/redemption/?'], prefetch, async () => {
      const el = await mountCodes()
      await waitRow(el, made.id)
    })
  })

  afterEach(cleanupAndResize)

  it('opens the create drawer with the defaults and creates nothing without a name', async () => {
    const el = await mountCodes()
    const drawer = await openAdd(el)
    expect([
      named(drawer, 'sl-input', 'name')!.value,
      named(drawer, 'sl-input', 'quota')!.value,
      named(drawer, 'sl-input', 'count')!.value,
    ]).to.deep.equal(['', '100000', '1'])
    const before = (await api<Redemption[]>('GET', '/api/redemption/?p=0')).data[0]?.id ?? 0
    await click(drawer.querySelector('[data-action="save"]'))
    await sleep(300)
    expect(drawerOf(el).open).to.equal(true)
    expect(toastTexts(el)).to.deep.equal([])
    expect((await api<Redemption[]>('GET', '/api/redemption/?p=0')).data[0]?.id ?? 0).to.equal(before)
  })

  it('refuses before sending what the server refuses by the same rule: more than 100 codes, a quota under 1', async () => {
    const name = uniqueName('many')
    const el = await mountCodes()
    const drawer = await openAdd(el)
    await setField(drawer, 'name', name)
    await setField(drawer, 'count', '101')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForToast(el, 'the number of codes must be from 1 to 100')
    await setField(drawer, 'count', '2')
    await setField(drawer, 'quota', '0')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForToast(el, 'the quota must be a whole number of at least 1')
    expect(drawerOf(el).open).to.equal(true)
    expect(await byName(name)).to.deep.equal([])
    const server = await api('POST', '/api/redemption/', { name, quota: 100, count: 101 })
    expect([server.success, server.message]).to.deep.equal([false, 'count must be a whole number from 1 to 100'])
  })

  it('creates codes through the drawer and offers them as a text file named after the name', async () => {
    const name = uniqueName('gift')
    const el = await mountCodes()
    const drawer = await openAdd(el)
    await setField(drawer, 'name', name)
    await click(drawer.querySelector('[data-preset="5000000"]'))
    await waitFor(() => named(drawer, 'sl-input', 'quota')!.value === '5000000', 'the preset quota')
    await setField(drawer, 'count', '3')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForToast(el, 'redemption created successfully')
    const dialog = await waitFor(
      () => $<Control>(el, 'sl-dialog[data-dialog="codes"]')?.open && $<Control>(el, 'sl-dialog[data-dialog="codes"]'),
      'the codes dialog',
    )
    const link = await waitFor(() => dialog.querySelector<HTMLAnchorElement>('a[data-action="download"]'), 'the download link')
    expect(link.getAttribute('download')).to.equal(`${name}.txt`)
    expect(link.href.startsWith('blob:')).to.equal(true)
    const text = await (await fetch(link.href)).text()
    const rows = await byName(name)
    expect(rows.length).to.equal(3)
    expect(text.split('\n').sort()).to.deep.equal(rows.map((r) => r.key).sort())
    expect(rows.every((r) => r.quota === 5000000 && r.status === 1)).to.equal(true)
    expect(dialog.querySelector('textarea')!.value).to.equal(text)
    for (const r of rows) await waitRow(el, r.id)
  })

  it('shows the status of each code and greys the rows that are not unused', async () => {
    const [unused, disabled, used] = await newCodes(3)
    await api('PUT', '/api/redemption/?status_only=true', { id: disabled!.id, status: 2 })
    await redeem(used!.key)
    const el = await mountCodes()
    const status = (id: number) => rowOf(el, id)!.querySelector('[data-cell="status"]')!.textContent
    await waitRow(el, used!.id)
    expect([status(unused!.id), status(disabled!.id), status(used!.id)]).to.deep.equal(['Unused', 'Disabled', 'Used'])
    expect([unused, disabled, used].map((r) => rowOf(el, r!.id)!.dataset.shaded)).to.deep.equal(['false', 'true', 'true'])
    expect(getComputedStyle(rowOf(el, disabled!.id)!).backgroundColor).to.not.equal(
      getComputedStyle(rowOf(el, unused!.id)!).backgroundColor,
    )
    expect(rowOf(el, used!.id)!.querySelector('[data-cell="used-by"]')!.textContent).to.not.equal('-')
  })

  it('enables and disables codes; enable is off for a used code; edit only while unused', async () => {
    const [code, used] = await newCodes(2)
    await redeem(used!.key)
    const el = await mountCodes()
    const row = await waitRow(el, code!.id)
    const usedRow = await waitRow(el, used!.id)
    expect(usedRow.querySelector<Control>('[data-action="enable"]')!.disabled).to.equal(true)
    expect(usedRow.querySelector<Control>('[data-action="edit"]')!.disabled).to.equal(true)
    expect(row.querySelector<Control>('[data-action="edit"]')!.disabled).to.equal(false)
    await click(row.querySelector('[data-action="disable"]'))
    await waitForToast(el, 'operation completed')
    await waitFor(() => rowOf(el, code!.id)!.dataset.status === '2', 'the disabled row')
    expect((await readCode(code!.id)).data.status).to.equal(2)
    const enable = rowOf(el, code!.id)!.querySelector<Control>('[data-action="enable"]')!
    expect(enable.disabled).to.equal(false)
    expect(rowOf(el, code!.id)!.querySelector<Control>('[data-action="edit"]')!.disabled).to.equal(true)
    await click(enable)
    await waitFor(() => rowOf(el, code!.id)!.dataset.status === '1', 'the enabled row')
    expect((await readCode(code!.id)).data.status).to.equal(1)
  })

  it('edits an unused code and reads it back', async () => {
    const [code] = await newCodes(1)
    const el = await mountCodes()
    await click((await waitRow(el, code!.id)).querySelector('[data-action="edit"]'))
    const drawer = await waitFor(
      () => drawerOf(el).open && named(drawerOf(el), 'sl-input', 'name')?.value === code!.name && drawerOf(el),
      'the edit drawer',
    )
    expect(named(drawer, 'sl-input', 'count')).to.equal(null)
    expect(named(drawer, 'sl-input', 'quota')!.value).to.equal('100000')
    const newName = uniqueName('ed')
    await setField(drawer, 'name', newName)
    await setField(drawer, 'quota', '2500.8')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForToast(el, 'redemption updated successfully')
    const read = (await readCode(code!.id)).data
    expect([read.name, read.quota]).to.deep.equal([newName, 2500])
    await waitFor(() => rowOf(el, code!.id)!.querySelector('[data-cell="name"]')!.textContent === newName, 'the new name in the row')
  })

  it('deletes a code after asking', async () => {
    const [code] = await newCodes(1)
    const el = await mountCodes()
    await click((await waitRow(el, code!.id)).querySelector('[data-action="delete"]'))
    const dialog = await waitFor(() => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'))
    await click(dialog.querySelector('[data-action="confirm"]'))
    await waitForToast(el, 'operation completed')
    await waitFor(() => !rowOf(el, code!.id), 'the row to go')
    expect((await readCode(code!.id)).message).to.equal('redemption code not found')
  })

  it("copies the selected codes, and asks to 'please select at least one'", async () => {
    const [a, b, c] = await newCodes(3)
    const clip = captureClipboard()
    try {
      const el = await mountCodes()
      await waitRow(el, c!.id)
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'please select at least one')
      expect(clip.texts).to.deep.equal([])
      for (const r of [a, c]) {
        const box = rowOf(el, r!.id)!.querySelector<Control>('[data-action="select"]')!
        box.checked = true
        box.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
      }
      await waitForText(el, 'Copy selected (2)')
      await click($(el, '[data-action="copy-selected"]'))
      await waitForToast(el, 'copied to clipboard')
      expect(clip.texts.at(-1)!.split('\n').sort()).to.deep.equal([a!.key, c!.key].sort())
      await click(rowOf(el, b!.id)!.querySelector('[data-action="copy"]'))
      await waitFor(() => clip.texts.at(-1) === b!.key, 'one code copied')
    } finally {
      clip.restore()
    }
  })

  it('searches by name and loads 10 codes at a time', async () => {
    const made = await newCodes(11)
    const el = await mountCodes()
    await waitFor(() => $$(el, 'tbody tr').length === 10, 'ten rows')
    await click($(el, '[data-action="load-more"]'))
    await waitFor(() => $$(el, 'tbody tr').length > 10, 'the next page')
    const form = $(el, 'form[data-form="search"]')!
    await setField(form, 'keyword', made[0]!.name)
    await click($(el, '[data-action="search"]'))
    await waitFor(() => $$(el, 'tbody tr').length === 11 && !$(el, '[data-action="load-more"]'), 'the search results')
    await setField(form, 'keyword', `${made[0]!.name}-none`)
    await click($(el, '[data-action="search"]'))
    await waitForText(el, 'No code matches the search')
    await setField(form, 'keyword', '')
    await click($(el, '[data-action="search"]'))
    await waitFor(() => $$(el, 'tbody tr').length === 10, 'the first page again')
  })

  it('shows each row as a card on a 375 px screen, in Simplified Chinese and dark mode', async () => {
    await loadStatus()
    const [code] = await newCodes(1)
    await setViewport({ width: 375, height: 800 })
    setLocale('zh')
    setTheme('dark')
    const el = await mountCodes()
    const row = await waitRow(el, code!.id)
    expect(getComputedStyle($(el, 'thead')!).display).to.equal('none')
    expect(row.getBoundingClientRect().width).to.be.at.most(375)
    expect(row.querySelector('[data-cell="status"]')!.textContent).to.equal('未使用')
    await waitForText(el, '添加兑换码')
    expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
    await click($(el, '[data-action="copy-selected"]'))
    await waitForToast(el, '请至少选择一个')
  })
})

describe('<tollgate-redemptions> roles', () => {
  afterEach(cleanup)

  it('tells ordinary users the page is for administrators; the server refuses them', async () => {
    await registerAndSignIn()
    const el = await mountCodes()
    await waitForText(el, 'This page is for administrators')
    expect(textOf(el)).to.not.include('Add redemption codes')
    expect((await fetch('/api/redemption/?p=0')).status).to.equal(403)
  })
})
