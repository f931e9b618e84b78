import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { $, $$, cleanup, goTo, loadStatus, setOptions, waitFor, expectPrefetchTakenOver } from './helpers.ts'
import { prefetch } from '../../src/screens/tasks/tasks-screen.tsx'
import { insertTasks, user, admin, rows, cellText, rowWithId, mountTasks, setFilter, search } from './tasks-helpers.ts'

describe('<tollgate-tasks> for an administrator', () => {
  afterEach(cleanup)

  it("asks for the first page as soon as the console's task screen code arrives, and the screen takes that answer over", async () => {
    const other = await user()
    await insertTasks(other.username, 'suno', [{ task_id: 'suno-primed' }])
    await admin()
    goTo('/suno')
    await expectPrefetchTakenOver(['/api/suno/?'], prefetch, async () => {
      const el = await mountTasks('suno')
      await waitFor(() => rowWithId(el, 'suno-primed'), 'the primed row')
    })
  })

  it("reads everyone's tasks with the channel column and filter, and the Midjourney submit results", async () => {
    const other = await user()
    await insertTasks(other.username, 'midjourney', [
      { task_id: 'mj-c1', channel_id: 9101, code: 1 },
      { task_id: 'mj-c21', channel_id: 9101, code: 21 },
      { task_id: 'mj-c22', channel_id: 9101, code: 22 },
      { task_id: 'mj-c0', channel_id: 9101, code: 0 },
      { task_id: 'mj-other-channel', channel_id: 9102, code: 1 },
    ])
    await admin()
    const el = await mountTasks('midjourney')
    expect($(el, '[data-screen="tasks"]')!.dataset.mode).to.equal('admin')
    await setFilter(el, 'channel_id', '9101')
    await search(el)
    await waitFor(() => rows(el).length === 4 && !rowWithId(el, 'mj-other-channel'), 'the four tasks of channel 9101')
    expect(cellText(rowWithId(el, 'mj-c1')!, 'channel')).to.equal('#9101')
    expect(cellText(rowWithId(el, 'mj-c1')!, 'status')).to.equal('success', 'the task status column, an administrator extra')
    const code = (id: string) => cellText(rowWithId(el, id)!, 'submit-result')
    expect(['mj-c1', 'mj-c21', 'mj-c22', 'mj-c0'].map(code)).to.deep.equal([
      'submitted',
      'waiting',
      'duplicate submission',
      'not submitted',
    ])
  })

  it('keeps the submit result to the Midjourney list', async () => {
    const other = await user()
    await insertTasks(other.username, 'suno', [{ task_id: 'suno-admin', channel_id: 9201 }])
    await admin()
    const el = await mountTasks('suno')
    await setFilter(el, 'channel_id', '9201')
    await search(el)
    await waitFor(() => rowWithId(el, 'suno-admin'))
    expect($$(el, '[data-col="submit-result"]')).to.have.length(0)
    expect(cellText(rowWithId(el, 'suno-admin')!, 'channel')).to.equal('#9201')
  })

  it('tells administrators to set the Midjourney callback while it is off', async () => {
    await setOptions({ MjNotifyEnabled: false })
    await loadStatus()
    await admin()
    let el = await mountTasks('midjourney')
    await waitFor(() => $(el, '[data-notice="mj-callback"]'), 'the notice')
    expect($(el, '[data-notice="mj-callback"]')!.textContent).to.include('Midjourney callback is off')
    el.remove()
    el = await mountTasks('suno')
    expect($(el, '[data-notice="mj-callback"]')).to.equal(null)
    el.remove()
    await setOptions({ MjNotifyEnabled: true })
    await loadStatus()
    el = await mountTasks('midjourney')
    expect($(el, '[data-notice="mj-callback"]')).to.equal(null)
  })
})
