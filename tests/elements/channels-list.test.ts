import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import type { Channel } from '../../src/api/types.ts'
import { prefetch } from '../../src/screens/channels/channels-screen.tsx'
import {
  $,
  $$,
  cleanup,
  serverCommand,
  signInAs,
  sleep,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
  expectPrefetchTakenOver,
} from './helpers.ts'
import {
  api,
  upstream,
  newChannel,
  readChannel,
  setColumns,
  searchByName,
  type Control,
  rowOf,
  waitRow,
  inRow,
  named,
  mountChannels,
  click,
  action,
  confirm,
  chooseMenu,
  AUTO_DISABLED_INFO,
} from './channels-helpers.ts'

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
    await setColumns(auto.id, { other_info: AUTO_DISABLED_INFO })
    await setColumns(manual.id, { other_info: AUTO_DISABLED_INFO })
    const el = await mountChannels()
    const [r1, r2, r3] = [await waitRow(el, enabled.id), await waitRow(el, manual.id), await waitRow(el, auto.id)]
    expect(inRow(r1, '[data-cell="type"]')!.textContent).to.equal('Anthropic Claude')
    expect(inRow(r2, '[data-cell="type"]')!.textContent).to.equal('unknown')
    expect(inRow(r3, '[data-cell="type"]')!.textContent).to.equal('Viggle')
    expect([r1, r2, r3].map((r) => inRow(r, '[data-cell="status"]')!.textContent)).to.deep.equal([
      'Enabled',
      'Manually disabled',
      'Automatically disabled',
    ])
    expect([r1, r2, r3].map((r) => r.dataset.shaded)).to.deep.equal(['false', 'true', 'true'])
    // why the server disabled it, and when, on the status; only for an automatic disable
    expect(inRow(r3, '[data-cell="status"]')!.title).to.match(/^disabled .+: no balance left$/)
    expect([r1, r2].map((r) => inRow(r, '[data-cell="status"]')!.title)).to.deep.equal(['', ''])
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
    expect(cells.map((c) => c.textContent)).to.deep.equal(['Untested', '0.80 s', '2.50 s', '4.50 s', '7.00 s'])
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

  it('shows a failed test as failed in the row and after a reload, until a later test passes', async () => {
    const c = await newChannel({ base_url: 'http://127.0.0.1:1' })
    const el = await mountChannels()
    const pill = () => inRow(rowOf(el, c.id)!, '[data-cell="response-time"]')!
    await click(inRow(await waitRow(el, c.id), '[data-action="test"]'))
    await waitFor(() => pill().dataset.color === 'failed', 'the failed pill')
    expect(pill().textContent).to.equal('Failed')
    expect(pill().title).to.match(/the upstream could not be reached/)
    expect(inRow(rowOf(el, c.id)!, '[data-cell="status"]')!.textContent).to.equal('Enabled', 'a single test never disables')
    await cleanup()
    await signInAs('root', '123456')
    $prefs.setKey('id-sort', true)
    const again = await mountChannels()
    const stored = inRow(await waitRow(again, c.id), '[data-cell="response-time"]')!
    expect([stored.dataset.color, stored.textContent]).to.deep.equal(['failed', 'Failed'])
    await api('PUT', '/api/channel/', { id: c.id, base_url: upstream })
    await click(inRow(rowOf(again, c.id)!, '[data-action="test"]'))
    await waitFor(
      () => !['failed', 'untested'].includes(inRow(rowOf(again, c.id)!, '[data-cell="response-time"]')!.dataset.color!),
      'a passed test',
    )
  })

  it("asks for the first page as soon as the screen's code arrives, and the screen takes that answer over", async () => {
    const c = await newChannel()
    await expectPrefetchTakenOver(['/api/channel/?'], prefetch, async () => {
      const el = await mountChannels()
      await waitRow(el, c.id)
    })
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
    await waitFor(() => toastTexts(el).some((m) => /^\d+ disabled channels? deleted$/.test(m)), 'the count toast')
    expect((await readChannel(manual.id)).success).to.equal(false)
    expect((await readChannel(auto.id)).success).to.equal(false)
    expect((await readChannel(keep.id)).success).to.equal(true)
  })

  it("is disabled saying 'select channels to delete first', then deletes the selected ones", async () => {
    const a = await newChannel()
    const b = await newChannel()
    const c = await newChannel()
    const el = await mountChannels()
    await waitRow(el, a.id)
    const button = $<HTMLElement & { disabled: boolean }>(el, '[data-action="delete-selected"]')!
    expect(button.disabled).to.equal(true)
    expect($(el, '[data-hint="delete-selected"]')!.textContent).to.equal('select channels to delete first')
    for (const id of [a.id, b.id]) {
      const box = inRow(rowOf(el, id)!, 'sl-checkbox[data-action="select"]')!
      box.checked = true
      box.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
    }
    await waitForText(el, 'Delete selected (2)')
    expect([button.disabled, $(el, '[data-hint="delete-selected"]')]).to.deep.equal([false, null])
    await click($(el, '[data-action="delete-selected"]'))
    const listed = await waitFor(() => {
      const items = $$(el, 'sl-dialog[data-confirm] [data-deletion-list] li')
      return items.length === 2 && items
    }, 'the list of what will be deleted')
    expect(listed.map((li) => li.textContent!.trim()).sort()).to.deep.equal([`#${a.id} ${a.name}`, `#${b.id} ${b.name}`].sort())
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
      () => toastTexts(el).some((m) => /^\d+ channels? checked: [1-9]\d* disabled, \d+ enabled again$/.test(m)),
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
    await waitFor(() => toastTexts(el).some((m) => /^abilities of \d+ channels? rebuilt$/.test(m)), 'the fix toast')
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
    const shown = () => (named(el.shadowRoot!, 'sl-select', 'page-size') as Control & { displayLabel: string }).displayLabel
    await waitFor(() => shown() === '20 per page', 'the English label')
    $prefs.setKey('locale', 'zh')
    await waitFor(() => shown() === '每页 20 条', 'the page size in Chinese at once, without a reload')
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
