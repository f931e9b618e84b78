// What the settings element tests share (split from settings.test.ts by topic).
import { $, mount, registerAndSignIn, serverCommand, signInAs, sleep, uniqueName, waitFor } from './helpers.ts'

export type Dialog = HTMLElement & { open: boolean }

export async function user(set: Record<string, unknown> = {}): Promise<{ username: string; password: string }> {
  const username = uniqueName('st')
  const password = 'password123'
  await registerAndSignIn(username, password)
  if (Object.keys(set).length) {
    await serverCommand('tg-h3-user', { username, set })
    await signInAs(username, password)
  }
  return { username, password }
}

export function serverUser(username: string): Promise<Record<string, any>> {
  return serverCommand('tg-user', { username })
}

export async function mountSettings(attrs = ''): Promise<HTMLElement> {
  const el = await mount(`<tollgate-settings ${attrs}></tollgate-settings>`)
  await waitFor(() => $(el, '[data-card="profile"]') || $(el, '[part="empty-state"]') || $(el, '[role="tablist"]'), 'the settings')
  return el
}

export const card = (el: Element, name: string) => $(el, `[data-card="${name}"]`)!
export const fact = (el: Element, name: string) => ($(el, `[data-fact="${name}"]`)?.textContent ?? '').trim()
export const action = (el: Element, name: string) => $<HTMLElement>(el, `[data-action="${name}"]`)!
export const dialog = (el: Element, name: string) => $<Dialog>(el, `sl-dialog[data-dialog="${name}"]`)

/** Types into the sl-input named `name` inside `scope`. */
export async function type(scope: ParentNode, name: string, value: string): Promise<void> {
  const input = [...scope.querySelectorAll<HTMLInputElement>('sl-input')].find((i) => i.name === name)!
  input.value = value
  input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(50)
}

export async function submitDialog(d: Element): Promise<void> {
  const button = [...d.querySelectorAll<HTMLElement & { type: string; updateComplete?: Promise<unknown> }>('sl-button')].find(
    (b) => b.type === 'submit',
  )!
  await button.updateComplete
  button.click()
  await sleep(50)
}

export { stubClipboard } from './helpers.ts'
