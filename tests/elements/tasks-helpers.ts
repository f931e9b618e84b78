// What the tasks element tests share (split from tasks.test.ts by topic).
import { $, $$, inputNamed, mount, registerAndSignIn, serverCommand, signInAs, sleep, uniqueName, waitFor } from './helpers.ts'

export const DAY = 24 * 3600 * 1000
export let seq = 0

export interface TaskRow {
  platform?: string
  task_id?: string
  action?: string
  status?: string
  code?: number
  progress?: string
  submit_time?: number
  start_time?: number
  finish_time?: number
  channel_id?: number
  prompt?: string
  prompt_en?: string
  fail_reason?: string
  image_url?: string
  audio_url?: string
  result?: string
  title?: string
  text?: string
  video_duration?: number
  sub_platform?: string
  data?: string
}

/** Writes task rows for `owner` straight into the real server's database (times in ms). */
export function insertTasks(owner: string, platform: string, rows: TaskRow[]): Promise<number> {
  const now = Date.now()
  return serverCommand<number>('tg-h3-tasks', {
    rows: rows.map((r) => ({
      owner,
      platform,
      task_id: `t${Date.now().toString(36)}${++seq}`,
      submit_time: now - 60_000,
      created_at: now,
      status: 'SUCCESS',
      ...r,
    })),
  })
}

/** A row that took `seconds` from submission to finish. */
export const took = (seconds: number, extra: TaskRow = {}): TaskRow => {
  const submit = Date.now() - 3_600_000
  return { submit_time: submit, finish_time: submit + seconds * 1000, ...extra }
}

export async function user(): Promise<{ username: string; password: string }> {
  const username = uniqueName('tk')
  await registerAndSignIn(username, 'password123')
  return { username, password: 'password123' }
}

/** Makes the signed-in user an administrator and signs in again. */
async function promote({ username, password }: { username: string; password: string }): Promise<void> {
  await serverCommand('tg-h3-user', { username, set: { role: 10 } })
  await signInAs(username, password)
}

export async function admin(): Promise<string> {
  const me = await user()
  await promote(me)
  return me.username
}

export const rows = (el: Element) => $$(el, '[data-task-row]')
export const cell = (row: Element, col: string) => row.querySelector<HTMLElement>(`[data-col="${col}"]`)!
export const cellText = (row: Element, col: string) => (cell(row, col).textContent ?? '').trim()
export const rowWithId = (el: Element, id: string) => rows(el).find((r) => cellText(r, 'task-id') === id)

export async function mountTasks(platform: string): Promise<HTMLElement> {
  const el = await mount(`<tollgate-tasks platform="${platform}"></tollgate-tasks>`)
  await waitFor(() => $(el, '[data-task-row]') || $(el, '[part="empty-state"]') || $(el, 'sl-alert[variant="danger"]'), 'the task list')
  return el
}

export async function setFilter(el: Element, name: string, value: string): Promise<void> {
  const input = inputNamed(el, name)!
  input.value = value
  input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(50)
}

export async function search(el: Element): Promise<void> {
  $$<HTMLElement & { type: string }>(el, 'form[part="filters"] sl-button')
    .find((b) => b.type === 'submit')!
    .click()
  await sleep(50)
}

/** Inserts one row per value with task ids `<prefix>-<i>`, mounts the list, returns the label of each (statuses as an administrator). */
export async function labels(platform: string, list: string, field: 'status' | 'action', values: string[], col: string): Promise<string[]> {
  const me = await user()
  const prefix = uniqueName('id')
  // the status column is an administrator's (spec section 6): read as one, narrowed to a channel of these rows alone
  const channel = 100_000 + Math.floor(Math.random() * 1e9)
  await insertTasks(
    me.username,
    platform,
    values.map((v, i) => ({ [field]: v, task_id: `${prefix}-${i}`, channel_id: channel })),
  )
  if (field === 'status') await promote(me)
  const el = await mountTasks(list)
  if (field === 'status') {
    await setFilter(el, 'channel_id', String(channel))
    await search(el)
  }
  // ten per page: load the rest
  for (let page = 1; page < Math.ceil(values.length / 10); page++) {
    await waitFor(() => rows(el).length === page * 10 && $<HTMLElement>(el, '[data-action="load-more"]'), `page ${page}`).then((b) =>
      b.click(),
    )
  }
  await waitFor(() => rows(el).length === values.length, `${values.length} rows`)
  const out = values.map((_, i) => cellText(rowWithId(el, `${prefix}-${i}`)!, col))
  el.remove()
  return out
}

export { stubClipboard } from './helpers.ts'
