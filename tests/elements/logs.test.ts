import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
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
  registerAndSignIn,
  serverCommand,
  setOptions,
  signInAs,
  sleep,
  textOf,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

const HOUR = 3600
const nowSeconds = () => Math.floor(Date.now() / 1000)

interface LogRow {
  created_at?: number
  type?: number
  token_name?: string
  model_name?: string
  quota?: number
  prompt_tokens?: number
  completion_tokens?: number
  use_time?: number
  is_stream?: number
  channel?: number
  other?: string
  content?: string
}

/** Writes log rows for `owner` straight into the real server's database. */
function insertLogs(owner: string, rows: LogRow[]): Promise<number> {
  const now = nowSeconds()
  return serverCommand<number>('tg-h3-logs', { rows: rows.map((r) => ({ owner, created_at: now - 60, type: 2, ...r })) })
}

async function user(password = 'password123'): Promise<{ username: string; password: string }> {
  const username = uniqueName('lg')
  await registerAndSignIn(username, password)
  return { username, password }
}

/** A signed-in administrator (role 10), fresh from the server. */
async function admin(): Promise<string> {
  const { username, password } = await user()
  await serverCommand('tg-h3-user', { username, set: { role: 10 } })
  await signInAs(username, password)
  return username
}

const rows = (el: Element) => $$(el, '[data-log-row]')
const cell = (row: Element, col: string) => row.querySelector<HTMLElement>(`[data-col="${col}"]`)!
const cellText = (row: Element, col: string) => (cell(row, col).textContent ?? '').trim()
const rowWithToken = (el: Element, token: string) => rows(el).find((r) => cellText(r, 'token') === token)

async function mountLogs(): Promise<HTMLElement> {
  const el = await mount('<tollgate-logs></tollgate-logs>')
  await waitFor(() => $(el, '[data-log-row]') || $(el, '[part="empty-state"]') || $(el, 'sl-alert[variant="danger"]'), 'the log list')
  return el
}

/** Sets the filter field `name` (an sl-input, or a native select) as a user would. */
async function setFilter(el: Element, name: string, value: string): Promise<void> {
  const input = inputNamed(el, name)
  if (input) {
    input.value = value
    input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  } else {
    const select = $<HTMLSelectElement>(el, `select[name="${name}"]`)!
    select.value = value
    select.dispatchEvent(new Event('change', { bubbles: true }))
  }
  await sleep(50)
}

async function search(el: Element): Promise<void> {
  const button = $$<HTMLElement & { type: string }>(el, 'form[part="filters"] sl-button').find((b) => b.type === 'submit')!
  button.click()
  await sleep(50)
}

/** Replaces the clipboard API for one test. */
function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } })
  return () => {
    delete (navigator as unknown as Record<string, unknown>).clipboard
    if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original)
  }
}

describe('<tollgate-logs> for a user', () => {
  afterEach(cleanup)

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
    await waitFor(() => rows(el).length === 12, 'the second page appended')
    expect($(el, '[data-action="load-more"]')).to.equal(null)
    expect(new Set(rows(el).map((r) => cellText(r, 'token'))).size).to.equal(12)
    await setFilter(el, 'page-size', '20')
    expect(localStorage.getItem('tollgate:log-page-size')).to.equal('20')
    await waitFor(() => rows(el).length === 12 && !$(el, '[data-action="load-more"]'), 'one page of 20')
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
      const wrap = $(el, '.tg-table-wrap')!
      expect(wrap.scrollWidth).to.be.greaterThan(wrap.clientWidth)
      expect(getComputedStyle(wrap).overflowX).to.equal('auto')
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })
})

