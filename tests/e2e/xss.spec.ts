import { test, expect, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { apiAs, apiData, startOwnServer, UPSTREAM_URL } from './helpers.ts'
import { allPayloads, findDangerousMarkup, packedPayloads, shortPayloads, XSS_PAYLOADS } from '../xss-corpus.ts'

/**
 * Issue 10, the XSS corpus in Chromium: forty payloads in every admin-HTML option and in every
 * field a user or an admin writes and someone else reads (display name, token name and model
 * limits, channel name, models and group, redemption name, the model name of a logged call),
 * then every screen of the console as root and as the user. The browser ignores the console's
 * CSP here (an embedding site has none of ours), so a payload that reaches the live page runs:
 * nothing may run (no `_x` call, no dialog) and nothing dangerous may even reach the DOM.
 * (With the CSP on, DOMPurify's parse of a handler attribute is reported as a blocked
 * `script-src-attr` though nothing runs: that report is not a finding, hence this design.)
 *
 * The short run plants all payloads at once; `XSS_EACH=1` (npm run attack) plants each payload
 * alone in the HTML options and visits the screens that render them, forty times.
 */

const EACH = process.env.XSS_EACH === '1'
const USER = 'xssuser'
const PASSWORD = 'xss-password-1'

let server: { baseURL: string; stop: () => Promise<void> } | null = null

test.describe.configure({ mode: 'serial' })
test.beforeAll(async () => {
  server = await startOwnServer('tests/e2e/.data-xss')
})
test.afterAll(async () => {
  await server?.stop()
})

const HTML_OPTIONS = ['Notice', 'About', 'HomePageContent', 'Footer'] as const

async function setHtmlOptions(root: APIRequestContext, value: string) {
  for (const key of HTML_OPTIONS) await apiData(root, 'put', '/api/option/', { key, value })
}

/** Plants the corpus in every place a person writes and another reads. */
async function plant(baseURL: string) {
  const root = await apiAs(baseURL)
  await setHtmlOptions(root, allPayloads())
  await apiData(root, 'put', '/api/option/', { key: 'SystemName', value: shortPayloads(30)[0] })
  await apiData(root, 'post', '/api/user/', { username: USER, password: PASSWORD, display_name: shortPayloads(20)[0] })
  const model = shortPayloads(40).find((p) => !p.includes(','))!
  // channel names are at most 128 characters: the corpus packed into a few channels, the last one relays
  const names = packedPayloads(128)
  for (const name of names.slice(0, -1)) {
    await apiData(root, 'post', '/api/channel/', {
      type: 1,
      name,
      key: 'sk-xss',
      base_url: UPSTREAM_URL,
      group: 'default',
      models: 'gpt-4o-mini',
    })
  }
  const [channelId] = await apiData<Array<{ id: number }>>(root, 'post', '/api/channel/', {
    type: 1,
    name: names[names.length - 1],
    key: 'sk-xss',
    base_url: UPSTREAM_URL,
    group: 'default',
    models: `gpt-4o-mini,${model}`,
    model_mapping: JSON.stringify({ [model]: 'gpt-4o-mini' }),
  }).then((ids) => ids.map((c) => c.id))
  expect(channelId).toBeGreaterThan(0)
  for (const name of shortPayloads(20)) await apiData(root, 'post', '/api/redemption/', { name, quota: 1000, count: 1 })

  const user = await apiAs(baseURL, USER, PASSWORD)
  const tokens: string[] = []
  for (const name of shortPayloads(30)) {
    const t = await apiData<{ key: string }>(user, 'post', '/api/token/', {
      name,
      unlimited_quota: true,
      model_limits_enabled: false,
      model_limits: shortPayloads(30).slice(0, 3).join(','),
    })
    tokens.push(t.key)
  }
  // a logged call under a payload model name and token name, read by root in the logs
  await apiData(root, 'put', '/api/user/', { id: (await apiData<{ id: number }>(user, 'get', '/api/user/self')).id, quota: 50_000_000 })
  // the relay learns of the new quota from the change bus a moment later: retry until it has
  const call = async () =>
    (
      await user.post('/v1/chat/completions', {
        headers: { authorization: `Bearer sk-${tokens[0]}` },
        data: { model, messages: [{ role: 'user', content: XSS_PAYLOADS.join(' ') }] },
      })
    ).status()
  await expect.poll(call, { timeout: 10_000 }).toBe(200)
  await expect
    .poll(async () => (await apiData<unknown[]>(root, 'get', '/api/log/?p=0&page_size=10&type=2')).length, { timeout: 10_000 })
    .toBeGreaterThan(0)
  await root.dispose()
  await user.dispose()
}

interface Watch {
  dialogs: string[]
}

/** A signed-in page that records every way a payload could show it ran. */
async function openAs(browser: Browser, baseURL: string, username: string, password: string): Promise<{ page: Page; watch: Watch }> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', bypassCSP: true })
  const r = await context.request.post('/api/user/login', { data: { username, password } })
  const user = (await r.json()).data
  await context.addInitScript((u) => {
    localStorage.setItem('tollgate:user', JSON.stringify(u))
    localStorage.setItem('tollgate:locale', JSON.stringify('en'))
    const w = window as unknown as { _x: (n: number) => void; __ran: number[] }
    w.__ran = []
    w._x = (n) => w.__ran.push(n)
  }, user)
  const page = await context.newPage()
  const watch: Watch = { dialogs: [] }
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message())
    void d.dismiss()
  })
  return { page, watch }
}

