/**
 * Fixtures and helpers for the element tests: mount an element, look inside its shadow root,
 * fill Shoelace inputs, wait for the real server, arrange server state through wtr commands.
 */
import { expect } from '@esm-bundle/chai'
import { executeServerCommand, setViewport } from '@web/test-runner-commands'
import { $session } from '../../src/stores/session.ts'
import { $status, refreshStatus } from '../../src/stores/status.ts'
import { $toasts } from '../../src/stores/toasts.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { $config } from '../../src/stores/config.ts'
import { setClock } from '../../src/stores/clock.ts'
import { syncRoute } from '../../src/stores/route.ts'
import type { User } from '../../src/api/types.ts'

const START_URL = location.pathname + location.search
const mounted: HTMLElement[] = []

// The requests the page has sent and not yet seen answered. A test ends while some of its calls
// are still on their way (the console's refresh of the signed-in user, for one); answered after
// the cleanup, such a call would sign the old user in again, and the next test's console, asking
// the server about that user, would be sent to /login in the middle of its steps.
const inFlight = new Set<Promise<unknown>>()
const pageFetch = window.fetch
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const answer = pageFetch(input, init)
  const settled: Promise<unknown> = answer.then(
    (): unknown => inFlight.delete(settled),
    (): unknown => inFlight.delete(settled),
  )
  inFlight.add(settled)
  return answer
}

/** Waits until the requests already sent have their answers (and the few those answers start). */
async function requestsSettled(): Promise<void> {
  for (let round = 0; round < 3 && inFlight.size > 0; round++) await Promise.all([...inFlight])
}

/** Mounts markup in the document and returns its first element, once React has rendered into it. */
export async function mount<T extends HTMLElement = HTMLElement>(html: string): Promise<T> {
  const wrapper = document.createElement('div')
  wrapper.innerHTML = html
  const el = wrapper.firstElementChild as T
  document.body.append(el)
  mounted.push(el)
  await waitFor(() => el.shadowRoot && el.shadowRoot.querySelector('.tg-root'), 'the element to render')
  return el
}

