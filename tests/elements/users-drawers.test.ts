import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import type { User } from '../../src/api/types.ts'
import {
  $,
  cleanup,
  goTo,
  mount,
  registerAndSignIn,
  serverCommand,
  signInAs,
  textOf,
  toastTexts,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'
import {
  type Control,
  api,
  click,
  drawerOf,
  manage,
  mountUsers,
  named,
  newUser,
  readUser,
  rowOf,
  setField,
  waitRow,
} from './users-helpers.ts'

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
