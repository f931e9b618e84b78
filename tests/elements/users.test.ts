import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { prefetch } from '../../src/screens/users/users-screen.tsx'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import type { User } from '../../src/api/types.ts'
import { addQuota, userChanges, formFromUser } from '../../src/screens/users/user-rules.ts'
import {
  $,
  $$,
  cleanup,
  goTo,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  signInAs,
  sleep,
  textOf,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

type Envelope<T = any> = { success: boolean; message: string; data: T }
type Control = HTMLElement & {
  value: any
  checked?: boolean
  open?: boolean
  disabled?: boolean
  placeholder?: string
  updateComplete?: Promise<unknown>
}

async function api<T = any>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json()
}

const PASSWORD = 'password123'

/** A user made by the signed-in administrator through the API (arrangement). */
async function newUser(prefix = 'us'): Promise<User> {
  const username = uniqueName(prefix)
  const res = await api<User>('POST', '/api/user/', { username, display_name: `${username} D`, password: PASSWORD })
  if (!res.success) throw new Error(res.message)
  return res.data
}

const readUser = (id: number) => api<User>('GET', `/api/user/${id}`)
const manage = (username: string, action: string) => api('POST', '/api/user/manage', { username, action })

function named(scope: Element | ShadowRoot, selector: string, name: string): Control | null {
  return [...scope.querySelectorAll<Control>(selector)].find((c) => (c as unknown as { name: string }).name === name) ?? null
}

const rowOf = (el: Element, id: number) => $<HTMLTableRowElement>(el, `tr[data-id="${id}"]`)
const waitRow = (el: Element, id: number) => waitFor(() => rowOf(el, id), `row ${id}`)
const actionsOf = (row: Element) => [...row.querySelectorAll('.tg-admin__actions [data-action]')].map((b) => b.getAttribute('data-action'))
const drawerOf = (el: Element) => $<Control>(el, 'sl-drawer[data-drawer="user"]')!

async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Control).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

async function setField(scope: Element, name: string, value: string) {
  const control = await waitFor(() => named(scope, 'sl-input, sl-select', name), `field ${name}`)
  control.value = value
  control.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  control.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
  await sleep(60)
}

async function mountUsers(): Promise<HTMLElement> {
  const el = await mount('<tollgate-users></tollgate-users>')
  await waitFor(() => $(el, 'table[data-table="users"]') || $(el, '[part="empty-state"]') || $(el, '[data-gate]'), 'the user list')
  return el
}

async function confirm(el: HTMLElement) {
  const dialog = await waitFor(
    () => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'),
    'the confirm dialog',
  )
  await click(dialog.querySelector('[data-action="confirm"]'))
}

/** A cancelled account: the user deleted it themselves (DeletedAt set). */
async function cancelledUser(): Promise<User> {
  const u = await newUser('cx')
  await signInAs(u.username, PASSWORD)
  const res = await api('DELETE', '/api/user/self')
  if (!res.success) throw new Error(res.message)
  await signInAs('root', '123456')
  return u
}

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
    const calls: string[] = []
    const original = window.fetch
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      if (url.includes('/api/user/?')) calls.push(url)
      return original(input, init)
    }
    try {
      prefetch()
      await waitFor(() => calls.length === 1, 'asked before any element shows the list')
      const el = await mountUsers()
      await waitRow(el, made.id)
      expect(calls).to.have.length(1, 'not asked again')
    } finally {
      window.fetch = original
    }
  })

  afterEach(async () => {
    await setViewport({ width: 1280, height: 800 })
    await cleanup()
  })

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

