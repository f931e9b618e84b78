/**
 * The task lists' CSV export in the element: the filter applied, only the user's own tasks (an
 * administrator's export adds the user and channel), the bytes shown while the server streams.
 */
import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { cleanup, waitFor } from './helpers.ts'
import { exportFile } from './export-helpers.ts'
import { admin, insertTasks, mountTasks, rows, search, setFilter, user } from './tasks-helpers.ts'

describe('<tollgate-tasks> CSV export', () => {
  afterEach(cleanup)

  it('downloads the filter applied, only the user own tasks', async () => {
    const other = await user()
    await insertTasks(other.username, 'suno', [{ task_id: 'exp-theirs', prompt: 'not mine' }])
    const me = await user()
    await insertTasks(me.username, 'suno', [
      { task_id: 'exp-mine-a', prompt: 'mine a' },
      { task_id: 'exp-mine-b', prompt: 'mine b' },
    ])
    const el = await mountTasks('suno')
    await setFilter(el, 'mj_id', 'exp-mine-a')
    await search(el)
    await waitFor(() => rows(el).length === 1, 'the filtered list')
    const { name, lines } = await exportFile(el, 'export-tasks')
    expect(name).to.match(/^tasks-suno-self-\d{8}-\d{8}-exp-mine-a\.csv$/)
    expect(lines[0]).to.equal(
      'Submitted,Finished,Platform,Type,Task ID,Status,Progress,Quota,Queued (s),Duration (s),Prompt,Result,Fail reason',
    )
    expect(lines).to.have.length(2)
    expect(lines[1]).to.include(',exp-mine-a,').and.to.include(',mine a,')
  })

  it('gives an administrator everyone in the filter, with user and channel', async () => {
    const someone = await user()
    const channel = 200_000 + Math.floor(Math.random() * 1e9)
    await insertTasks(someone.username, 'midjourney', [{ task_id: 'exp-admin-1', channel_id: channel }])
    await admin()
    const el = await mountTasks('midjourney')
    await setFilter(el, 'channel_id', String(channel))
    await search(el)
    await waitFor(() => rows(el).length === 1, 'the filtered list')
    const { name, lines } = await exportFile(el, 'export-tasks')
    expect(name).to.match(new RegExp(`^tasks-midjourney-\\d{8}-\\d{8}-channel${channel}\\.csv$`))
    expect(lines[0]).to.include(',User ID,Channel,')
    expect(lines).to.have.length(2)
    expect(lines[1]).to.include(`,exp-admin-1,`).and.to.include(`,${channel},`)
  })
})
