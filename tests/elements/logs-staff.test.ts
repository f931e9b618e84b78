import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import {
  $,
  cleanup,
  inputNamed,
  loadStatus,
  mount,
  serverCommand,
  setOptions,
  sleep,
  toastTexts,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import {
  HOUR,
  nowSeconds,
  insertLogs,
  user,
  admin,
  rows,
  cell,
  cellText,
  rowWithToken,
  mountLogs,
  setFilter,
  search,
} from './logs-helpers.ts'

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

  it('shows a retry chain of one channel too', async () => {
    const other = await user()
    await insertLogs(other.username, [
      { token_name: 'tok-one-hop', channel: 4, other: JSON.stringify({ model_ratio: 1, admin_info: { use_channel: [4] } }) },
    ])
    await admin()
    const el = await mountLogs()
    await setFilter(el, 'username', other.username)
    await search(el)
    const row = await waitFor(() => rowWithToken(el, 'tok-one-hop'), 'the row')
    expect(row.querySelector('[data-retry-chain]')?.getAttribute('data-retry-chain')).to.equal('4')
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
    // the one-line summary takes the whole details cell, never a narrow column beside blank space
    const detailsCell = details.parentElement!.getBoundingClientRect()
    expect(details.getBoundingClientRect().width, 'details width').to.be.at.least(detailsCell.width - 16)
    expect(detailsCell.width, 'details cell width').to.be.at.least(120)
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

  it("shows an administrator what the log row has of another administrator's account, without an error", async () => {
    const other = await user()
    await serverCommand('tg-h3-user', { username: other.username, set: { role: 10 } })
    await insertLogs(other.username, [{ token_name: 'tok-peer' }])
    await admin()
    const el = await mountLogs()
    await setFilter(el, 'username', other.username)
    await search(el)
    const row = await waitFor(() => rowWithToken(el, 'tok-peer'))
    cell(row, 'user').querySelector('button')!.click()
    const facts = await waitFor(
      () => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="user-info"]')?.open && $(el, '[data-user-info][data-limited]'),
      'what the row has',
    )
    expect(facts.textContent).to.include(other.username)
    expect(facts.textContent).to.include('Only the super administrator sees the account details of an administrator.')
    expect($(el, 'sl-dialog[data-dialog="user-info"] sl-alert[variant="danger"]')).to.equal(null)
    expect(toastTexts(el)).to.deep.equal([])
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
    const byAdmin = await mountLogs()
    await waitFor(() => $(byAdmin, '[data-screen="logs"]'), 'the logs screen')
    expect($(byAdmin, '[data-action="clean-logs"]'), 'an admin cannot clean the log (issue 10 item 5)').to.equal(null)
    byAdmin.remove()
    await admin(100)
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
    const name = await admin(100)
    const el = await mountLogs()
    $<HTMLElement>(el, '[data-action="clean-logs"]')!.click()
    const dialog = await waitFor(() => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="clean-logs"]'))
    // demoted meanwhile: DELETE /api/log/ answers 403
    await serverCommand('tg-h3-user', { username: name, set: { role: 1 } })
    ;[...dialog.querySelectorAll<HTMLElement & { type: string }>('sl-button')].find((b) => b.type === 'submit')!.click()
    await waitForToast(el, 'log cleaning failed')
  })
})