/** Waits until fn returns something truthy (polls every 20 ms, at most `timeout` ms). */
export async function waitFor<T>(fn: () => T | null | undefined | false, what = 'a condition', timeout = 5000): Promise<T> {
  const until = Date.now() + timeout
  for (;;) {
    let value: T | null | undefined | false
    try {
      value = fn()
    } catch {
      value = undefined
    }
    if (value) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** querySelector inside the element's shadow root. */
export function $<T extends Element = HTMLElement>(el: Element, selector: string): T | null {
  return el.shadowRoot!.querySelector<T>(selector)
}

export function $$<T extends Element = HTMLElement>(el: Element, selector: string): T[] {
  return [...el.shadowRoot!.querySelectorAll<T>(selector)]
}

/** The visible text of the element's shadow root (Shoelace internals excluded). */
export function textOf(el: Element): string {
  return (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ')
}

/** Waits for text to appear in the element's shadow root. */
export function waitForText(el: Element, text: string, timeout = 5000): Promise<true> {
  return waitFor(() => textOf(el).includes(text) || false, `"${text}"`, timeout)
}

/** The messages of the toasts shown in this element. */
export function toastTexts(el: Element): string[] {
  return $$(el, '.tg-toast__message').map((t) => t.textContent ?? '')
}

export async function waitForToast(el: Element, text: string, timeout = 5000): Promise<true> {
  try {
    return await waitFor(() => toastTexts(el).includes(text) || false, `toast "${text}"`, timeout)
  } catch {
    throw new Error(`no toast "${text}"; toasts shown: ${JSON.stringify(toastTexts(el))}; text: ${textOf(el).slice(0, 300)}`)
  }
}

/** Types a value into the sl-input named `name` the way Shoelace reports typing (value + sl-input). */
export async function fill(el: Element, name: string, value: string): Promise<void> {
  const input = await waitFor(() => inputNamed(el, name), `input ${name}`)
  input.value = value
  input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  // React renders updates from native listeners on its scheduler, later when the page is busy: a
  // controlled input waits until React has committed the value (the form's handlers then see it),
  // any other input gets the time a typist would give it
  const controlled = 'value' in (committedProps(input) ?? {})
  const until = Date.now() + (controlled ? 3000 : 50)
  do await sleep(20)
  while (Date.now() < until && !(controlled && String(committedProps(input)?.value) === value))
}

/** The props React last committed to a DOM node (React keeps them on the node, under __reactProps$…). */
function committedProps(node: Element): Record<string, unknown> | undefined {
  const key = Object.keys(node).find((k) => k.startsWith('__reactProps$'))
  return key ? ((node as unknown as Record<string, Record<string, unknown>>)[key] ?? undefined) : undefined
}

/** The sl-input whose name property is `name` (React sets Shoelace props as properties, not attributes). */
export function inputNamed(root: Element | ShadowRoot, name: string): HTMLInputElement | undefined {
  const scope = root instanceof ShadowRoot ? root : root.shadowRoot!
  return [...scope.querySelectorAll<HTMLInputElement>('sl-input')].find((i) => i.name === name)
}

/** The submit button among the descendants of `scope` (pass a shadow root or a light-DOM container). */
export function submitButton(scope: ParentNode): HTMLElement | undefined {
  return [...scope.querySelectorAll<HTMLElement & { type: string }>('sl-button')].find((b) => b.type === 'submit')
}

/** Submits the element's form with its submit button (the button clicks through Shoelace's form support). */
export async function submit(el: Element): Promise<void> {
  const button = await waitFor(() => submitButton(el.shadowRoot!), 'the submit button')
  await (button as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
  button.click()
  await sleep(0)
}

/** Collects the events of the given names fired on (or bubbling through) document. */
export function recordEvents(...names: string[]): { events: CustomEvent[]; stop: () => void } {
  const events: CustomEvent[] = []
  const listener = (e: Event) => events.push(e as CustomEvent)
  for (const n of names) document.addEventListener(n, listener)
  return { events, stop: () => names.forEach((n) => document.removeEventListener(n, listener)) }
}

/** Keeps elements used alone from leaving the test page: cancels every tollgate-navigate. */
export function stayOnPage(): { targets: string[]; stop: () => void } {
  const targets: string[] = []
  const listener = (e: Event) => {
    targets.push((e as CustomEvent<{ to: string }>).detail.to)
    e.preventDefault()
  }
  document.addEventListener('tollgate-navigate', listener)
  return { targets, stop: () => document.removeEventListener('tollgate-navigate', listener) }
}

/**
 * What every list screen's prefetch is checked for: `prefetch()` asks for the first page (a URL
 * holding one of `listUrls`) before any element shows the list, and the screen that `show` mounts
 * (resolving once the list is shown) takes that answer over without asking again.
 */
export async function expectPrefetchTakenOver(listUrls: string[], prefetch: () => void, show: () => Promise<unknown>): Promise<void> {
  const calls: string[] = []
  const original = window.fetch
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (listUrls.some((u) => url.includes(u))) calls.push(url)
    return original(input, init)
  }
  try {
    prefetch()
    await waitFor(() => calls.length === 1, 'asked before any element shows the list')
    await show()
    expect(calls).to.have.length(1, 'not asked again')
  } finally {
    window.fetch = original
  }
}

/** Arranges server options (OptionStore.set) on the real server. */
export function setOptions(options: Record<string, string | number | boolean>): Promise<unknown> {
  return executeServerCommand('tg-options', Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)])))
}

export function serverCommand<T = unknown>(command: string, payload?: unknown): Promise<T> {
  return executeServerCommand(command, payload) as Promise<T>
}

/** The text of the last mail the server sent to `to` (the suite's SMTP server keeps them). */
export async function lastMail(to: string, timeout = 5000): Promise<string> {
  const until = Date.now() + timeout
  for (;;) {
    const text = await serverCommand<string | null>('tg-last-mail', { to })
    if (text) return text
    if (Date.now() > until) throw new Error(`no mail to ${to}`)
    await sleep(50)
  }
}

/** Loads the public status from the real server into the store. */
export async function loadStatus(): Promise<void> {
  await refreshStatus()
  await waitFor(() => $status.get(), 'the status')
}

let counter = 0
/** A username no other test uses (at most 12 characters). */
export function uniqueName(prefix = 'u'): string {
  counter++
  return `${prefix}${Date.now().toString(36).slice(-6)}${counter}`.slice(0, 12)
}

/** What the console's client sends on every call: the header a state-changing GET needs (the server's CSRF rule). */
export const CONSOLE_HEADER: RequestInit = { headers: { 'X-Tollgate-Client': '1' } }

