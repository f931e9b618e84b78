import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $prefs, setLocale, setTheme } from '../../src/stores/prefs.ts'
import type { Channel } from '../../src/api/types.ts'
import { channelBody, emptyForm } from '../../src/screens/channels/channel-form.ts'
import { responseTimeColor } from '../../src/screens/channels/channel-types.ts'
import { boundedNumber } from '../../domain/channel-rules.ts'
import { CHANNEL_TYPES, channelTypeName } from '../../domain/channel-types.ts'
import {
  $,
  $$,
  cleanup,
  goTo,
  mount,
  registerAndSignIn,
  serverCommand,
  signInAs,
  sleep,
  textOf,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

type Envelope<T = any> = { success: boolean; message: string; data: T; [k: string]: unknown }

async function api<T = any>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json()
}

let upstream = ''

/** A channel made through the API (arrangement), pointing at the fake upstream on loopback. */
async function newChannel(fields: Partial<Channel> & { key?: string } = {}): Promise<Channel> {
  const res = await api<Channel[]>('POST', '/api/channel/', {
    name: uniqueName('ch'),
    type: 1,
    key: `sk-${uniqueName('k')}`,
    models: 'gpt-4o,gpt-3.5-turbo',
    group: 'default',
    base_url: upstream,
    ...fields,
  })
  if (!res.success) throw new Error(res.message)
  return res.data[0]!
}

const readChannel = async (id: number) => api<Channel>('GET', `/api/channel/${id}`)
const setColumns = (id: number, set: Record<string, unknown>) => serverCommand('tg-admin-channel-set', { id, set })

async function searchByName(name: string): Promise<Channel[]> {
  return (await api<Channel[]>('GET', `/api/channel/search?keyword=${encodeURIComponent(name)}`)).data
}

type Control = HTMLElement & { value: any; checked?: boolean; open?: boolean; updateComplete?: Promise<unknown> }

const rowOf = (el: Element, id: number) => $<HTMLTableRowElement>(el, `tr[data-id="${id}"]`)
const waitRow = (el: Element, id: number) => waitFor(() => rowOf(el, id), `row ${id}`)
const inRow = <T extends Element = Control>(row: Element, selector: string) => row.querySelector<T>(selector)

/** The control whose `name` (or `value`) property matches: React sets Shoelace props as properties, not attributes. */
function named(scope: Element | ShadowRoot, selector: string, name: string, prop: 'name' | 'value' = 'name'): Control | null {
  return [...scope.querySelectorAll<Control>(selector)].find((c) => (c as unknown as Record<string, unknown>)[prop] === name) ?? null
}

async function mountChannels(): Promise<HTMLElement> {
  const el = await mount('<tollgate-channels></tollgate-channels>')
  await waitFor(() => $(el, 'table[data-table="channels"]') || $(el, '[part="empty-state"]'), 'the channel list')
  return el
}

const drawerOf = (el: Element) => $<Control>(el, 'sl-drawer[data-drawer="channel"]')!

/** A control of the drawer's form by name (sl-input, sl-textarea, sl-select, sl-switch). */
function field(el: Element, name: string): Control {
  const found = [...drawerOf(el).querySelectorAll<Control>('sl-input, sl-textarea, sl-select, sl-switch')].find(
    (c) => (c as unknown as { name: string }).name === name,
  )
  if (!found) throw new Error(`no field ${name}`)
  return found
}

/** Sets a form control the way a user would and lets React render. */
async function setField(el: Element, name: string, value: string | string[] | boolean) {
  const control = await waitFor(() => {
    try {
      return field(el, name)
    } catch {
      return null
    }
  }, `field ${name}`)
  if (typeof value === 'boolean') control.checked = value
  else control.value = value
  control.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  control.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
  await sleep(60)
}

/** Types into a native input the way React notices (its value tracker ignores a plain property set). */
function typeNative(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Control).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

const action = (scope: Element | ShadowRoot, name: string) => scope.querySelector<HTMLElement>(`[data-action="${name}"]`)

async function openAdd(el: HTMLElement) {
  await click($(el, '[data-action="add"]'))
  await waitFor(() => drawerOf(el).open && drawerOf(el).querySelector('form[data-form="channel"]'), 'the add drawer')
}

async function save(el: HTMLElement) {
  await click(await waitFor(() => action(drawerOf(el), 'save'), 'the save button'))
}

