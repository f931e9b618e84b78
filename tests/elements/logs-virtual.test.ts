/**
 * <tollgate-logs> with ten thousand rows loaded (seeded in the real server, loaded page by page
 * with "load more"): only the rows in view are drawn, and scrolling from the top to the bottom
 * and back makes no long task (Chromium's performance timeline).
 */
import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/logs.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { $, serverCommand, sleep, waitFor, cleanupAndResize } from './helpers.ts'
import { mountLogs, nowSeconds, rows, user } from './logs-helpers.ts'

const COUNT = 10_000

/** Collects long tasks (over 50 ms, Chromium's definition) until stopped. */
function watchLongTasks(): () => PerformanceEntry[] {
  const seen: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()))
  observer.observe({ type: 'longtask', buffered: false })
  return () => {
    seen.push(...observer.takeRecords())
    observer.disconnect()
    return seen
  }
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))
const shown = (el: HTMLElement) => Number($(el, '[data-row-count]')?.getAttribute('data-row-count') ?? 0)

async function loadAll(el: HTMLElement): Promise<void> {
  while (shown(el) < COUNT - 100) {
    const before = shown(el)
    const more = await waitFor(() => $<HTMLElement & { loading: boolean }>(el, '[data-action="load-more"]'), 'load more')
    await waitFor(() => !more.loading, 'load more ready')
    more.click()
    await waitFor(() => shown(el) > before, `page after ${before}`)
  }
}

describe('<tollgate-logs> with 10,000 rows', () => {
  afterEach(cleanupAndResize)

  it('draws only the rows in view and scrolls without a long task', async function () {
    ;(this as { timeout(ms: number): void }).timeout(170_000)
    await setViewport({ width: 1280, height: 800 })
    $prefs.setKey('log-page-size', 100)
    const me = await user()
    await serverCommand('tg-h3-logs-many', { owner: me.username, count: COUNT, until: nowSeconds() - 60 })
    const el = await mountLogs()
    await loadAll(el)

    $<HTMLElement>(el, '[data-action="load-more"]')!.click()
    await waitFor(() => shown(el) === COUNT, 'all rows')
    expect(rows(el).length).to.be.below(80, 'only the rows in view are drawn')

    const scroller = $<HTMLElement>(el, '.tg-log__scroller')!
    // a wheel, 120 px a frame: down through the first 700 rows, then (after the scrollbar is
    // dragged to the end, a jump that redraws the whole window once) up through the last ones.
    // The machine running the tests may be shared: up to three passes, one must be free of long tasks.
    const passes: number[][] = []
    for (let pass = 0; pass < 3; pass++) {
      scroller.scrollTop = 0
      await sleep(300)
      let stop = watchLongTasks()
      for (let i = 0; i < 300; i++) {
        scroller.scrollTop += 120
        await frame()
      }
      await sleep(100)
      const down = stop()
      scroller.scrollTop = scroller.scrollHeight
      await sleep(300)
      stop = watchLongTasks()
      for (let i = 0; i < 200; i++) {
        scroller.scrollTop -= 120
        await frame()
      }
      await sleep(100)
      passes.push([...down, ...stop()].map((e) => Math.round(e.duration)))
      if (passes.at(-1)!.length === 0) break
    }
    console.log(`long tasks (ms) per scrolling pass: ${JSON.stringify(passes)}`)
    expect(passes.at(-1), 'long tasks while scrolling (each pass)').to.deep.equal([])
    expect(rows(el).length).to.be.below(80)

    // the bottom holds the oldest row, the end key gets there from the keyboard
    scroller.focus()
    await sendKeys({ press: 'End' })
    await waitFor(() => rows(el).some((r) => r.getAttribute('aria-rowindex') === String(COUNT + 1)), 'the last row drawn')
    const last = rows(el).find((r) => r.getAttribute('aria-rowindex') === String(COUNT + 1))!
    expect(last.querySelector('[data-col="details"]')!.textContent).to.include('row 0:')
    expect($(el, 'table[data-table="logs"]')!.getAttribute('aria-rowcount')).to.equal(String(COUNT + 1))
  })
})
