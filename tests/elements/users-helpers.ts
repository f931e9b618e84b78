// What the users element tests share (split from users.test.ts by topic).
import type { User } from '../../src/api/types.ts'
import { $, api, mount, signInAs, sleep, uniqueName, waitFor, type Control } from './helpers.ts'

export { api, type Control } from './helpers.ts'

export const PASSWORD = 'password123'

/** A user made by the signed-in administrator through the API (arrangement). */
export async function newUser(prefix = 'us'): Promise<User> {
  const username = uniqueName(prefix)
  const res = await api<User>('POST', '/api/user/', { username, display_name: `${username} D`, password: PASSWORD })
  if (!res.success) throw new Error(res.message)
  return res.data
}

export const readUser = (id: number) => api<User>('GET', `/api/user/${id}`)
export const manage = (username: string, action: string) => api('POST', '/api/user/manage', { username, action })

export function named(scope: Element | ShadowRoot, selector: string, name: string): Control | null {
  return [...scope.querySelectorAll<Control>(selector)].find((c) => (c as unknown as { name: string }).name === name) ?? null
}

export const rowOf = (el: Element, id: number) => $<HTMLTableRowElement>(el, `tr[data-id="${id}"]`)
export const waitRow = (el: Element, id: number) => waitFor(() => rowOf(el, id), `row ${id}`)
export const actionsOf = (row: Element) =>
  [...row.querySelectorAll('.tg-admin__actions [data-action]')].map((b) => b.getAttribute('data-action'))
export const drawerOf = (el: Element) => $<Control>(el, 'sl-drawer[data-drawer="user"]')!

export async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Control).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

export async function setField(scope: Element, name: string, value: string) {
  const control = await waitFor(() => named(scope, 'sl-input, sl-select', name), `field ${name}`)
  control.value = value
  control.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  control.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
  await sleep(60)
}

export async function mountUsers(): Promise<HTMLElement> {
  const el = await mount('<tollgate-users></tollgate-users>')
  await waitFor(() => $(el, 'table[data-table="users"]') || $(el, '[part="empty-state"]') || $(el, '[data-gate]'), 'the user list')
  return el
}

export async function confirm(el: HTMLElement) {
  const dialog = await waitFor(
    () => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'),
    'the confirm dialog',
  )
  await click(dialog.querySelector('[data-action="confirm"]'))
}

/** A cancelled account: the user deleted it themselves (DeletedAt set). */
export async function cancelledUser(): Promise<User> {
  const u = await newUser('cx')
  await signInAs(u.username, PASSWORD)
  const res = await api('DELETE', '/api/user/self')
  if (!res.success) throw new Error(res.message)
  await signInAs('root', '123456')
  return u
}
