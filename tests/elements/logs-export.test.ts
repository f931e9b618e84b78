import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { $, cleanup, waitFor, waitForText } from './helpers.ts'
import { insertLogs, user, rows, cellText, rowWithToken, mountLogs, setFilter, search } from './logs-helpers.ts'
import { catchDownload, exportFile } from './export-helpers.ts'

describe('<tollgate-logs> CSV export', () => {
  afterEach(cleanup)

  it('downloads the filter applied, only the user own rows, with the bytes received shown while it streams', async () => {
    const other = await user()
    await insertLogs(other.username, [{ token_name: 'tok-exp-a', content: 'not mine' }])
    const me = await user()
    await insertLogs(me.username, [
      { token_name: 'tok-exp-a', content: 'mine a' },
      { token_name: 'tok-exp-b', content: 'mine b' },
    ])
    const el = await mountLogs()
    await setFilter(el, 'token_name', 'tok-exp-a')
    await search(el)
    await waitFor(() => rows(el).length === 1 && rowWithToken(el, 'tok-exp-a'), 'the filtered list')
    expect(cellText(rows(el)[0]!, 'token')).to.equal('tok-exp-a')

    const { name, text, lines } = await exportFile(el, 'export-logs')
    expect(name).to.match(/^logs-self-\d{8}-\d{8}-tok-exp-a\.csv$/)
    expect(lines[0]).to.equal('Time,Type,Token,Model,Prompt tokens,Completion tokens,Quota (USD),Time used (s),Stream,Details')
    expect(lines).to.have.length(2)
    expect(lines[1])
      .to.include(',tok-exp-a,')
      .and.to.match(/,mine a$/)
    expect(text).to.not.include('not mine')
    expect(text).to.not.include('tok-exp-b')
  })

  it('ends the session when the server no longer knows it, as any call does, and saves nothing', async () => {
    const me = await user()
    await insertLogs(me.username, [{ token_name: 'tok-exp-gone' }])
    const el = await mountLogs()
    await waitFor(() => rowWithToken(el, 'tok-exp-gone'), 'my row')
    // signed out elsewhere: the server forgets the session, the page still shows it
    await fetch('/api/user/logout', { headers: { 'x-tollgate-client': '1' } })
    const link = catchDownload()
    const expired: unknown[] = []
    const onExpired = (e: Event) => expired.push((e as CustomEvent).detail)
    // the page keeps its place (the redirect to /login is the page's to follow)
    const stay = (e: Event) => e.preventDefault()
    el.addEventListener('tollgate-session-expired', onExpired)
    el.addEventListener('tollgate-navigate', stay)
    try {
      $<HTMLElement>(el, '[data-action="export-logs"]')!.click()
      await waitForText(el, 'Sign in to read your usage logs')
    } finally {
      link.stop()
      el.removeEventListener('tollgate-session-expired', onExpired)
      el.removeEventListener('tollgate-navigate', stay)
    }
    expect(expired).to.deep.equal([{ redirect: '/login?expired=true' }])
    expect(link.get()).to.equal(null)
  })
})
