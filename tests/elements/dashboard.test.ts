/**
 * <tollgate-dashboard> against the real server: hourly buckets (quota_data rows put in place by a
 * wtr command) grouped by hour, day and week, totals, roles, states, and the chart library that
 * only this element loads.
 */
import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/dashboard.ts'
import '../../elements/login.ts'
import '../../elements/console.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { setClock } from '../../src/stores/clock.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import {
  CONSOLE_HEADER,
  $,
  $$,
  cleanup,
  fill,
  goTo,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  setOptions,
  signInAs,
  sleep,
  stayOnPage,
  submit,
  textOf,
  waitFor,
  waitForText,
} from './helpers.ts'

/** Unix seconds of a local date and hour, on the server's hour boundary. */
function at(month: number, day: number, hour: number): number {
  const s = Math.floor(new Date(2025, month - 1, day, hour).getTime() / 1000)
  return s - (s % 3600)
}

const localDay = (month: number, day: number) => Math.floor(new Date(2025, month - 1, day).getTime() / 1000)

interface Row {
  username: string
  model_name: string
  created_at: number
  count: number
  quota: number
  token_used: number
}

function rowsFor(alice: string, bob: string): Row[] {
  return [
    // Sunday 8 June: the week that starts on Monday 2 June
    { username: alice, model_name: 'gpt-4o', created_at: at(6, 8, 10), count: 1, quota: 100, token_used: 10 },
    // Monday 9 June, two hours
    { username: alice, model_name: 'gpt-4o', created_at: at(6, 9, 10), count: 2, quota: 1000, token_used: 300 },
    { username: alice, model_name: 'gpt-4o', created_at: at(6, 9, 14), count: 1, quota: 500, token_used: 100 },
    // Tuesday 10 June, 10:00: two models, two users
    { username: alice, model_name: 'claude-3', created_at: at(6, 10, 10), count: 3, quota: 3000, token_used: 900 },
    { username: bob, model_name: 'gpt-4o', created_at: at(6, 10, 10), count: 5, quota: 2000, token_used: 50 },
    // Wednesday 11 June
    { username: alice, model_name: 'claude-3', created_at: at(6, 11, 11), count: 1, quota: 400, token_used: 40 },
  ]
}

/** The by-period table: period start → model → [count, tokens, quota]. */
function periods(el: HTMLElement): Record<string, Record<string, [number, number, number]>> {
  const out: Record<string, Record<string, [number, number, number]>> = {}
  for (const body of $$(el, 'table[data-table="periods"] tbody[data-period]')) {
    const cells: Record<string, [number, number, number]> = {}
    for (const row of body.querySelectorAll('tr[data-model]')) {
      cells[row.getAttribute('data-model')!] = [
        Number(row.querySelector('[data-count]')!.getAttribute('data-count')),
        Number(row.querySelector('[data-tokens]')!.getAttribute('data-tokens')),
        Number(row.querySelector('[data-quota]')!.getAttribute('data-quota')),
      ]
    }
    out[body.getAttribute('data-period')!] = cells
  }
  return out
}

function models(el: HTMLElement): Array<[string, number, number, number]> {
  return $$(el, 'table[data-table="models"] tbody tr[data-model]').map((row) => [
    row.getAttribute('data-model')!,
    Number(row.querySelector('[data-count]')!.getAttribute('data-count')),
    Number(row.querySelector('[data-tokens]')!.getAttribute('data-tokens')),
    Number(row.querySelector('[data-quota]')!.getAttribute('data-quota')),
  ])
}

const total = (el: HTMLElement, name: string) => $(el, `[data-total="${name}"] .tg-dash__stat-value`)!.textContent

async function choose(el: HTMLElement, granularity: string): Promise<void> {
  const button = await waitFor(() => $<HTMLElement>(el, `sl-radio-button[data-granularity="${granularity}"]`), `the ${granularity} button`)
  button.click()
  await waitFor(() => ($(el, 'sl-radio-group[data-granularity-group]') as HTMLInputElement).value === granularity, `${granularity} chosen`)
  await sleep(50)
}

