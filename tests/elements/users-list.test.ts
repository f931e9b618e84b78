import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { prefetch } from '../../src/screens/users/users-screen.tsx'
import type { User } from '../../src/api/types.ts'
import { addQuota, userChanges, formFromUser } from '../../src/screens/users/user-rules.ts'
import {
  $,
  $$,
  loadStatus,
  serverCommand,
  signInAs,
  sleep,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
  expectPrefetchTakenOver,
  cleanupAndResize,
} from './helpers.ts'
import {
  type Control,
  PASSWORD,
  actionsOf,
  api,
  cancelledUser,
  click,
  confirm,
  manage,
  mountUsers,
  newUser,
  readUser,
  rowOf,
  setField,
  waitRow,
} from './users-helpers.ts'

describe('user rules (pure)', () => {
  it('adds quota, negative numbers included, and parses the quota as an integer', () => {
    expect(addQuota('1000', '-300')).to.equal('700')
    expect(addQuota('1000', '250')).to.equal('1250')
    expect(addQuota('', '-5')).to.equal('-5')
    const form = { ...formFromUser({ id: 3, username: 'a', display_name: '', group: 'default', quota: 0 } as User), quota: '1500.9' }
    expect((userChanges(3, form) as unknown as { body: { quota: number } }).body).to.include({ quota: 1500 })
    expect((userChanges(3, form) as unknown as { body: Record<string, unknown> }).body).to.not.have.property('password')
    expect(userChanges(3, { ...form, password: 'short' })).to.deep.equal({
      problem: { id: 'account.passwordTooShort', params: { min: 8 } },
    })
  })
})

