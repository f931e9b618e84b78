// What the channels element tests share (split from channels.test.ts by topic).
import type { Channel } from '../../src/api/types.ts'
import { $, api, mount, serverCommand, sleep, uniqueName, waitFor, waitForText, type Control } from './helpers.ts'

export { api, type Control } from './helpers.ts'

export let upstream = ''

/** A channel made through the API (arrangement), pointing at the fake upstream on loopback. */
export async function newChannel(fields: Partial<Channel> & { key?: string } = {}): Promise<Channel> {
  const res = await api<Channel[]>('POST', '/api/channel/', {
    name: uniqueName('ch'),
    type: 1,
    key: `sk-${uniqueName('k')}`,
    models: 'gpt-4o,gpt-3.5-turbo',
    group: 'default',
    base_url: upstream,
    ...fields,
  })
  if (!res.success) throw new Error(res.message)
  return res.data[0]!
}

export const readChannel = async (id: number) => api<Channel>('GET', `/api/channel/${id}`)
export const setColumns = (id: number, set: Record<string, unknown>) => serverCommand('tg-admin-channel-set', { id, set })

export async function searchByName(name: string): Promise<Channel[]> {
  return (await api<Channel[]>('GET', `/api/channel/search?keyword=${encodeURIComponent(name)}`)).data
}

export const rowOf = (el: Element, id: number) => $<HTMLTableRowElement>(el, `tr[data-id="${id}"]`)
export const waitRow = (el: Element, id: number) => waitFor(() => rowOf(el, id), `row ${id}`)
export const inRow = <T extends Element = Control>(row: Element, selector: string) => row.querySelector<T>(selector)

/** The control whose `name` (or `value`) property matches: React sets Shoelace props as properties, not attributes. */
export function named(scope: Element | ShadowRoot, selector: string, name: string, prop: 'name' | 'value' = 'name'): Control | null {
  return [...scope.querySelectorAll<Control>(selector)].find((c) => (c as unknown as Record<string, unknown>)[prop] === name) ?? null
}

export async function mountChannels(): Promise<HTMLElement> {
  const el = await mount('<tollgate-channels></tollgate-channels>')
  await waitFor(() => $(el, 'table[data-table="channels"]') || $(el, '[part="empty-state"]'), 'the channel list')
  return el
}

export const drawerOf = (el: Element) => $<Control>(el, 'sl-drawer[data-drawer="channel"]')!

/** A control of the drawer's form by name (sl-input, sl-textarea, sl-select, sl-switch). */
export function field(el: Element, name: string): Control {
  const found = [...drawerOf(el).querySelectorAll<Control>('sl-input, sl-textarea, sl-select, sl-switch')].find(
    (c) => (c as unknown as { name: string }).name === name,
  )
  if (!found) throw new Error(`no field ${name}`)
  return found
}

/** Sets a form control the way a user would and lets React render. */
export async function setField(el: Element, name: string, value: string | string[] | boolean) {
  const control = await waitFor(() => {
    try {
      return field(el, name)
    } catch {
      return null
    }
  }, `field ${name}`)
  if (typeof value === 'boolean') control.checked = value
  else control.value = value
  control.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  control.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
  await sleep(60)
}

/** Types into a native input the way React notices (its value tracker ignores a plain property set). */
export function typeNative(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

export async function click(target: Element | null | undefined) {
  if (!target) throw new Error('nothing to click')
  await (target as Control).updateComplete
  ;(target as HTMLElement).click()
  await sleep(30)
}

export const action = (scope: Element | ShadowRoot, name: string) => scope.querySelector<HTMLElement>(`[data-action="${name}"]`)

export async function openAdd(el: HTMLElement) {
  await click($(el, '[data-action="add"]'))
  await waitFor(() => drawerOf(el).open && drawerOf(el).querySelector('form[data-form="channel"]'), 'the add drawer')
}

export async function save(el: HTMLElement) {
  await click(await waitFor(() => action(drawerOf(el), 'save'), 'the save button'))
}

/** Sets `fields` in the open drawer (in that order), saves, and waits for the form to refuse with `message`. */
export async function saveRefused(el: HTMLElement, message: string, fields: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(fields)) await setField(el, name, value)
  await save(el)
  await waitForText(el, message)
}

export async function confirm(el: HTMLElement) {
  const dialog = await waitFor(
    () => $<Control>(el, 'sl-dialog[data-confirm]')?.open && $<Control>(el, 'sl-dialog[data-confirm]'),
    'the confirm dialog',
  )
  await click(action(dialog, 'confirm'))
}

export async function chooseMenu(row: Element, value: string) {
  await click(named(row, 'sl-menu-item', value, 'value'))
}

before(async () => {
  upstream = await serverCommand<string>('tg-admin-upstream')
})

/** other_info as the server stores an automatic disable: the English sentence, and the reason as data. */
export const AUTO_DISABLED_INFO = JSON.stringify({
  status_reason: 'no balance left',
  status_time: 1_700_000_000,
  status_reason_key: 'channel.disabled.noBalance',
})
