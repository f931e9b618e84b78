import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { prefetch } from '../../src/screens/logs/logs-screen.tsx'
import { $session } from '../../src/stores/session.ts'
import { $prefs, setLocale, setTheme } from '../../src/stores/prefs.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import {
  $,
  $$,
  cleanup,
  inputNamed,
  loadStatus,
  mount,
  serverCommand,
  setOptions,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
  expectPrefetchTakenOver,
} from './helpers.ts'
import {
  HOUR,
  nowSeconds,
  insertLogs,
  user,
  rows,
  cell,
  cellText,
  rowWithToken,
  mountLogs,
  setFilter,
  search,
  stubClipboard,
} from './logs-helpers.ts'

describe('<tollgate-logs> for a user', () => {
  afterEach(cleanup)

  it("asks for the first page as soon as the screen's code arrives, and the screen takes that answer over", async () => {
    const me = await user()
    await insertLogs(me.username, [{ token_name: 'tok-primed' }])
    await expectPrefetchTakenOver(['/api/log/self?', '/api/log/self/?'], prefetch, async () => {
      const el = await mountLogs()
      await waitFor(() => rowWithToken(el, 'tok-primed'), 'the primed row')
    })
  })

  it('asks to sign in when nobody is signed in, without calling the server', async () => {
    const el = await mount('<tollgate-logs></tollgate-logs>')
    await waitForText(el, 'Sign in to read your usage logs')
    expect($(el, 'table')).to.equal(null)
  })

  it("reads the user's own logs through /api/log/self/ and never another user's rows", async () => {
    const other = await user()
    await insertLogs(other.username, [{ token_name: 'tok-of-other' }])
    const me = await user()
    await insertLogs(me.username, [{ token_name: 'tok-mine' }])
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-mine'), 'my row')
    expect(textOf(el)).to.not.include('tok-of-other')
    expect($(el, '[data-screen="logs"]')!.dataset.mode).to.equal('user')
    expect($$(el, '[data-col="user"]')).to.have.length(0)
    expect($$(el, '[data-col="channel"]')).to.have.length(0)
    expect($(el, '[data-action="clean-logs"]')).to.equal(null)
  })

  it('shows no retry chain to the user even when the row holds one (the /self answer drops admin_info)', async () => {
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-chain', other: JSON.stringify({ model_ratio: 2, admin_info: { use_channel: [4, 9] } }) },
    ])
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-chain'))
    expect($(el, '[data-retry-chain]')).to.equal(null)
    expect(textOf(el)).to.not.include('4 → 9')
  })

  it('defaults the range to 24 h ago up to 1 h ahead, and the server answers only rows inside it', async () => {
    const now = nowSeconds()
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-25h-ago', created_at: now - 25 * HOUR },
      { token_name: 'tok-23h-ago', created_at: now - 23 * HOUR },
      { token_name: 'tok-30min-ahead', created_at: now + HOUR / 2 },
      { token_name: 'tok-2h-ahead', created_at: now + 2 * HOUR },
    ])
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-23h-ago'))
    const start = inputNamed(el, 'start')!.value
    const end = inputNamed(el, 'end')!.value
    expect([toLocalInput(now - 24 * HOUR), toLocalInput(now - 24 * HOUR + 60)]).to.include(start)
    expect([toLocalInput(now + HOUR), toLocalInput(now + HOUR + 60)]).to.include(end)
    const tokens = rows(el).map((r) => cellText(r, 'token'))
    expect(tokens).to.include.members(['tok-23h-ago', 'tok-30min-ahead'])
    expect(tokens).to.not.include('tok-25h-ago')
    expect(tokens).to.not.include('tok-2h-ahead')
  })

  it('labels the log types 1 top-up, 2 consumption, 3 admin, 4 system and anything else unknown', async () => {
    const me = await user()
    await insertLogs(
      me.username,
      [1, 2, 3, 4, 7].map((type) => ({ type, token_name: `tok-type-${type}` })),
    )
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-type-7'))
    const label = (type: number) => cellText(rowWithToken(el, `tok-type-${type}`)!, 'type')
    expect([1, 2, 3, 4, 7].map(label)).to.deep.equal(['Top-up', 'Consumption', 'Admin', 'System', 'Unknown'])
  })

  it('colours the duration green under 101 s, orange under 300 s and red from 300 s, with the stream flag', async () => {
    const me = await user()
    const times = [0, 100, 101, 299, 300, 1000]
    await insertLogs(
      me.username,
      times.map((use_time, i) => ({ use_time, token_name: `tok-time-${use_time}`, is_stream: i % 2 })),
    )
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-time-1000'))
    const tone = (s: number) =>
      cell(rowWithToken(el, `tok-time-${s}`)!, 'duration')
        .querySelector('[data-tone]')!
        .getAttribute('data-tone')
    expect(times.map(tone)).to.deep.equal(['green', 'green', 'orange', 'orange', 'red', 'red'])
    expect(cellText(rowWithToken(el, 'tok-time-101')!, 'duration')).to.include('101 s')
    expect(cellText(rowWithToken(el, 'tok-time-0')!, 'duration')).to.include('non-stream')
    expect(cellText(rowWithToken(el, 'tok-time-100')!, 'duration')).to.match(/100 s\s*stream/)
  })

  it('shows prompt and completion tokens, the quota and the details from `other`', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const me = await user()
    await insertLogs(me.username, [
      {
        token_name: 'tok-ratio',
        model_name: 'gpt-4o',
        prompt_tokens: 120,
        completion_tokens: 34,
        quota: 4567,
        other: JSON.stringify({ model_ratio: 2.5, completion_ratio: 4, group_ratio: 1.5, model_price: -1 }),
      },
      { token_name: 'tok-price', model_name: 'mj_imagine', quota: 50000, other: JSON.stringify({ model_price: 0.1, group_ratio: 2 }) },
      { token_name: 'tok-content', type: 1, quota: 0, content: 'redeemed code 42' },
      {
        token_name: 'tok-relay',
        model_name: 'gpt-4o',
        quota: 12,
        content: 'model ratio 0.01, completion ratio 1, group ratio 1',
        other: JSON.stringify({ model_ratio: 0.01, completion_ratio: 1, group_ratio: 1, model_price: -1 }),
      },
    ])
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-content'))
    const ratio = rowWithToken(el, 'tok-ratio')!
    expect(cellText(ratio, 'prompt')).to.equal('120')
    expect(cellText(ratio, 'completion')).to.equal('34')
    expect(cellText(ratio, 'quota')).to.equal('4567')
    expect(cellText(ratio, 'model')).to.equal('gpt-4o')
    expect(cellText(ratio, 'details')).to.equal('model ratio 2.5, completion ratio 4, group ratio 1.5')
    expect(cellText(rowWithToken(el, 'tok-price')!, 'details')).to.equal('model price $0.1 per call, group ratio 2')
    // the relay's own English sentence says what the line says: once, not a second time in English
    expect(cellText(rowWithToken(el, 'tok-relay')!, 'details')).to.equal('model ratio 0.01, completion ratio 1, group ratio 1')
    const content = rowWithToken(el, 'tok-content')!
    expect(cellText(content, 'details')).to.equal('redeemed code 42')
    expect(cellText(content, 'prompt')).to.equal('—')
  })

  it('shows the statistics line (quota and tokens) the server sums for the same filters', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-s1', quota: 3000, prompt_tokens: 10, completion_tokens: 5 },
      { token_name: 'tok-s2', quota: 4000, prompt_tokens: 20, completion_tokens: 7 },
      { token_name: 'tok-s3', type: 1, quota: 900000 },
    ])
    const el = await mountLogs()
    await waitFor(() => $(el, '[data-stat-quota]'))
    expect($(el, '[data-stat-quota]')!.textContent).to.equal('7000')
    expect($(el, '[data-stat-tokens]')!.textContent).to.equal('42')
    await setFilter(el, 'token_name', 'tok-s2')
    await search(el)
    await waitFor(() => $(el, '[data-stat-quota]')?.textContent === '4000', 'the filtered statistics')
    expect($(el, '[data-stat-tokens]')!.textContent).to.equal('27')
  })

  it('filters by type, token name and model on the server', async () => {
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-a', model_name: 'gpt-4o-mini', type: 2 },
      { token_name: 'tok-b', model_name: 'claude-3', type: 2 },
      { token_name: 'tok-c', model_name: 'gpt-4o', type: 1 },
    ])
    const el = await mountLogs()
    await waitFor(() => rows(el).length === 3, 'three rows')
    await setFilter(el, 'type', '2')
    await search(el)
    await waitFor(() => rows(el).length === 2 && !rowWithToken(el, 'tok-c'), 'consumption rows only')
    await setFilter(el, 'model_name', 'gpt-4o')
    await search(el)
    await waitFor(() => rows(el).length === 1 && !!rowWithToken(el, 'tok-a'), 'the gpt-4o consumption row')
    await setFilter(el, 'type', '0')
    await setFilter(el, 'model_name', '')
    await setFilter(el, 'token_name', 'tok-b')
    await search(el)
    await waitFor(() => rows(el).length === 1 && !!rowWithToken(el, 'tok-b'), 'the tok-b row')
  })

  it('loads page by page with the page size stored locally', async () => {
    $prefs.setKey('log-page-size', 10)
    const me = await user()
    await insertLogs(
      me.username,
      Array.from({ length: 12 }, (_, i) => ({ token_name: `tok-page-${i}` })),
    )
    const el = await mountLogs()
    await waitFor(() => rows(el).length === 10, 'the first page')
    $<HTMLElement>(el, '[data-action="load-more"]')!.click()
    // the rows in view are drawn (the list is virtualised): count the rows listed
    const listed = () => Number($(el, '[data-row-count]')?.getAttribute('data-row-count'))
    await waitFor(() => listed() === 12, 'the second page appended')
    expect($(el, '[data-action="load-more"]')).to.equal(null)
    expect($(el, 'table[data-table="logs"]')!.getAttribute('aria-rowcount')).to.equal('13')
    expect(new Set(rows(el).map((r) => cellText(r, 'token'))).size).to.equal(rows(el).length)
    await setFilter(el, 'page-size', '20')
    expect(localStorage.getItem('tollgate:log-page-size')).to.equal('20')
    await waitFor(() => listed() === 12 && !$(el, '[data-action="load-more"]'), 'one page of 20')
  })

  it('copies a model name on click, and offers the manual-copy dialog when the clipboard refuses', async () => {
    const me = await user()
    await insertLogs(me.username, [{ token_name: 'tok-copy', model_name: 'gpt-4o-copy' }])
    const copied: string[] = []
    let restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountLogs()
      await waitFor(() => rowWithToken(el, 'tok-copy'))
      cell(rowWithToken(el, 'tok-copy')!, 'model').querySelector('button')!.click()
      await waitForToast(el, 'copied to clipboard')
      expect(copied).to.deep.equal(['gpt-4o-copy'])
      restore()
      restore = stubClipboard(async () => {
        throw new Error('denied')
      })
      cell(rowWithToken(el, 'tok-copy')!, 'model').querySelector('button')!.click()
      const dialog = await waitFor(() =>
        $$<HTMLElement & { open: boolean }>(el, 'sl-dialog').find(
          (d) => d.open && d.textContent!.includes('unable to copy to clipboard, please copy manually'),
        ),
      )
      expect(dialog.querySelector('textarea')!.value).to.equal('gpt-4o-copy')
    } finally {
      restore()
    }
  })

  it('shows the empty state when nothing falls in the range', async () => {
    await user()
    const el = await mountLogs()
    await waitForText(el, 'No logs in this range')
  })

  it('shows the error panel with Retry when the server refuses the list', async () => {
    const { username } = await user()
    // the stored user says administrator, the server says user: /api/log/ answers 403
    $session.set({ ...$session.get()!, role: 10 })
    const el = await mountLogs()
    await waitFor(() => $(el, 'sl-alert[variant="danger"]'), 'the error panel')
    expect(textOf(el)).to.include('Retry')
    await serverCommand('tg-h3-user', { username, set: { role: 10 } })
    await insertLogs(username, [{ token_name: 'tok-after-retry' }])
    $$<HTMLElement>(el, 'sl-alert sl-button')
      .find((b) => b.textContent!.includes('Retry'))!
      .click()
    await waitFor(() => rowWithToken(el, 'tok-after-retry'), 'the rows after Retry')
  })

  it('folds the filters behind a keyboard-usable "Filters" toggle on a 375 px screen, statistics and rows on the first screen', async () => {
    await setViewport({ width: 375, height: 812 })
    try {
      const me = await user()
      await insertLogs(me.username, [{ token_name: 'tok-small-1' }, { token_name: 'tok-small-2' }])
      const el = await mountLogs()
      await waitFor(() => rowWithToken(el, 'tok-small-2'))
      const form = $<HTMLFormElement>(el, 'form[part="filters"]')!
      const toggle = $<HTMLButtonElement>(el, '[data-action="toggle-filters"]')!
      expect(toggle.tagName).to.equal('BUTTON')
      expect(toggle.textContent).to.include('Filters')
      expect(toggle.getAttribute('aria-controls')).to.equal(form.id)
      expect(toggle.getAttribute('aria-expanded')).to.equal('false')
      expect(form.hidden).to.equal(true)
      expect(form.getBoundingClientRect().height).to.equal(0)
      // the statistics line and the first row are on the first screen
      await waitFor(() => $(el, '[data-stat-quota]'), 'the statistics')
      expect($(el, '[data-stat]')!.getBoundingClientRect().bottom).to.be.at.most(812)
      expect(rows(el)[0].getBoundingClientRect().bottom).to.be.at.most(812)
      // keyboard: focus the toggle and press Enter, then Space to fold again
      toggle.focus()
      await sendKeys({ press: 'Enter' })
      await waitFor(() => toggle.getAttribute('aria-expanded') === 'true', 'the filters unfolded')
      expect(form.hidden).to.equal(false)
      expect(form.getBoundingClientRect().height).to.be.greaterThan(100)
      await sendKeys({ press: 'Space' })
      await waitFor(() => toggle.getAttribute('aria-expanded') === 'false', 'the filters folded')
      expect(form.hidden).to.equal(true)
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })

  it('shows the filters without a toggle on a wide screen', async () => {
    const me = await user()
    await insertLogs(me.username, [{ token_name: 'tok-wide' }])
    const el = await mountLogs()
    expect($(el, '[data-action="toggle-filters"]')).to.equal(null)
    expect($<HTMLFormElement>(el, 'form[part="filters"]')!.hidden).to.equal(false)
  })

  it('speaks Simplified Chinese, follows dark mode and fits a 375 px screen', async () => {
    setLocale('zh')
    setTheme('dark')
    await setViewport({ width: 375, height: 800 })
    try {
      const me = await user()
      await insertLogs(me.username, [{ token_name: 'tok-zh', type: 2, use_time: 5, is_stream: 1 }])
      const el = await mountLogs()
      await waitFor(() => rowWithToken(el, 'tok-zh'))
      expect(cellText(rowWithToken(el, 'tok-zh')!, 'type')).to.equal('消费')
      expect(cellText(rowWithToken(el, 'tok-zh')!, 'duration')).to.match(/5 秒\s*流/)
      expect(textOf(el)).to.include('账户的每一笔充值')
      expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      // a phone shows each log as a card of labelled lines, as the other lists do, never a sideways table
      const wrap = $(el, '.tg-table-wrap')!
      expect(wrap.scrollWidth).to.be.at.most(wrap.clientWidth)
      const row = rowWithToken(el, 'tok-zh')!
      expect(getComputedStyle(row).display).to.equal('flex')
      expect(getComputedStyle(cell(row, 'type'), '::before').content).to.equal('"类型"')
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })
})