describe('<tollgate-users> list', () => {
  beforeEach(() => signInAs('root', '123456'))

  it("asks for the first page as soon as the screen's code arrives, and the screen takes that answer over", async () => {
    const made = await newUser()
    await expectPrefetchTakenOver(['/api/user/?'], prefetch, async () => {
      const el = await mountUsers()
      await waitRow(el, made.id)
    })
  })

  afterEach(cleanupAndResize)

  it('shows role badges and activated, banned and cancelled; loads 10 at a time', async () => {
    const made: User[] = []
    for (let i = 0; i < 9; i++) made.push(await newUser())
    const admin = made[8]!
    await manage(admin.username, 'promote')
    const banned = made[7]!
    await manage(banned.username, 'disable')
    const cancelled = await cancelledUser()
    const newest = await newUser()
    const el = await mountUsers()
    await waitFor(() => $$(el, 'tbody tr').length === 10, 'ten rows')
    const ids = $$(el, 'tbody tr').map((r) => Number(r.dataset.id))
    expect(ids[0]).to.equal(newest.id)
    expect(ids).to.deep.equal([...ids].sort((a, b) => b - a))
    const role = (id: number) => rowOf(el, id)!.querySelector('[data-cell="role"]')!.textContent
    const state = (id: number) => rowOf(el, id)!.querySelector('[data-cell="status"]')!.textContent
    expect([role(newest.id), role(admin.id)]).to.deep.equal(['User', 'Administrator'])
    expect([state(newest.id), state(banned.id), state(cancelled.id)]).to.deep.equal(['Activated', 'Banned', 'Cancelled'])
    await click($(el, '[data-action="load-more"]'))
    await waitFor(() => $$(el, 'tbody tr').length > 10, 'the next page')
    const more = $$(el, 'tbody tr').map((r) => Number(r.dataset.id))
    expect(new Set(more).size).to.equal(more.length)
    expect(more.slice(10).every((id) => id < ids[9]!)).to.equal(true)
    await setField($(el, 'form[data-form="search"]')!, 'keyword', 'root')
    await click($(el, '[data-action="search"]'))
    await waitFor(() => rowOf(el, 1) && !$(el, '[data-action="load-more"]'), 'the root row')
    expect(role(1)).to.equal('Super administrator')
  })

  it('offers only delete for a cancelled account, and deletes it for good', async () => {
    const u = await cancelledUser()
    const el = await mountUsers()
    const row = await waitRow(el, u.id)
    expect(actionsOf(row)).to.deep.equal(['delete'])
    await click(row.querySelector('[data-action="delete"]'))
    await confirm(el)
    await waitForToast(el, 'operation completed successfully')
    await waitFor(() => !rowOf(el, u.id), 'the row to go')
    expect((await readUser(u.id)).message).to.equal('user not found')
  })

  it('promotes, demotes, disables and enables through the UI', async () => {
    const u = await newUser()
    const el = await mountUsers()
    const act = async (action: string) => {
      await click(await waitFor(() => rowOf(el, u.id)!.querySelector(`[data-action="${action}"]`), `the ${action} button`))
      await waitFor(() => !rowOf(el, u.id)!.querySelector(`[data-action="${action}"]`), `${action} to be done`)
    }
    await act('promote')
    expect((await readUser(u.id)).data.role).to.equal(10)
    expect(rowOf(el, u.id)!.querySelector('[data-cell="role"]')!.textContent).to.equal('Administrator')
    await waitForToast(el, 'operation completed successfully')
    await act('demote')
    expect((await readUser(u.id)).data.role).to.equal(1)
    await act('disable')
    expect((await readUser(u.id)).data.status).to.equal(2)
    expect(rowOf(el, u.id)!.querySelector('[data-cell="status"]')!.textContent).to.equal('Banned')
    await act('enable')
    expect((await readUser(u.id)).data.status).to.equal(1)
  })

  it('disables the enable button when the status is 3', async () => {
    const u = await newUser()
    await serverCommand('tg-admin-user-set', { username: u.username, set: { status: 3 } })
    const el = await mountUsers()
    const enable = (await waitRow(el, u.id)).querySelector<Control>('[data-action="enable"]')!
    expect(enable.disabled).to.equal(true)
    const banned = await newUser()
    await manage(banned.username, 'disable')
    el.remove()
    const again = await mountUsers()
    expect((await waitRow(again, banned.id)).querySelector<Control>('[data-action="enable"]')!.disabled).to.equal(false)
  })

  it('shows an administrator only what the role allows, and the server refuses the rest', async () => {
    const admin = await newUser('ad')
    const other = await newUser('ad')
    const plain = await newUser()
    await manage(admin.username, 'promote')
    await manage(other.username, 'promote')
    await signInAs(admin.username, PASSWORD)
    const el = await mountUsers()
    expect(actionsOf(await waitRow(el, other.id))).to.deep.equal([])
    expect(rowOf(el, other.id)!.querySelector('[data-no-actions]')).to.not.equal(null)
    expect(actionsOf(await waitRow(el, plain.id))).to.deep.equal(['disable', 'edit', 'delete'])
    expect((await manage(other.username, 'disable')).success).to.equal(false)
    const promote = await manage(plain.username, 'promote')
    expect([promote.success, promote.message]).to.deep.equal([false, 'only the super administrator can promote users'])
    await click(rowOf(el, plain.id)!.querySelector('[data-action="disable"]'))
    await waitForToast(el, 'operation completed successfully')
    await signInAs('root', '123456')
    expect((await readUser(plain.id)).data.status).to.equal(2)
  })

  it("shows an administrator another administrator's and root's details as the list has them, without an error", async () => {
    const admin = await newUser('ad')
    const other = await newUser('ad')
    await manage(admin.username, 'promote')
    await manage(other.username, 'promote')
    await api('PUT', '/api/user/', { id: other.id, quota: 1234567 })
    await loadStatus()
    await signInAs(admin.username, PASSWORD)
    const el = await mountUsers()
    for (const target of [other.id, admin.id]) {
      await click((await waitRow(el, target)).querySelector('[data-action="info"]'))
      const dialog = await waitFor(() => $<Control>(el, 'sl-dialog[data-dialog="user-info"][open]'), 'the dialog')
      await waitFor(() => dialog.querySelector('[data-fact="id"] dd')?.textContent === String(target), 'the details')
      expect(dialog.querySelector('sl-alert[variant="danger"]'), 'an error panel').to.equal(null)
      expect(dialog.querySelector('[data-fact="role"]')!.textContent).to.include('Administrator')
      if (target === other.id) expect(dialog.querySelector('[data-fact="quota"] dd')!.textContent).to.equal('$2.47')
      await sleep(250)
      await sendKeys({ press: 'Escape' })
      await waitFor(() => !dialog.open, 'the dialog to close')
    }
    expect(toastTexts(el)).to.deep.equal([])
  })

  it('searches by keyword and group; an empty search shows the list again', async () => {
    const tag = uniqueName('sq')
    const a = (await api<User>('POST', '/api/user/', { username: `${tag}a`.slice(0, 12), password: PASSWORD })).data
    const b = (await api<User>('POST', '/api/user/', { username: `${tag}b`.slice(0, 12), password: PASSWORD })).data
    await api('PUT', '/api/user/', { id: b.id, group: 'vip' })
    const el = await mountUsers()
    const form = $(el, 'form[data-form="search"]')!
    const ids = () => $$(el, 'tbody tr').map((r) => Number(r.dataset.id))
    const prefix = a.username.slice(0, -1)
    await setField(form, 'keyword', prefix)
    await click($(el, '[data-action="search"]'))
    await waitFor(() => ids().join() === [b.id, a.id].join(), 'keyword results')
    await setField(form, 'group', 'vip')
    await click($(el, '[data-action="search"]'))
    await waitFor(() => ids().join() === String(b.id), 'group results')
    await setField(form, 'keyword', `${prefix}zz`)
    await click($(el, '[data-action="search"]'))
    await waitForText(el, 'No user matches the search')
    await setField(form, 'keyword', '')
    await setField(form, 'group', '')
    await click($(el, '[data-action="search"]'))
    await waitFor(() => ids().includes(a.id) && ids().includes(b.id) && ids().length > 2, 'the list again')
  })

  it('opens the user-info dialog on a username, with the keyboard too', async () => {
    const u = await newUser()
    await api('PUT', '/api/user/', { id: u.id, quota: 1234567 })
    await loadStatus()
    const el = await mountUsers()
    const link = (await waitRow(el, u.id)).querySelector<HTMLButtonElement>('[data-action="info"]')!
    link.focus()
    await sendKeys({ press: 'Enter' })
    const dialog = await waitFor(
      () => $<Control>(el, 'sl-dialog[data-dialog="user-info"]')?.open && $<Control>(el, 'sl-dialog[data-dialog="user-info"]'),
      'the dialog',
    )
    await waitFor(() => dialog.querySelector('[data-fact="username"] dd')?.textContent === u.username, 'the details')
    const fact = (key: string) => dialog.querySelector(`[data-fact="${key}"] dd`)!.textContent
    expect(fact('quota')).to.equal('$2.47')
    expect(fact('request_count')).to.equal('0')
    expect(fact('inviter_id')).to.equal('none')
    await sleep(250)
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !dialog.open, 'the dialog to close')
  })

  it('shows each row as a card on a 375 px screen', async () => {
    await setViewport({ width: 375, height: 800 })
    const u = await newUser()
    const el = await mountUsers()
    const row = await waitRow(el, u.id)
    expect(getComputedStyle($(el, 'thead')!).display).to.equal('none')
    expect(row.getBoundingClientRect().width).to.be.at.most(375)
  })
})
