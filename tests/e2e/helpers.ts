import { expect, type Page } from '@playwright/test'

let n = 0
/** A username that is new in this run (at most 12 characters, as the server allows). */
export function newUsername(prefix = 'e2e'): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${(n++).toString(36)}`.slice(0, 12)
}

const LABELS: Record<string, string> = { username: 'Username', password: 'Password', password2: 'Confirm password' }

/** Types into a labelled input of the page (Playwright's locators pierce open shadow roots). */
export async function fillField(page: Page, name: string, value: string) {
  await page.getByLabel(LABELS[name] ?? name, { exact: true }).first().fill(value)
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