/** Sets the period filter, queries and waits for the answer. */
async function queryRange(el: HTMLElement, start: number, end: number, username?: string): Promise<void> {
  await fill(el, 'start', toLocalInput(start))
  await fill(el, 'end', toLocalInput(end))
  if (username !== undefined) await fill(el, 'username', username)
  await submit(el)
  if (end >= start)
    await waitFor(
      () =>
        $(el, '[data-dashboard]')
          ?.getAttribute('data-answered')
          ?.startsWith(`${start}-${end}-${username ?? ''}-`),
      'the answer',
    )
}

async function dashboard(): Promise<HTMLElement> {
  const el = await mount('<tollgate-dashboard></tollgate-dashboard>')
  await waitFor(() => $(el, '[data-dashboard]'), 'the dashboard')
  return el
}

// the dev server serves hundreds of modules: keep every resource entry
performance.setResourceTimingBufferSize(100_000)
const loadedChartFiles = () =>
  performance
    .getEntriesByType('resource')
    .filter((e) => /uplot/i.test(e.name))
    .map((e) => e.name)

async function done(): Promise<void> {
  await serverCommand('tg-quota-data', { rows: [] })
  await cleanup()
  // $prefs is a map over every 'tollgate:' key, so it also holds copies of the stored user and
  // status, and cleanup() writes the whole map back: drop those copies, or the next test's
  // elements restore a stale status (a dashboard turned off) from storage
  const prefs = $prefs as unknown as { setKey(key: string, value: undefined): void }
  for (const key of ['status', 'user']) prefs.setKey(key, undefined)
}

describe('<tollgate-dashboard> chart library', () => {
  afterEach(done)

  it('is loaded by the dashboard only, when it draws a chart', async () => {
    // other elements of the library, the console included, never fetch it
    await signInAs('root', '123456')
    const nav = stayOnPage()
    const login = await mount('<tollgate-login></tollgate-login>')
    goTo('/pricing')
    const consoleEl = await mount('<tollgate-console></tollgate-console>')
    await sleep(500)
    expect(loadedChartFiles()).to.deep.equal([])
    login.remove()
    consoleEl.remove()
    nav.stop()

    setClock(() => new Date(2025, 5, 11, 12, 30))
    await serverCommand('tg-quota-data', { rows: rowsFor('root', 'root') })
    const el = await dashboard()
    await queryRange(el, localDay(6, 1), localDay(6, 12))
    // the chart of the range asked (an earlier range's chart may stand for a moment): the legend
    // names every model
    const chart = await waitFor(() => {
      const c = $(el, 'figure[data-chart="ready"]')
      const text = c?.textContent ?? ''
      return c?.querySelector('canvas') && text.includes('gpt-4o') && text.includes('claude-3') ? c : null
    }, 'the chart of both models')
    expect(loadedChartFiles().length).to.be.greaterThan(0)
    expect(chart.querySelector('[role="img"]')!.getAttribute('aria-label')).to.include('Stacked bar chart')
  })
})

