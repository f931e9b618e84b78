import { test, expect } from '@playwright/test'
import { fillField, newUsername, register, signIn, storedUser, submitForm } from './helpers.ts'

test.describe('accounts end to end', () => {
  test('a new user registers, signs in, lands on /token and signs out', async ({ page }) => {
    const username = newUsername('new')
    await register(page, username, 'a-good-password')
    await signIn(page, username, 'a-good-password')
    await expect(page).toHaveURL(/\/token$/)
    await expect(page.getByText('logged in', { exact: true }).first()).toBeVisible()
    expect((await storedUser(page))?.username).toBe(username)
    // the user menu in the top bar signs out
    await page.getByRole('button', { name: 'Account' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await expect.poll(() => storedUser(page)).toBeNull()
    // signed out, the guard sends a protected route to the login page
    await page.goto('/token')
    await expect(page).toHaveURL(/\/login/)
    // and the server agrees the session is gone
    const self = await page.request.get('/api/user/self')
    expect(self.status()).toBe(401)
  })

  test('root signing in with the default password is warned to change it', async ({ page }) => {
    await signIn(page, 'root', '123456')
    await expect(page).toHaveURL(/\/token$/)
    await expect(page.getByText('default super-administrator password').first()).toBeVisible()
  })

  test("a wrong password shows the server's message and stores no user", async ({ page }) => {
    await signIn(page, 'root', 'not-the-password')
    await expect(page.getByText('wrong username or password, or the user has been banned').first()).toBeVisible()
    await expect(page).toHaveURL(/\/login/)
    expect(await storedUser(page)).toBeNull()
  })

  test('a request answered 401 sends the user to /login with the expiry notice', async ({ page, context }) => {
    const username = newUsername('exp')
    await register(page, username, 'another-password')
    await signIn(page, username, 'another-password')
    await expect(page).toHaveURL(/\/token$/)
    // the session ends on the server side (cookie gone); the next call the console makes gets 401
    await context.clearCookies()
    await page.goto('/setting')
    await expect(page).toHaveURL(/\/login/)
    await expect(page.getByText('not logged in or login expired, please log in again').first()).toBeVisible()
    expect(await storedUser(page)).toBeNull()
  })

  test('validation messages of the register form come before any call', async ({ page }) => {
    await page.goto('/register')
    await fillField(page, 'username', newUsername('val'))
    await fillField(page, 'password', 'short')
    await fillField(page, 'password2', 'short')
    await submitForm(page)
    await expect(page.getByText('password length must not be under 8').first()).toBeVisible()
    await fillField(page, 'password', 'long-enough-1')
    await fillField(page, 'password2', 'long-enough-2')
    await submitForm(page)
    await expect(page.getByText('the two passwords differ').first()).toBeVisible()
  })

  test('every client route loads the console; unknown ones show the not-found page', async ({ page }) => {
    await page.goto('/pricing')
    await expect(page.locator('tollgate-console')).toBeAttached()
    await page.goto('/no/such/page')
    await expect(page.getByText('page does not exist, check your browser address').first()).toBeVisible()
  })
})