describe('<tollgate-logs> for an administrator', () => {
  afterEach(cleanup)

  it("reads everyone's logs through /api/log/ with channel and user columns and the retry chain", async () => {
    const other = await user()
    await insertLogs(other.username, [
      { token_name: 'tok-admin-view', channel: 7, other: JSON.stringify({ model_ratio: 1, admin_info: { use_channel: [3, 5, 7] } }) },
    ])
    await admin()
    const el = await mountLogs()
    expect($(el, '[data-screen="logs"]')!.dataset.mode).to.equal('admin')
    await setFilter(el, 'username', other.username)
    await search(el)
    const row = await waitFor(() => rowWithToken(el, 'tok-admin-view'), "the other user's row")
    expect(cellText(row, 'user')).to.equal(other.username)
    expect(cellText(row, 'channel')).to.include('#7')
    expect(row.querySelector('[data-retry-chain]')!.getAttribute('data-retry-chain')).to.equal('3,5,7')
    expect(cellText(row, 'channel')).to.include('3 → 5 → 7')
  })

  it('fits a 968 px panel (1280 px window, sidebar open) without sideways scrolling, rows one or two lines high', async () => {
    const me = await admin()
    const long = 'model ratio 2.5, completion ratio 4, group ratio 1.5 and a long note about the request that goes on'
    await insertLogs(me, [
      {
        token_name: 'Production app with a long name',
        model_name: 'claude-3-5-sonnet-20241022-extended',
        type: 2,
        use_time: 12,
        prompt_tokens: 12345,
        completion_tokens: 6543,
        quota: 123456,
        channel: 12,
        content: long,
        other: JSON.stringify({ model_ratio: 2.5, completion_ratio: 4, group_ratio: 1.5, admin_info: { use_channel: [3, 12] } }),
      },
      {
        token_name: 'tok-fit',
        model_name: 'gpt-4o-mini',
        type: 2,
        use_time: 1,
        prompt_tokens: 12,
        completion_tokens: 3,
        quota: 20,
        channel: 1,
        other: JSON.stringify({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1 }),
      },
    ])
    const el = await mount('<tollgate-logs style="display:block;width:968px"></tollgate-logs>')
    await waitFor(() => rowWithToken(el, 'tok-fit'), 'the rows')
    const wrap = $(el, '.tg-table-wrap')!
    expect(wrap.scrollWidth, 'table width inside the panel').to.be.at.most(wrap.clientWidth)
    const heights = rows(el)
      .filter((r) => cellText(r, 'token').startsWith('Production') || cellText(r, 'token') === 'tok-fit')
      .map((r) => r.getBoundingClientRect().height)
    expect(heights).to.have.length(2)
    expect(Math.max(...heights), 'row height').to.be.below(76)
    // every datum is still there: both token counts, and the full details text behind the one-line summary
    const row = rows(el).find((r) => cellText(r, 'prompt') === '12345')!
    expect(cellText(row, 'completion')).to.equal('6543')
    expect(cellText(row, 'time')).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(getComputedStyle(cell(row, 'time')).whiteSpace).to.equal('nowrap')
    const details = cell(row, 'details') as HTMLButtonElement
    expect(details.tagName).to.equal('BUTTON')
    expect(details.textContent).to.include('and a long note about the request that goes on')
    expect(details.title).to.include('and a long note about the request that goes on')
    expect(details.getAttribute('aria-expanded')).to.equal('false')
    const before = row.getBoundingClientRect().height
    details.click()
    await waitFor(() => details.getAttribute('aria-expanded') === 'true', 'the details unfolded')
    expect(row.getBoundingClientRect().height).to.be.greaterThan(before)
  })

  it('filters by username and channel', async () => {
    const a = await user()
    const b = await user()
    await insertLogs(a.username, [
      { token_name: 'tok-ch1', channel: 801 },
      { token_name: 'tok-ch2', channel: 802 },
    ])
    await insertLogs(b.username, [{ token_name: 'tok-b-ch1', channel: 801 }])
    await admin()
    const el = await mountLogs()
    await setFilter(el, 'channel', '801')
    await search(el)
    await waitFor(() => rowWithToken(el, 'tok-ch1') && rowWithToken(el, 'tok-b-ch1'), 'both users on channel 801')
    expect(rowWithToken(el, 'tok-ch2')).to.equal(undefined)
    await setFilter(el, 'username', a.username)
    await search(el)
    await waitFor(() => rows(el).length === 1 && !!rowWithToken(el, 'tok-ch1'), "a's row on channel 801")
  })

  it('opens the user-info dialog from the username, with the keyboard too (GET /api/user/:id)', async () => {
    await setOptions({ DisplayInCurrencyEnabled: false })
    await loadStatus()
    const other = await user()
    await serverCommand('tg-h3-user', { username: other.username, set: { quota: 123456, used_quota: 7890, request_count: 17 } })
    await insertLogs(other.username, [{ token_name: 'tok-info' }])
    await admin()
    const el = await mountLogs()
    await setFilter(el, 'username', other.username)
    await search(el)
    const row = await waitFor(() => rowWithToken(el, 'tok-info'))
    const button = cell(row, 'user').querySelector('button')!
    button.focus()
    await sendKeys({ press: 'Enter' })
    const dialog = await waitFor(
      () => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="user-info"]')?.open && $(el, '[data-user-info]'),
      'the user info',
    )
    expect(dialog.textContent).to.include(other.username)
    expect(dialog.querySelector('[data-fact="quota"]')!.textContent).to.equal('123.5k')
    expect(dialog.querySelector('[data-fact="used"]')!.textContent).to.equal('7890')
    expect(dialog.querySelector('[data-fact="requests"]')!.textContent).to.equal('17')
  })

  it('cleans logs before a date defaulting to one month back, and says how many went', async () => {
    const now = nowSeconds()
    const month = 30 * 24 * HOUR
    await serverCommand('tg-h3-logs-before', { before: now - month + 3600 })
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-old-1', created_at: now - month - 5 * 24 * HOUR },
      { token_name: 'tok-old-2', created_at: now - month - 3600 * 2 },
      { token_name: 'tok-recent', created_at: now - month + 2 * 24 * HOUR },
    ])
    await admin()
    const el = await mountLogs()
    $<HTMLElement>(el, '[data-action="clean-logs"]')!.click()
    const dialog = await waitFor(() => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="clean-logs"]'))
    const input = inputNamed(el, 'target')!
    expect([toLocalInput(now - month), toLocalInput(now - month + 60)]).to.include(input.value)
    input.value = ''
    input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
    await sleep(50)
    ;[...dialog.querySelectorAll<HTMLElement & { type: string }>('sl-button')].find((b) => b.type === 'submit')!.click()
    await waitForText(el, 'please choose a log time')
    input.value = toLocalInput(now - month)
    input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
    await sleep(50)
    ;[...dialog.querySelectorAll<HTMLElement & { type: string }>('sl-button')].find((b) => b.type === 'submit')!.click()
    await waitForToast(el, '2 logs cleaned')
    const left = await fetch(`/api/log/?username=${me.username}&p=0&page_size=100`).then((r) => r.json())
    expect(left.data.map((r: { token_name: string }) => r.token_name)).to.deep.equal(['tok-recent'])
  })

  it("says 'log cleaning failed' when the server refuses the cleaning", async () => {
    const name = await admin()
    const el = await mountLogs()
    $<HTMLElement>(el, '[data-action="clean-logs"]')!.click()
    const dialog = await waitFor(() => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="clean-logs"]'))
    // demoted meanwhile: DELETE /api/log/ answers 403
    await serverCommand('tg-h3-user', { username: name, set: { role: 1 } })
    ;[...dialog.querySelectorAll<HTMLElement & { type: string }>('sl-button')].find((b) => b.type === 'submit')!.click()
    await waitForToast(el, 'log cleaning failed')
  })
})