/**
 * The envelope of an answer read by a test's own call. An answer that is not JSON fails with its
 * status, address and first bytes, so a failure says which call broke and how (not only "Unexpected
 * end of JSON input").
 */
export async function envelopeOf<T = any>(res: Response): Promise<{ success: boolean; message: string; data: T }> {
  const text = await res.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`${res.status} from ${new URL(res.url, location.href).pathname}: not JSON: ${JSON.stringify(text.slice(0, 200))}`)
  }
}

/** An answer's envelope, with whatever else the route puts beside `data` (a total, a page). */
export type Envelope<T = any> = { success: boolean; message: string; data: T; [k: string]: unknown }

/** A test's own call of the server's API as the signed-in user (arrangement and checks): its envelope. */
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return envelopeOf(res)
}

/** A Shoelace control as the tests read and set it. */
export type Control = HTMLElement & {
  value: any
  checked?: boolean
  open?: boolean
  disabled?: boolean
  placeholder?: string
  updateComplete?: Promise<unknown>
}

/** Replaces the clipboard API for one test; the function it answers puts it back. */
export function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } })
  return () => {
    delete (navigator as unknown as Record<string, unknown>).clipboard
    if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original)
  }
}

/** A clipboard for one test that keeps what is written, or refuses it as a browser without the permission does. */
export function recordClipboard(refuse = false): { written: string[]; restore: () => void } {
  const written: string[] = []
  const restore = stubClipboard(async (text) => {
    if (refuse) throw new DOMException('denied', 'NotAllowedError')
    written.push(text)
  })
  return { written, restore }
}

/** Registers a user through the real API and signs it in (server cookie + stored user). */
export async function registerAndSignIn(username = uniqueName(), password = 'password123'): Promise<User> {
  const reg = await fetch('/api/user/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, password2: password, email: '', verification_code: '', aff_code: '' }),
  }).then(envelopeOf)
  if (!reg.success) throw new Error(reg.message)
  return signInAs(username, password)
}

export async function signInAs(username: string, password: string): Promise<User> {
  const res = await fetch('/api/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  }).then(envelopeOf)
  if (!res.success) throw new Error(res.message)
  $session.set(res.data)
  return res.data
}

/** Puts the page back as it was: elements removed, stores and storage cleared, server session ended, URL and clock restored. */
export async function cleanup(): Promise<void> {
  for (const el of mounted.splice(0)) el.remove()
  // signed out here first, while the server session still answers: what the stores do about it
  // (and what the test left on its way) is answered before the session ends
  $session.set(null)
  await requestsSettled()
  await fetch('/api/user/logout', CONSOLE_HEADER)
  await serverCommand('tg-reset-options')
  localStorage.clear()
  $session.set(null)
  $status.set(null)
  $toasts.set([])
  // setKey, not set({...get()}): $prefs shares the 'tollgate:' prefix with the stored user and
  // status, and writing the whole map back would restore them after localStorage.clear().
  $prefs.setKey('theme', 'light')
  $prefs.setKey('locale', 'en')
  $prefs.setKey('sidebar-collapsed', undefined)
  $config.set({ apiBase: '' })
  setClock(null)
  history.replaceState(null, '', START_URL)
  syncRoute()
}

/** cleanup() for the tests that resize the window: the window back to 1280 × 800 first. */
export async function cleanupAndResize(): Promise<void> {
  await setViewport({ width: 1280, height: 800 })
  await cleanup()
}

/** Sets the address bar (client-side) before mounting a console or an element that reads the query. */
export function goTo(path: string): void {
  history.replaceState(null, '', path)
  syncRoute()
}

/** The sum of the red, green and blue of a computed colour (under 200 reads as dark). */
function rgbSum(color: string): number {
  return color
    .match(/\d+/g)!
    .slice(0, 3)
    .map(Number)
    .reduce((a, b) => a + b, 0)
}

/**
 * In dark mode the part at `selector` is dark, and the element, used alone on a (light) host page,
 * paints its own dark background.
 */
export function expectPaintsDark(el: Element, selector: string): void {
  expect(rgbSum(getComputedStyle($(el, selector)!).backgroundColor)).to.be.below(200)
  const root = getComputedStyle($(el, '.tg-root')!).backgroundColor
  expect(root).to.not.equal('rgba(0, 0, 0, 0)')
  expect(rgbSum(root)).to.be.below(200)
}