async function confirm(el: HTMLElement) {
  const dialog = await waitFor(
    () => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'),
    'the confirm dialog',
  )
  await click(action(dialog, 'confirm'))
}

async function chooseMenu(row: Element, value: string) {
  await click(named(row, 'sl-menu-item', value, 'value'))
}

before(async () => {
  upstream = await serverCommand<string>('tg-admin-upstream')
})

describe('channel rules (pure)', () => {
  it('names every type number of the spec, in both languages, and says unknown otherwise', () => {
    const expected: Record<number, string> = {
      1: 'OpenAI',
      2: 'image-relay proxy',
      5: 'image-relay proxy plus',
      3: 'Azure OpenAI',
      14: 'Anthropic Claude',
      33: 'AWS Claude',
      8: 'custom',
      22: 'FastGPT knowledge base',
      64: 'Riffusion',
      66: 'fal.ai',
    }
    for (const [n, name] of Object.entries(expected)) expect(channelTypeName(Number(n), 'en')).to.equal(name)
    const spec = [
      1, 2, 5, 4, 14, 33, 3, 24, 34, 15, 17, 18, 16, 26, 11, 25, 19, 23, 31, 35, 8, 22, 21, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 61,
      63, 64, 65, 66,
    ]
    expect(CHANNEL_TYPES.map((c) => c.type)).to.deep.equal(spec)
    for (const n of spec) {
      expect(channelTypeName(n, 'en')).to.not.equal('unknown')
      expect(channelTypeName(n, 'zh')).to.not.equal('未知')
    }
    expect(channelTypeName(6, 'en')).to.equal('unknown')
    expect(channelTypeName(99, 'zh')).to.equal('未知')
  })

  it('colours response times at the spec bounds', () => {
    expect([0, 1, 1000, 1001, 3000, 3001, 5000, 5001].map(responseTimeColor)).to.deep.equal([
      'untested',
      'green',
      'green',
      'lime',
      'lime',
      'yellow',
      'yellow',
      'red',
    ])
  })

  it('keeps priority at -999 or above, weight at 0 or above, and ignores an empty box', () => {
    expect(boundedNumber('-5000', -999)).to.equal(-999)
    expect(boundedNumber('-3', 0)).to.equal(0)
    expect(boundedNumber('7', 0)).to.equal(7)
    expect(boundedNumber('', -999)).to.equal(null)
    expect(boundedNumber('  ', 0)).to.equal(null)
  })

  it("refuses models that are not a list with 'submit failed, do not resubmit'", () => {
    const form = { ...emptyForm(), name: 'x', key: 'k', models: 'gpt-4o' as unknown as string[] }
    expect(channelBody(form, true)).to.deep.equal({ error: 'channels.error.resubmit' })
  })

  it('builds the body: no trailing slash, defaults of types 3 and 18, empty priority left out, weight clamped', () => {
    const base = { ...emptyForm(), name: 'n', key: 'k', models: ['m'], base_url: 'https://x.example/v1//', priority: '', weight: '-4' }
    const body = (channelBody({ ...base, type: 3 }, true) as { body: Record<string, unknown> }).body
    expect(body.base_url).to.equal('https://x.example/v1')
    expect(body.other).to.equal('2023-06-01-preview')
    expect(body).to.not.have.property('priority')
    expect(body.weight).to.equal(0)
    expect((channelBody({ ...base, type: 18 }, true) as { body: Record<string, unknown> }).body.other).to.equal('v2.1')
    expect((channelBody({ ...base, type: 18, other: 'v3.5' }, true) as { body: Record<string, unknown> }).body.other).to.equal('v3.5')
    expect((channelBody({ ...base, type: 1 }, true) as { body: Record<string, unknown> }).body.other).to.equal('')
  })
})