describe('<tollgate-dashboard> grouping and totals', () => {
  afterEach(done)

  it('groups the hourly buckets by hour, day and week, and sums the totals', async () => {
    await signInAs('root', '123456')
    setClock(() => new Date(2025, 5, 11, 12, 30))
    const alice = await registerAndSignIn().then((u) => u.username)
    const bob = await registerAndSignIn().then((u) => u.username)
    await signInAs('root', '123456')
    await serverCommand('tg-quota-data', { rows: rowsFor(alice, bob) })
    const el = await dashboard()
    await choose(el, 'hour')
    await queryRange(el, localDay(6, 1), localDay(6, 12))
    await waitFor(() => $(el, 'table[data-table="periods"]'), 'the tables')

    expect(total(el, 'requests')).to.equal('13')
    expect(total(el, 'tokens')).to.equal('1400')
    expect($(el, '[data-total="quota"] .tg-dash__stat-value')!.getAttribute('title')).to.equal('7,000')
    expect(models(el)).to.deep.equal([
      ['gpt-4o', 9, 460, 3600],
      ['claude-3', 4, 940, 3400],
    ])

    expect(periods(el)).to.deep.equal({
      [at(6, 11, 11)]: { 'claude-3': [1, 40, 400] },
      [at(6, 10, 10)]: { 'gpt-4o': [5, 50, 2000], 'claude-3': [3, 900, 3000] },
      [at(6, 9, 14)]: { 'gpt-4o': [1, 100, 500] },
      [at(6, 9, 10)]: { 'gpt-4o': [2, 300, 1000] },
      [at(6, 8, 10)]: { 'gpt-4o': [1, 10, 100] },
    })

    await choose(el, 'day')
    expect(periods(el)).to.deep.equal({
      [localDay(6, 11)]: { 'claude-3': [1, 40, 400] },
      [localDay(6, 10)]: { 'gpt-4o': [5, 50, 2000], 'claude-3': [3, 900, 3000] },
      [localDay(6, 9)]: { 'gpt-4o': [3, 400, 1500] },
      [localDay(6, 8)]: { 'gpt-4o': [1, 10, 100] },
    })

    await choose(el, 'week')
    expect(periods(el)).to.deep.equal({
      [localDay(6, 9)]: { 'gpt-4o': [8, 450, 3500], 'claude-3': [4, 940, 3400] },
      [localDay(6, 2)]: { 'gpt-4o': [1, 10, 100] },
    })
    expect(textOf(el)).to.include('week of')
    // switching the granularity regroups; the totals stay
    expect(total(el, 'requests')).to.equal('13')
  })

  it('lets administrators see one user; users see only their own usage, without the username filter', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    const alice = await registerAndSignIn()
    const bob = await registerAndSignIn()
    await serverCommand('tg-quota-data', { rows: rowsFor(alice.username, bob.username) })

    await signInAs('root', '123456')
    const admin = await dashboard()
    await queryRange(admin, localDay(6, 1), localDay(6, 12), bob.username)
    await waitFor(() => total(admin, 'requests') === '5', "bob's requests")
    expect(models(admin)).to.deep.equal([['gpt-4o', 5, 50, 2000]])
    admin.remove()
    await fetch('/api/user/logout', CONSOLE_HEADER)

    await signInAs(bob.username, 'password123')
    const user = await dashboard()
    await waitFor(() => $$(user, 'sl-input').length, 'the filters')
    expect($$<HTMLInputElement>(user, 'sl-input').map((i) => i.name)).to.deep.equal(['start', 'end'])
    await queryRange(user, localDay(6, 1), localDay(6, 12))
    await waitFor(() => total(user, 'requests') === '5', 'own requests')
    expect(models(user)).to.deep.equal([['gpt-4o', 5, 50, 2000]])
    // the server refuses the admin call to a user
    expect((await fetch(`/api/data/?start_timestamp=${localDay(6, 1)}&end_timestamp=${localDay(6, 12)}`)).status).to.equal(403)
  })
})

