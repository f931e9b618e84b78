import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test'
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { UPSTREAM_PORT } from '../browser-suites.ts'

let n = 0
/** A username that is new in this run (at most 12 characters, as the server allows). */
export function newUsername(prefix = 'e2e'): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${(n++).toString(36)}`.slice(0, 12)
}

const LABELS: Record<string, string> = { username: 'Username', password: 'Password', password2: 'Confirm password' }

/** Types into a labelled input of the page (Playwright's locators pierce open shadow roots). */
export async function fillField(page: Page, name: string, value: string) {
  await page
    .getByLabel(LABELS[name] ?? name, { exact: true })
    .first()
    .fill(value)
}

/** Presses the submit button of the page's form (Sign in, Create account, …). */
export async function submitForm(page: Page) {
  await page.locator('form').first().getByRole('button').last().click()
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login')
  await fillField(page, 'username', username)
  await fillField(page, 'password', password)
  await submitForm(page)
}

export async function register(page: Page, username: string, password: string) {
  await page.goto('/register')
  await fillField(page, 'username', username)
  await fillField(page, 'password', password)
  await fillField(page, 'password2', password)
  await submitForm(page)
  await expect(page.getByText('registered', { exact: true }).first()).toBeVisible()
}

/** The user the console keeps in localStorage, or null. */
export function storedUser(page: Page): Promise<{ username: string; role: number } | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('tollgate:user')
    return raw ? JSON.parse(raw) : null
  })
}

/** The fake OpenAI-compatible upstream playwright.config.ts starts beside the server. */
export const UPSTREAM_URL = `http://127.0.0.1:${UPSTREAM_PORT}`

/** The SQLite file of the e2e server (playwright.config.ts: DATA_DIR tests/e2e/.data). */
export const E2E_DATABASE = resolve('tests/e2e/.data/tollgate.db')

/** Signs root in through the login page; the page's context (and page.request) is then root's. */
export async function signInAsRoot(page: Page) {
  await signIn(page, 'root', '123456')
  await expect(page).toHaveURL(/\/token$/)
  // the default-password warning stays 20 s over the top right of the page: root reads it and closes it
  const warning = page.getByRole('alert').filter({ hasText: 'default super-administrator password' })
  await warning.getByRole('button', { name: 'Close' }).click()
  await expect(warning).toHaveCount(0)
  await closeToasts(page)
}

/**
 * Closes the toasts on screen, as a user does when one covers a button (the stack sits over
 * the top right of the page, where the page headers keep their main action).
 */
export async function closeToasts(page: Page) {
  const close = page.locator('[part="toasts"]').getByRole('button', { name: 'Close' })
  for (let i = 0; i < 6; i++) {
    if ((await close.count()) === 0) return
    // a toast may close itself meanwhile: then there is nothing left to click
    await close
      .first()
      .click({ timeout: 1000 })
      .catch(() => undefined)
  }
}

/**
 * A request context of its own, signed in through the API (root unless told otherwise). It sends
 * the console's header, which the server's CSRF rule asks of the GETs that change state.
 */
export async function apiAs(baseURL: string, username = 'root', password = '123456'): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { 'X-Tollgate-Client': '1' } })
  const r = await api.post('/api/user/login', { data: { username, password } })
  const body = await r.json()
  if (!body.success) throw new Error(`sign-in of ${username} failed: ${body.message}`)
  return api
}

/** Calls the API and returns `data`, failing the test on success:false (with the server's message). */
export async function apiData<T = any>(
  api: APIRequestContext,
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  data?: unknown,
): Promise<T> {
  const r = await api[method](path, data === undefined ? undefined : { data })
  const body = await r.json()
  expect(body.success, `${method.toUpperCase()} ${path}: ${body.message}`).toBe(true)
  return body.data as T
}

/** A toast (or any text) with these words is shown somewhere on the page. */
export async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.getByText(text).first()).toBeVisible()
}

/**
 * A Shoelace drawer or dialog by its accessible name. Its role="dialog" panel sits in the
 * element's shadow root while the fields are slotted light-DOM children, so the locator is the
 * sl-drawer / sl-dialog host that holds both.
 */
export function overlay(page: Page, name: string) {
  return page.locator('sl-drawer, sl-dialog').filter({ has: page.getByRole('dialog', { name, exact: true }) })
}

/**
 * A second gateway server of a spec's own (same build, fresh SQLite in `dataDir`, a free port),
 * for a spec whose data must not mix with what the other specs leave on the shared server.
 */
export async function startOwnServer(dataDir: string, { keep = false } = {}): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  if (!keep) rmSync(dataDir, { recursive: true, force: true })
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'e2e-secret',
      CRITICAL_RATE_LIMIT: '10000',
      API_RATE_LIMIT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start in 20 s: ${out}`)), 20_000)
    const seen = () => {
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        child.stdout.off('data', seen)
        done(Number(m[1]))
      }
    }
    child.stdout.on('data', seen)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`the server exited with ${code}: ${out}`))
    })
  })
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
  return { baseURL: `http://127.0.0.1:${port}`, stop }
}