describe('<tollgate-channels> list', () => {
  beforeEach(async () => {
    await signInAs('root', '123456')
    $prefs.setKey('id-sort', true)
  })
  afterEach(async () => {
    $prefs.setKey('id-sort', false)
    $prefs.setKey('page-size', 10)
    await cleanup()
  })

  it('shows type names (unknown for other numbers), status and shading of rows not enabled', async () => {
    const enabled = await newChannel({ type: 14 })
    const manual = await newChannel({ type: 99, status: 2 })
    const auto = await newChannel({ type: 45, status: 3 })
    const el = await mountChannels()
    const [r1, r2, r3] = [await waitRow(el, enabled.id), await waitRow(el, manual.id), await waitRow(el, auto.id)]
    expect(inRow(r1, '[data-cell="type"]')!.textContent).to.equal('Anthropic Claude')
    expect(inRow(r2, '[data-cell="type"]')!.textContent).to.equal('unknown')
    expect(inRow(r3, '[data-cell="type"]')!.textContent).to.equal('Viggle')
    expect([r1, r2, r3].map((r) => inRow(r, '[data-cell="status"]')!.textContent)).to.deep.equal([
      'enabled',
      'manually disabled',
      'automatically disabled',
    ])
    expect([r1, r2, r3].map((r) => r.dataset.shaded)).to.deep.equal(['false', 'true', 'true'])
    const bg = (r: Element) => getComputedStyle(r).backgroundColor
    expect(bg(r2)).to.not.equal(bg(r1))
    expect(bg(r3)).to.equal(bg(r2))
  })

  it('colours the response time: untested, green, lime, yellow, red', async () => {
    const times = [0, 800, 2500, 4500, 7000]
    const channels: Channel[] = []
    for (const ms of times) {
      const c = await newChannel()
      await setColumns(c.id, { response_time: ms })
      channels.push(c)
    }
    const el = await mountChannels()
    const cells = []
    for (const c of channels) cells.push(inRow(await waitRow(el, c.id), '[data-cell="response-time"]')!)
    expect(cells.map((c) => c.dataset.color)).to.deep.equal(['untested', 'green', 'lime', 'yellow', 'red'])
    expect(cells.map((c) => c.textContent)).to.deep.equal(['untested', '0.80 s', '2.50 s', '4.50 s', '7.00 s'])
    const colours = new Set(cells.map((c) => getComputedStyle(c).backgroundColor))
    expect(colours.size).to.equal(5)
  })

  it('edits priority and weight in place: -999 and 0 at least, an empty box ignored', async () => {
    const c = await newChannel({ priority: 3, weight: 2 })
    const el = await mountChannels()
    const row = await waitRow(el, c.id)
    const priority = named(row, 'sl-input', 'priority')!
    priority.value = '-5000'
    priority.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitForToast(el, 'operation completed')
    expect((await readChannel(c.id)).data.priority).to.equal(-999)
    await waitFor(() => named(rowOf(el, c.id)!, 'sl-input', 'priority')!.value === '-999', 'the clamped priority')

    const weight = named(rowOf(el, c.id)!, 'sl-input', 'weight')!
    weight.value = '-3'
    weight.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => named(rowOf(el, c.id)!, 'sl-input', 'weight')!.value === '0', 'the clamped weight')
    expect((await readChannel(c.id)).data.weight).to.equal(0)

    const before = (await readChannel(c.id)).data
    const p2 = named(rowOf(el, c.id)!, 'sl-input', 'priority')!
    p2.value = ''
    p2.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await sleep(200)
    expect(p2.value).to.equal('-999')
    expect((await readChannel(c.id)).data.priority).to.equal(before.priority)
  })

  it('disables and enables a channel', async () => {
    const c = await newChannel()
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="disable"]'))
    await waitForToast(el, 'operation completed')
    await waitFor(() => rowOf(el, c.id)!.dataset.shaded === 'true', 'the shaded row')
    expect((await readChannel(c.id)).data.status).to.equal(2)
    await click(inRow(rowOf(el, c.id)!, '[data-action="enable"]'))
    await waitFor(() => rowOf(el, c.id)!.dataset.shaded === 'false', 'the enabled row')
    expect((await readChannel(c.id)).data.status).to.equal(1)
  })

  it('tests a channel against the upstream and shows its name and the seconds taken', async () => {
    const c = await newChannel()
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="test"]'))
    await waitFor(
      () => toastTexts(el).some((m) => new RegExp(`^channel ${c.name} tested successfully, took \\d+\\.\\d{2} seconds$`).test(m)),
      'the test toast',
    )
    await waitFor(() => inRow(rowOf(el, c.id)!, '[data-cell="response-time"]')!.dataset.color !== 'untested', 'a measured response time')
    expect((await readChannel(c.id)).data.test_time).to.be.greaterThan(0)
  })

  it('tests with another model from the menu', async () => {
    const c = await newChannel({ models: 'gpt-4o,gpt-3.5-turbo' })
    const el = await mountChannels()
    await chooseMenu(await waitRow(el, c.id), 'gpt-3.5-turbo')
    await waitFor(() => toastTexts(el).some((m) => m.startsWith(`channel ${c.name} tested successfully`)), 'the test toast')
  })

  it("tests every channel in the background: 'started, refresh to see results'", async () => {
    await newChannel()
    await serverCommand('tg-admin-loopback-channels')
    const el = await mountChannels()
    await click($(el, '[data-action="test-all"]'))
    await waitForToast(el, 'started, refresh to see results')
  })

  it('updates one balance and all balances', async () => {
    const c = await newChannel()
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="balance"]'))
    await waitForToast(el, 'channel balance updated')
    await waitFor(() => inRow(rowOf(el, c.id)!, '[data-cell="balance"]')!.textContent === '$75.00', 'the new balance')
    expect((await readChannel(c.id)).data.balance).to.equal(75)
    await serverCommand('tg-admin-loopback-channels')
    await click($(el, '[data-action="update-all-balances"]'))
    await waitForToast(el, 'all enabled channels updated', 10000)
  })

  it('deletes a channel after asking', async () => {
    const c = await newChannel()
    const el = await mountChannels()
    await chooseMenu(await waitRow(el, c.id), 'delete')
    await confirm(el)
    await waitForToast(el, 'operation completed')
    await waitFor(() => !rowOf(el, c.id), 'the row to go')
    expect((await readChannel(c.id)).message).to.equal('channel not found, refresh and retry')
  })

  it('keeps a channel when the deletion is cancelled', async () => {
    const c = await newChannel()
    const el = await mountChannels()
    await chooseMenu(await waitRow(el, c.id), 'delete')
    const dialog = await waitFor(() => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'))
    await click(action(dialog, 'cancel'))
    await sleep(150)
    expect(rowOf(el, c.id)).to.not.equal(null)
    expect((await readChannel(c.id)).success).to.equal(true)
  })

  it('deletes the disabled channels and keeps the enabled ones', async () => {
    const keep = await newChannel()
    const manual = await newChannel({ status: 2 })
    const auto = await newChannel({ status: 3 })
    const el = await mountChannels()
    await waitRow(el, manual.id)
    await click($(el, '[data-action="delete-disabled"]'))
    await confirm(el)
    await waitFor(() => toastTexts(el).some((m) => /^\d+ disabled channels deleted$/.test(m)), 'the count toast')
    expect((await readChannel(manual.id)).success).to.equal(false)
    expect((await readChannel(auto.id)).success).to.equal(false)
    expect((await readChannel(keep.id)).success).to.equal(true)
  })

  it("asks to 'select channels to delete first', then deletes the selected ones", async () => {
    const a = await newChannel()
    const b = await newChannel()
    const c = await newChannel()
    const el = await mountChannels()
    await waitRow(el, a.id)
    await click($(el, '[data-action="delete-selected"]'))
    await waitForToast(el, 'select channels to delete first')
    for (const id of [a.id, b.id]) {
      const box = inRow(rowOf(el, id)!, 'sl-checkbox[data-action="select"]')!
      box.checked = true
      box.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    }
    await waitForText(el, 'Delete selected (2)')
    await click($(el, '[data-action="delete-selected"]'))
    await confirm(el)
    await waitForToast(el, '2 channels deleted')
    expect((await readChannel(a.id)).success).to.equal(false)
    expect((await readChannel(b.id)).success).to.equal(false)
    expect((await readChannel(c.id)).success).to.equal(true)
  })

  it('checks the Viggle and Suno accounts and disables the channels whose check fails', async () => {
    // the fake upstream answers neither /viggle/template2/tag nor /api/get_limit: both checks fail
    const viggle = await newChannel({ type: 45, models: 'vg_generate' })
    const suno = await newChannel({ type: 41, models: 'suno_music' })
    const el = await mountChannels()
    await waitRow(el, suno.id)
    await click($(el, '[data-action="check-viggle"]'))
    await waitFor(
      () => toastTexts(el).some((m) => /^\d+ channels checked: [1-9]\d* disabled, \d+ enabled again$/.test(m)),
      'the Viggle result',
    )
    await waitFor(() => rowOf(el, viggle.id)?.dataset.status === '3', 'the disabled Viggle channel')
    expect((await readChannel(viggle.id)).data.status).to.equal(3)
    expect((await readChannel(suno.id)).data.status).to.equal(1)
    await click($(el, '[data-action="check-suno"]'))
    await waitFor(() => rowOf(el, suno.id)?.dataset.status === '3', 'the disabled Suno channel')
    expect((await readChannel(suno.id)).data.status).to.equal(3)
  })

  it('fixes the abilities of every channel', async () => {
    await newChannel()
    const el = await mountChannels()
    await click($(el, '[data-action="fix"]'))
    await waitFor(() => toastTexts(el).some((m) => /^abilities of \d+ channels rebuilt$/.test(m)), 'the fix toast')
  })

  it('copies a channel with its key and settings under a new name', async () => {
    const c = await newChannel({ model_mapping: '{"a":"b"}', priority: 2 })
    const original = (await readChannel(c.id)).data
    const el = await mountChannels()
    await chooseMenu(await waitRow(el, c.id), 'copy')
    await waitForToast(el, 'channel copied')
    const copies = (await searchByName(`${c.name}_copy`)).filter((x) => x.name === `${c.name}_copy`)
    expect(copies.length).to.equal(1)
    const copy = (await readChannel(copies[0]!.id)).data
    expect(copy.id).to.not.equal(c.id)
    expect([copy.key, copy.models, copy.model_mapping, copy.priority, copy.base_url]).to.deep.equal([
      original.key,
      original.models,
      original.model_mapping,
      original.priority,
      original.base_url,
    ])
  })

  it("says 'channel copy failed' when the channel is gone", async () => {
    const c = await newChannel()
    const el = await mountChannels()
    const row = await waitRow(el, c.id)
    await api('DELETE', `/api/channel/${c.id}/`)
    await chooseMenu(row, 'copy')
    await waitForToast(el, 'channel copy failed')
  })

  it('loads the next page when the last page was full', async () => {
    const name = uniqueName('pg')
    const made = await api<Channel[]>('POST', '/api/channel/', {
      name,
      type: 1,
      key: Array.from({ length: 11 }, (_, i) => `sk-${name}-${i}`).join('\n'),
      models: 'gpt-4o',
      base_url: upstream,
    })
    expect(made.data.length).to.equal(11)
    const el = await mountChannels()
    await waitFor(() => $$(el, 'tbody tr').length === 10, 'ten rows')
    await click(await waitFor(() => $(el, '[data-action="load-more"]'), 'load more'))
    await waitFor(() => $$(el, 'tbody tr').length > 10, 'more rows')
    const ids = $$(el, 'tbody tr').map((r) => Number(r.dataset.id))
    expect(new Set(ids).size).to.equal(ids.length)
    expect(ids).to.include.members(made.data.map((c) => c.id))
  })

  it('stores the page size under page-size and the id sort under id-sort', async () => {
    $prefs.setKey('id-sort', false)
    const high = await newChannel({ priority: 900 })
    const low = await newChannel({ priority: 899 })
    const el = await mountChannels()
    const order = () =>
      $$(el, 'tbody tr')
        .map((r) => Number(r.dataset.id))
        .filter((id) => id === high.id || id === low.id)
    await waitFor(() => order().length === 2, 'both rows')
    expect(order()).to.deep.equal([high.id, low.id])
    const sort = named(el.shadowRoot!, 'sl-switch', 'id-sort')!
    sort.checked = true
    sort.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => order().join() === [low.id, high.id].join(), 'id order')
    expect(localStorage.getItem('tollgate:id-sort')).to.equal('true')
    const size = named(el.shadowRoot!, 'sl-select', 'page-size')!
    expect(size.value).to.equal('10')
    size.value = '20'
    size.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    await waitFor(() => localStorage.getItem('tollgate:page-size') === '20', 'the stored page size')
    expect([...size.querySelectorAll('sl-option')].map((o) => (o as Control).value)).to.deep.equal(['10', '20', '50', '100'])
  })

  it('searches by keyword, group, model and status; an empty search shows the list again', async () => {
    const tag = uniqueName('sr')
    const a = await newChannel({ name: `${tag}a`, models: 'special-model-x', group: 'vip' })
    const b = await newChannel({ name: `${tag}b`, status: 2 })
    const el = await mountChannels()
    const search = async (q: Record<string, string>) => {
      for (const [name, value] of Object.entries(q)) {
        const c = [...$(el, 'form[data-form="search"]')!.querySelectorAll<Control>('sl-input, sl-select')].find(
          (x) => (x as unknown as { name: string }).name === name,
        )!
        c.value = value
        c.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
        c.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
      }
      await sleep(50)
      await click($(el, '[data-action="search"]'))
      await sleep(150)
    }
    const ids = () => $$(el, 'tbody tr').map((r) => Number(r.dataset.id))
    await search({ keyword: tag })

    await waitFor(() => ids().join() === [b.id, a.id].join(), 'keyword results')
    await search({ keyword: tag, status: '2' })
    await waitFor(() => ids().join() === String(b.id), 'status results')
    await search({ keyword: '', status: '', model: 'special-model-x' })
    await waitFor(() => ids().join() === String(a.id), 'model results')
    await search({ model: '', group: 'vip' })
    await waitFor(() => ids().includes(a.id) && !ids().includes(b.id), 'group results')
    await search({ keyword: `${tag}-none`, group: '' })
    await waitForText(el, 'No channel matches the search')
    await search({ keyword: '' })
    await waitFor(() => ids().includes(a.id) && ids().includes(b.id), 'the list again')
  })
})