describe('<tollgate-dashboard> defaults and states', () => {
  afterEach(done)

  it('opens with the hour granularity and the last day by default', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await loadStatus()
    await registerAndSignIn()
    const el = await dashboard()
    const group = await waitFor(() => $<HTMLInputElement>(el, 'sl-radio-group[data-granularity-group]'))
    expect(group.value).to.equal('hour')
    const end = at(6, 11, 13)
    expect($$<HTMLInputElement>(el, 'sl-input').map((i) => i.value)).to.deep.equal([toLocalInput(end - 25 * 3600), toLocalInput(end)])
    await waitForText(el, 'No usage in this period')
  })

  it('says how often the figures are written: every DataExportInterval minutes', async () => {
    await setOptions({ DataExportInterval: '3' })
    try {
      await loadStatus()
      await registerAndSignIn()
      const el = await dashboard()
      await waitForText(el, 'Figures are written every 3 min.')
    } finally {
      await setOptions({ DataExportInterval: '5' })
    }
  })

  it('takes its default granularity and range from DataExportDefaultTime', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await setOptions({ DataExportDefaultTime: 'week' })
    await loadStatus()
    await registerAndSignIn()
    const el = await dashboard()
    await waitFor(() => ($(el, 'sl-radio-group[data-granularity-group]') as HTMLInputElement).value === 'week', 'week')
    const end = at(6, 11, 13)
    expect($$<HTMLInputElement>(el, 'sl-input').map((i) => i.value)).to.deep.equal([toLocalInput(end - 30 * 86400), toLocalInput(end)])
    el.remove()

    await setOptions({ DataExportDefaultTime: 'day' })
    await loadStatus()
    const day = await dashboard()
    await waitFor(() => ($(day, 'sl-radio-group[data-granularity-group]') as HTMLInputElement).value === 'day', 'day')
    expect($$<HTMLInputElement>(day, 'sl-input')[0]!.value).to.equal(toLocalInput(end - 7 * 86400 - 3600))
  })

  it('says so when the dashboard is turned off, or nobody is signed in', async () => {
    await setOptions({ DataExportEnabled: false })
    await loadStatus()
    await registerAndSignIn()
    const off = await dashboard()
    await waitForText(off, 'The data dashboard is turned off')
    expect($(off, 'table')).to.equal(null)
    off.remove()
    await cleanup()

    const nav = stayOnPage()
    const signedOut = await dashboard()
    await waitForText(signedOut, 'Sign in to see your usage')
    ;($(signedOut, 'a[href="/login"]') as HTMLElement).click()
    expect(nav.targets).to.deep.equal(['/login'])
    nav.stop()
  })

  it('refuses an end before the start, and shows a refused query as an error with Retry', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await registerAndSignIn()
    const el = await dashboard()
    await waitForText(el, 'No usage in this period').catch(() => {
      throw new Error(`no empty state: ${textOf(el)}`)
    })
    await queryRange(el, localDay(6, 10), localDay(6, 9))
    await waitForText(el, 'the end must not be before the start')
    // a user may ask at most 30 days of their own data: the server refuses more
    await queryRange(el, localDay(4, 1), localDay(6, 10))
    await waitForText(el, 'the time span is too long')
    expect($(el, 'sl-alert sl-button')!.textContent).to.equal('Retry')
  })

  it('shows the figures inside <tollgate-console> at /detail', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await signInAs('root', '123456')
    await serverCommand('tg-quota-data', {
      rows: [{ username: 'root', model_name: 'gpt-4o', created_at: at(6, 11, 11), count: 4, quota: 800, token_used: 80 }],
    })
    goTo('/detail')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => total(el, 'requests') === '4', 'the totals in the console')
  })
})

describe('<tollgate-dashboard> small screens, dark mode, Chinese', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 })
    await done()
  })

  it('fits a 375 px screen', async () => {
    await setViewport({ width: 375, height: 800 })
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await signInAs('root', '123456')
    await serverCommand('tg-quota-data', { rows: rowsFor('root', 'root') })
    const el = await dashboard()
    await queryRange(el, localDay(6, 1), localDay(6, 12))
    await waitFor(() => $(el, 'figure[data-chart="ready"] canvas'), 'the chart')
    await sleep(200)
    expect(document.documentElement.scrollWidth).to.be.at.most(375)
    const canvas = $(el, 'figure canvas')!
    expect(canvas.getBoundingClientRect().right).to.be.at.most(375)
  })

  it('follows dark mode and speaks Simplified Chinese', async () => {
    $prefs.setKey('theme', 'dark')
    $prefs.setKey('locale', 'zh')
    setClock(() => new Date(2025, 5, 11, 12, 30))
    await signInAs('root', '123456')
    await serverCommand('tg-quota-data', { rows: rowsFor('root', 'root') })
    const el = await dashboard()
    await queryRange(el, localDay(6, 1), localDay(6, 12))
    await waitForText(el, '消耗额度')
    expect(textOf(el)).to.include('按模型')
    expect(textOf(el)).to.include('请求次数')
    const bg = getComputedStyle($(el, '.tg-dash__stat')!).backgroundColor.match(/\d+/g)!.map(Number)
    expect(bg[0]! + bg[1]! + bg[2]!).to.be.below(200)
  })
})