/** Visits a route, lets it settle, and returns what the payloads managed to do there. */
async function visit(page: Page, route: string): Promise<string[]> {
  await page.goto(route)
  await expect(page.locator('tollgate-console')).toBeVisible()
  await page.waitForLoadState('networkidle')
  // the rows and details that render user fields: open the first expandable row if any
  const expand = page.locator('[data-action="expand"], [aria-expanded="false"]').first()
  if (await expand.count()) await expand.click({ timeout: 1000 }).catch(() => undefined)
  await page.waitForTimeout(150)
  const ran = await page.evaluate(() => (window as unknown as { __ran: number[] }).__ran.splice(0))
  const markup = await page.evaluate(findDangerousMarkup)
  return [...ran.map((n) => `${route}: payload ${n} ran: ${XSS_PAYLOADS[n - 1]}`), ...markup.map((m) => `${route}: ${m}`)]
}

const ROOT_ROUTES = [
  '/',
  '/about',
  '/token',
  '/channel',
  '/log',
  '/redemption',
  '/user',
  '/setting',
  '/topup',
  '/pricing',
  '/detail',
  '/task',
]
const USER_ROUTES = ['/', '/about', '/token', '/log', '/topup', '/pricing', '/setting', '/detail']

test('forty XSS payloads in every written field run nowhere in the console, for root or the user', async ({ browser }) => {
  test.setTimeout(120_000)
  const baseURL = server!.baseURL
  await plant(baseURL)
  const findings: string[] = []
  for (const [who, password, routes] of [
    ['root', '123456', ROOT_ROUTES],
    [USER, PASSWORD, USER_ROUTES],
  ] as const) {
    const { page, watch } = await openAs(browser, baseURL, who, password)
    for (const route of routes) findings.push(...(await visit(page, route)).map((f) => `${who} ${f}`))
    findings.push(...watch.dialogs.map((d) => `${who}: a dialog opened: ${d}`))
    await page.context().close()
  }
  expect(findings).toEqual([])
})

// the long run only: registered when asked for, so the short run reports no skipped test
if (EACH)
  test('each payload alone in the admin-HTML options runs nowhere', async ({ browser }) => {
    test.setTimeout(600_000)
    const baseURL = server!.baseURL
    const root = await apiAs(baseURL)
    const { page, watch } = await openAs(browser, baseURL, 'root', '123456')
    const findings: string[] = []
    for (const payload of XSS_PAYLOADS) {
      await setHtmlOptions(root, payload)
      for (const route of ['/', '/about', '/setting']) findings.push(...(await visit(page, route)))
    }
    findings.push(...watch.dialogs.map((d) => `a dialog opened: ${d}`))
    await root.dispose()
    console.log(
      `xss: ${XSS_PAYLOADS.length} payloads, each alone in ${HTML_OPTIONS.length} options, 3 screens: ${findings.length} findings`,
    )
    expect(findings).toEqual([])
  })