describe('<tollgate-users> drawers', () => {
  beforeEach(() => signInAs('root', '123456'))
  afterEach(cleanup)

  it('adds a user: username and password required, at least 8 characters', async () => {
    const el = await mountUsers()
    await click($(el, '[data-action="add"]'))
    const drawer = await waitFor(() => drawerOf(el).open && drawerOf(el), 'the add drawer')
    const save = () => click(drawer.querySelector('[data-action="save"]'))
    await save()
    await waitForText(el, 'please enter username and password')
    const username = uniqueName('nw')
    await setField(drawer, 'username', username)
    await setField(drawer, 'display_name', 'New Person')
    await setField(drawer, 'password', 'short')
    await save()
    await waitForText(el, 'password length must not be under 8')
    expect((named(drawer, 'sl-input', 'password') as Control).placeholder).to.equal('At least 8 characters')
    await setField(drawer, 'password', 'goodpassword')
    await save()
    await waitForToast(el, 'user account created')
    await waitFor(() => !drawerOf(el).open, 'the drawer to close')
    const [found] = (await api<User[]>('GET', `/api/user/search?keyword=${username}`)).data.filter((u) => u.username === username)
    expect([found!.display_name, found!.role, found!.status]).to.deep.equal(['New Person', 1, 1])
    await waitRow(el, found!.id)
    expect((await api('POST', '/api/user/login', { username, password: 'goodpassword' })).success).to.equal(true)
  })

  it("edits a user: password hint, 'add quota' with a negative number, integer quota, read-only bindings", async () => {
    const u = await newUser()
    await api('PUT', '/api/user/', { id: u.id, quota: 1000 })
    await serverCommand('tg-admin-user-set', { username: u.username, set: { email: 'bound@example.com', github_id: 'gh-42' } })
    const el = await mountUsers()
    await click((await waitRow(el, u.id)).querySelector('[data-action="edit"]'))
    const drawer = await waitFor(() => drawerOf(el).open && named(drawerOf(el), 'sl-input', 'quota') && drawerOf(el), 'the edit drawer')
    const input = (name: string) => named(drawer, 'sl-input, sl-select', name)!
    expect(input('quota').value).to.equal('1000')
    expect(input('password').placeholder).to.include('at least 8 characters')
    expect([
      input('email').value,
      input('github_id').value,
      input('email').disabled,
      input('github_id').disabled,
      input('wechat_id').disabled,
    ]).to.deep.equal(['bound@example.com', 'gh-42', true, true, true])
    await setField(drawer, 'add_quota', '-300')
    await click(drawer.querySelector('[data-action="add-quota"]'))
    await waitFor(() => input('quota').value === '700', 'the quota less 300')
    await setField(drawer, 'display_name', 'Renamed')
    await setField(drawer, 'group', 'vip')
    await setField(drawer, 'password', 'short')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForText(el, 'password length must not be under 8')
    await setField(drawer, 'password', 'another-password')
    await click(drawer.querySelector('[data-action="save"]'))
    await waitForToast(el, 'user info updated')
    let read = (await readUser(u.id)).data
    expect([read.quota, read.display_name, read.group, read.email]).to.deep.equal([700, 'Renamed', 'vip', 'bound@example.com'])
    await waitFor(() => rowOf(el, u.id)!.textContent!.includes('Renamed'), 'the updated row')

    await click(rowOf(el, u.id)!.querySelector('[data-action="edit"]'))
    const again = await waitFor(
      () => drawerOf(el).open && named(drawerOf(el), 'sl-input', 'quota')?.value === '700' && drawerOf(el),
      'the drawer again',
    )
    await setField(again, 'quota', '1500.9')
    await click(again.querySelector('[data-action="save"]'))
    await waitFor(() => toastTexts(el).filter((m) => m === 'user info updated').length > 0 && !drawerOf(el).open, 'the second save')
    read = (await readUser(u.id)).data
    expect(read.quota).to.equal(1500)
    expect((await api('POST', '/api/user/login', { username: u.username, password: 'another-password' })).success).to.equal(true)
  })
})

describe('<tollgate-users> in the console, roles and languages', () => {
  afterEach(cleanup)

  it('opens the add drawer at /user/add and /user/edit, the edit drawer at /user/edit/{id}', async () => {
    await signInAs('root', '123456')
    const u = await newUser()
    for (const path of ['/user/add', '/user/edit']) {
      goTo(path)
      const el = await mount('<tollgate-console></tollgate-console>')
      await waitFor(
        () => $<Control>(el, 'sl-drawer[data-drawer="user"]')?.open && $(el, 'form[data-form="user-add"]'),
        `the add drawer at ${path}`,
      )
      await click($(el, 'sl-drawer[data-drawer="user"] [data-action="close"]'))
      await waitFor(() => location.pathname === '/user', 'the list path')
      el.remove()
    }
    goTo(`/user/edit/${u.id}`)
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => named($(el, 'sl-drawer[data-drawer="user"]')!, 'sl-input', 'username')?.value === u.username, 'the edit drawer')
    await click($(el, 'sl-drawer[data-drawer="user"] [data-action="close"]'))
    await waitFor(() => location.pathname === '/user')
    await click(await waitFor(() => $(el, '[data-action="add"]')))
    await waitFor(() => location.pathname === '/user/add', 'the add path')
  })

  it('tells ordinary users the page is for administrators; the server refuses them', async () => {
    await registerAndSignIn()
    const el = await mountUsers()
    await waitForText(el, 'This page is for administrators')
    expect((await fetch('/api/user/?p=0')).status).to.equal(403)
  })

  it('speaks Simplified Chinese and follows dark mode', async () => {
    await signInAs('root', '123456')
    setLocale('zh')
    setTheme('dark')
    const admin = await newUser()
    await manage(admin.username, 'promote')
    const el = await mountUsers()
    await waitForText(el, '添加用户')
    expect((await waitRow(el, admin.id)).querySelector('[data-cell="role"]')!.textContent).to.equal('管理员')
    expect(textOf(el)).to.include('已激活')
    expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
  })
})
