import { test, expect } from '@playwright/test'
import { signInAsRoot } from './helpers.ts'

/** Issue 10 item 9: the console runs under its Content-Security-Policy without a single violation. */
test.describe('security headers end to end', () => {
  test('every screen of the console runs under the CSP, with no violation', async ({ page }) => {
    const violations: string[] = []
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        ;(window as unknown as { __csp: string[] }).__csp ??= []
        ;(window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`)
      })
    })
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    const res = await page.goto('/')
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
    expect(res?.headers()['x-frame-options']).toBe('SAMEORIGIN')
    await signInAsRoot(page)
    for (const route of [
      '/token',
      '/channel',
      '/log',
      '/redemption',
      '/user',
      '/setting',
      '/topup',
      '/pricing',
      '/about',
      '/detail',
      '/',
    ]) {
      await page.goto(route)
      await expect(page.locator('tollgate-console')).toBeVisible()
      await page.waitForLoadState('networkidle')
      const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
      violations.push(...seen.map((v) => `${route}: ${v}`))
    }
    expect(violations).toEqual([])
  })
})