describe('<tollgate-channels> drawer', () => {
  beforeEach(async () => {
    await signInAs('root', '123456')
    $prefs.setKey('id-sort', true)
  })
  afterEach(async () => {
    $prefs.setKey('id-sort', false)
    await cleanup()
  })

  it('creates a channel with every field and reads it back through the API', async () => {
    const name = uniqueName('ui')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'type', '1')
    await setField(el, 'name', name)
    await setField(el, 'key', 'sk-ui-created')
    await setField(el, 'base_url', `${upstream}/`)
    await setField(el, 'other', 'x-extra')
    await setField(el, 'openai_organization', 'org-123')
    const custom = drawerOf(el).querySelector<HTMLInputElement>('input[name="custom-models"]')!
    typeNative(custom, 'gpt-4o, my-model')
    await sleep(50)
    await click(action(drawerOf(el), 'add-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 2, 'two model chips')
    await setField(el, 'test_model', 'my-model')
    await setField(el, 'groups', ['default', 'vip'])
    await click(action(drawerOf(el), 'model-mapping-template'))
    await click(action(drawerOf(el), 'status-mapping-template'))
    await setField(el, 'priority', '7')
    await setField(el, 'weight', '3')
    await setField(el, 'max_input_tokens', '4096')
    await setField(el, 'auto_ban', false)
    await save(el)
    await waitForToast(el, 'channel created')
    await waitFor(() => !drawerOf(el).open, 'the drawer to close')
    const [found] = (await searchByName(name)).filter((c) => c.name === name)
    expect(found, 'the channel').to.not.equal(undefined)
    const c = (await readChannel(found!.id)).data
    expect(c.type).to.equal(1)
    expect(c.key).to.equal('sk-ui-created')
    expect(c.base_url).to.equal(upstream)
    expect(c.other).to.equal('x-extra')
    expect(c.openai_organization).to.equal('org-123')
    expect(c.models).to.equal('gpt-4o,my-model')
    expect(c.test_model).to.equal('my-model')
    expect(c.group).to.equal('default,vip')
    expect(JSON.parse(c.model_mapping)).to.deep.equal({
      'gpt-3.5-turbo-0301': 'gpt-3.5-turbo',
      'gpt-4-0314': 'gpt-4',
      'gpt-4-32k-0314': 'gpt-4-32k',
    })
    expect(JSON.parse(c.status_code_mapping)).to.deep.equal({ '400': '500' })
    expect([c.priority, c.weight, c.max_input_tokens, Number(c.auto_ban)]).to.deep.equal([7, 3, 4096, 0])
    await waitRow(el, c.id)
  })

  it('requires name and key for a new channel, at least one model, and JSON mappings', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await save(el)
    await waitForText(el, 'please fill in the channel name and key')
    await setField(el, 'name', uniqueName('v'))
    await save(el)
    await waitForText(el, 'please fill in the channel name and key')
    await setField(el, 'key', 'sk-v')
    await save(el)
    await waitForText(el, 'choose at least one model')
    await click(action(drawerOf(el), 'fill-type-models'))
    await setField(el, 'model_mapping', '{not json')
    await save(el)
    await waitForText(el, 'model mapping must be valid JSON')
    await setField(el, 'model_mapping', '')
    await setField(el, 'status_code_mapping', '400: 500')
    await save(el)
    await waitForText(el, 'status-code mapping must be valid JSON')
    expect(drawerOf(el).open).to.equal(true)
  })

  it('refuses before sending what the server refuses by the same rule: a base URL that is not http(s), a mapping to no model name', async () => {
    const name = uniqueName('rule')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', name)
    await setField(el, 'key', 'sk-rule')
    await click(action(drawerOf(el), 'fill-type-models'))
    await setField(el, 'base_url', 'ftp://files.example')
    await save(el)
    await waitForText(el, 'the base URL must be an http or https address')
    await setField(el, 'base_url', '')
    await setField(el, 'model_mapping', '{"gpt-4o": 4}')
    await save(el)
    await waitForText(el, 'model mapping must map each name to a model name ("gpt-4o" does not)')
    expect(drawerOf(el).open).to.equal(true)
    expect((await searchByName(name)).filter((c) => c.name === name)).to.deep.equal([])
    const server = await api('POST', '/api/channel/', { name, type: 1, key: 'k', models: 'm', base_url: 'ftp://files.example' })
    expect([server.success, server.message]).to.deep.equal([false, 'base_url must be an http or https address'])
  })

  it('fills in the default other of types 3 and 18', async () => {
    for (const [type, other] of [
      ['3', '2023-06-01-preview'],
      ['18', 'v2.1'],
    ] as const) {
      const name = uniqueName('ot')
      const el = await mountChannels()
      await openAdd(el)
      await setField(el, 'type', type)
      await setField(el, 'name', name)
      await setField(el, 'key', type === '18' ? 'app|secret|key' : 'sk-azure')
      await setField(el, 'base_url', upstream)
      await click(action(drawerOf(el), 'fill-type-models'))
      await save(el)
      await waitForToast(el, 'channel created')
      const [found] = (await searchByName(name)).filter((c) => c.name === name)
      expect((await readChannel(found!.id)).data.other).to.equal(other)
      el.remove()
    }
  })

  it('shows the key format of each type', async () => {
    const el = await mountChannels()
    await openAdd(el)
    const formats: Record<string, string> = {
      '15': 'APIKey|SecretKey',
      '18': 'APPID|APISecret|APIKey',
      '22': 'APIKey-AppId',
      '23': 'AppId|SecretId|SecretKey',
      '64': 'refresh_token||apikey',
      '33': 'Ak|Sk|Region',
    }
    for (const [type, keyFormat] of Object.entries(formats)) {
      await setField(el, 'type', type)
      await waitFor(() => field(el, 'key').getAttribute('help-text') === `Key format: ${keyFormat}`, `the key format of type ${type}`)
      expect((field(el, 'key') as unknown as { placeholder: string }).placeholder).to.equal(keyFormat)
    }
    await setField(el, 'type', '1')
    await waitFor(() => field(el, 'key').getAttribute('help-text') === 'The API key the upstream issued.', 'the generic hint')
  })

  it('creates one channel per key line in batch mode', async () => {
    const name = uniqueName('bt')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', name)
    await setField(el, 'batch', true)
    await waitFor(() => field(el, 'key').tagName === 'SL-TEXTAREA', 'the key lines box')
    await setField(el, 'key', 'sk-line-1\n\nsk-line-2\n  sk-line-3  \n')
    await setField(el, 'base_url', upstream)
    await click(action(drawerOf(el), 'fill-type-models'))
    await save(el)
    await waitForToast(el, 'channel created')
    const made = (await searchByName(name)).filter((c) => c.name === name)
    expect(made.length).to.equal(3)
    const keys = await Promise.all(made.map(async (c) => (await readChannel(c.id)).data.key))
    expect(keys.sort()).to.deep.equal(['sk-line-1', 'sk-line-2', 'sk-line-3'])
  })

  it("says 'some models already exist' when a custom model is there already", async () => {
    const el = await mountChannels()
    await openAdd(el)
    const custom = drawerOf(el).querySelector<HTMLInputElement>('input[name="custom-models"]')!
    for (const value of ['gpt-4o', 'gpt-4o, o1']) {
      typeNative(custom, value)
      await sleep(50)
      await click(action(drawerOf(el), 'add-models'))
    }
    await waitForToast(el, 'some models already exist')
    expect([...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))).to.deep.equal([
      'gpt-4o',
      'o1',
    ])
  })

  it('fetches the model list of a new type-1 channel from the browser with the key', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'base_url', upstream)
    await setField(el, 'key', 'sk-fetch-from-browser')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 2, 'the fetched models')
    expect([...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))).to.deep.equal([
      'gpt-4o',
      'gpt-3.5-turbo',
    ])
    expect(await serverCommand('tg-admin-models-auth')).to.equal('Bearer sk-fetch-from-browser')
    await setField(el, 'key', 'sk-bad')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitForToast(el, 'fetching model list failed')
    await setField(el, 'type', '14')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitForToast(el, 'only the OpenAI interface format is supported')
  })

  it('fetches the model list of a saved channel through the server', async () => {
    const c = await newChannel({ models: 'only-this' })
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="edit"]'))
    await waitFor(() => drawerOf(el).querySelector('sl-tag[data-model="only-this"]'), 'the loaded models')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 3, 'the fetched models')
    await waitForToast(el, '2 models fetched')
  })

  it('fills in the preset models of image, music and video types when the list is empty', async () => {
    const presets = (await api<Record<string, string[]>>('GET', '/api/models')).data
    const el = await mountChannels()
    await openAdd(el)
    await waitFor(() => Object.keys(JSON.parse(localStorage.getItem('tollgate:models') ?? '{}')).length > 0, 'the cached model lists')
    const chips = () => [...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))
    for (const type of ['41', '43', '53', '66']) {
      await click(action(drawerOf(el), 'clear-models'))
      await setField(el, 'type', type)
      await waitFor(() => chips().join() === presets[type]!.join(), `the presets of type ${type}`)
    }
    await setField(el, 'type', '1')
    expect(chips().join()).to.equal(presets['66']!.join())
    await click(action(drawerOf(el), 'clear-models'))
    await setField(el, 'type', '14')
    expect(chips()).to.deep.equal([])
  })

  it('edits a channel: the key stays when left empty', async () => {
    const c = await newChannel({ key: 'sk-keep-me' })
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="edit"]'))
    await waitFor(() => field(el, 'name').value === c.name, 'the loaded form')
    expect(field(el, 'key').value).to.equal('')
    expect((field(el, 'key') as unknown as { placeholder: string }).placeholder).to.equal('Leave empty to keep the current key')
    await setField(el, 'name', `${c.name}x`)
    await save(el)
    await waitForToast(el, 'channel updated')
    await waitFor(() => inRow(rowOf(el, c.id)!, '[data-cell="name"]')!.textContent === `${c.name}x`, 'the new name in the row')
    const read = (await readChannel(c.id)).data
    expect([read.name, read.key]).to.deep.equal([`${c.name}x`, 'sk-keep-me'])
  })

  it('offers the groups of the site as a list', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await waitFor(() => field(el, 'groups').querySelectorAll('sl-option').length >= 3, 'the group options')
    expect([...field(el, 'groups').querySelectorAll('sl-option')].map((o) => (o as Control).value)).to.include.members([
      'default',
      'vip',
      'svip',
    ])
    expect(field(el, 'groups').value).to.deep.equal(['default'])
  })

  it('keeps the form in the drawer while it slides out, then drops it', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', 'half-typed')
    await click(action(drawerOf(el), 'close'))
    expect(drawerOf(el).open).to.equal(false)
    expect(drawerOf(el).querySelector('form[data-form="channel"]'), 'the form while sliding out').to.not.equal(null)
    await waitFor(() => !drawerOf(el).querySelector('form[data-form="channel"]'), 'the form to go once hidden')
    await openAdd(el)
    expect(field(el, 'name').value).to.equal('')
  })

  it('opens and closes with the keyboard', async () => {
    const el = await mountChannels()
    const add = $<Control>(el, '[data-action="add"]')!
    await add.updateComplete
    add.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => drawerOf(el).open, 'the drawer')
    await sleep(300)
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !drawerOf(el).open, 'the drawer to close')
  })
})

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
  afterEach(async () => {
    await setViewport({ width: 1280, height: 800 })
    await cleanup()
  })

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
    await click($(el, '[data-action="delete-selected"]'))
    await waitForToast(el, '请先选择要删除的渠道！')
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
