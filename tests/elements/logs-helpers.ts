// What the logs element tests share (split from logs.test.ts by topic).
import { $, $$, inputNamed, mount, registerAndSignIn, serverCommand, signInAs, sleep, uniqueName, waitFor } from './helpers.ts'

export const HOUR = 3600
export const nowSeconds = () => Math.floor(Date.now() / 1000)

export interface LogRow {
  created_at?: number
  type?: number
  token_name?: string
  model_name?: string
  quota?: number
  prompt_tokens?: number
  completion_tokens?: number
  use_time?: number
  is_stream?: number
  channel?: number
  other?: string
  content?: string
}

/** Writes log rows for `owner` straight into the real server's database. */
export function insertLogs(owner: string, rows: LogRow[]): Promise<number> {
  const now = nowSeconds()
  return serverCommand<number>('tg-h3-logs', { rows: rows.map((r) => ({ owner, created_at: now - 60, type: 2, ...r })) })
}

export async function user(password = 'password123'): Promise<{ username: string; password: string }> {
  const username = uniqueName('lg')
  await registerAndSignIn(username, password)
  return { username, password }
}

/** A signed-in administrator (role 10), fresh from the server. */
export async function admin(role = 10): Promise<string> {
  const { username, password } = await user()
  await serverCommand('tg-h3-user', { username, set: { role } })
  await signInAs(username, password)
  return username
}

export const rows = (el: Element) => $$(el, '[data-log-row]')
export const cell = (row: Element, col: string) => row.querySelector<HTMLElement>(`[data-col="${col}"]`)!
export const cellText = (row: Element, col: string) => (cell(row, col).textContent ?? '').trim()
export const rowWithToken = (el: Element, token: string) => rows(el).find((r) => cellText(r, 'token') === token)

export async function mountLogs(): Promise<HTMLElement> {
  const el = await mount('<tollgate-logs></tollgate-logs>')
  await waitFor(() => $(el, '[data-log-row]') || $(el, '[part="empty-state"]') || $(el, 'sl-alert[variant="danger"]'), 'the log list')
  return el
}

/** Sets the filter field `name` (an sl-input or an sl-select) as a user would. */
export async function setFilter(el: Element, name: string, value: string): Promise<void> {
  const input = inputNamed(el, name)
  if (input) {
    input.value = value
    input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  } else {
    const select = $$<HTMLSelectElement>(el, 'sl-select').find((s) => s.name === name)!
    select.value = value
    select.dispatchEvent(new CustomEvent('sl-change', { bubbles: true, composed: true }))
  }
  await sleep(50)
}

export async function search(el: Element): Promise<void> {
  const button = $$<HTMLElement & { type: string }>(el, 'form[part="filters"] sl-button').find((b) => b.type === 'submit')!
  button.click()
  await sleep(50)
}

export { stubClipboard } from './helpers.ts'
