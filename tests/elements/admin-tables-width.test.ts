/**
 * Issue 13, item 8: the administrator tables at 1280 px, inside the console with its sidebar, keep
 * every header, row action, code and date on one line; and item 11: one header case everywhere.
 */
import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $, $$, api, cleanup, goTo, mount, setOptions, signInAs, uniqueName, waitFor } from './helpers.ts'
import { consoleAt } from './console-helpers.ts'
import { insertLogs } from './logs-helpers.ts'

/** How many lines a box's text takes: the distinct tops of its text's line boxes. */
function lines(el: Element): number {
  const range = document.createRange()
  range.selectNodeContents(el)
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)))
  return tops.size
}

/** The row actions sit on one line: every control's top within a few pixels of the first's. */
function oneRow(actions: Element): boolean {
  const tops = [...actions.children].map((c) => c.getBoundingClientRect().top)
  return tops.every((t) => Math.abs(t - tops[0]!) < 4)
}

describe('administrator tables at 1280 px', () => {
  before(() => setViewport({ width: 1280, height: 800 }))
  afterEach(cleanup)

  for (const [path, table] of [
    ['/user', 'users'],
    ['/redemption', 'redemptions'],
    ['/channel', 'channels'],
  ] as const) {
    it(`keeps the ${table} table's headers, actions, codes and dates on one line`, async () => {
      await signInAs('root', '123456')
      await setOptions({ DisplayInCurrencyEnabled: true })
      if (table === 'redemptions') await api('POST', '/api/redemption/', { name: uniqueName('w'), quota: 100000, count: 1 })
      if (table === 'channels')
        await api('POST', '/api/channel/', { name: uniqueName('w'), type: 1, key: 'sk-w', models: 'gpt-4o', group: 'default' })
      const el = await consoleAt(path)
      const rows = await waitFor(() => {
        const r = $$(el, '.tg-admin__table tbody tr')
        return r.length > 0 && r
      }, 'the rows')
      for (const th of $$(el, '.tg-admin__table thead th:not(.tg-admin__check)')) {
        if (th.textContent?.trim()) expect(lines(th), `header "${th.textContent}"`).to.equal(1)
      }
      for (const row of rows) {
        const actions = row.querySelector('.tg-admin__actions')
        if (actions) expect(oneRow(actions), `actions of ${row.textContent?.slice(0, 40)}`).to.equal(true)
        for (const code of row.querySelectorAll('[data-cell="key"]')) expect(lines(code), 'a code').to.equal(1)
        for (const date of row.querySelectorAll('[data-cell="created"]')) expect(lines(date), 'a date').to.equal(1)
      }
      const wrap = $(el, '.tg-admin__table-wrap')!
      expect(wrap.scrollWidth, 'no sideways scrolling').to.be.at.most(wrap.clientWidth + 1)
    })
  }

  it('writes dates one way in both languages, as the logs do without the seconds', async () => {
    await signInAs('root', '123456')
    await api('POST', '/api/redemption/', { name: uniqueName('d'), quota: 100000, count: 1 })
    for (const lang of ['en', 'zh-CN']) {
      goTo('/redemption')
      const el = await mount(`<tollgate-console lang="${lang}"></tollgate-console>`)
      const date = await waitFor(() => $(el, '.tg-admin__table [data-cell="created"]'), 'a date')
      expect(date.textContent!.trim(), lang).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
      await cleanup()
      await signInAs('root', '123456')
    }
  })

  it('writes table headers as the dictionaries do, never upper-cased', async () => {
    await signInAs('root', '123456')
    await api('POST', '/api/token/', { name: uniqueName('h') })
    await insertLogs('root', [{ token_name: 'tok-header' }])
    for (const path of ['/user', '/token', '/log']) {
      const el = await consoleAt(path)
      const th = await waitFor(() => $(el, 'table thead th'), `a header on ${path}`)
      expect(getComputedStyle(th).textTransform, path).to.equal('none')
      await cleanup()
      await signInAs('root', '123456')
    }
  })
})
