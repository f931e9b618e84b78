/**
 * Issue 11 end to end: the documented snippet on another site (shop.test) embedding the gateway
 * (gateway.test), in Chromium with third-party cookies blocked. Sign-in, group prices, a redeemed
 * code, every element updated, a reload, sign-out and the old credential refused; the same with
 * the classic build and in a React 19 host; a site off the allow-list cannot sign in; the access
 * token never reaches the page; the bytes on the wire are measured.
 */
import { test, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test'
import { EMBED } from '../../playwright.embed.config.ts'

const PASSWORD = 'embed-password-1'
const MODEL = 'embed-model-1'
let root: APIRequestContext
/** the gateway as the test's own API clients reach it (not a browser: no site involved) */
const GATEWAY_API = EMBED.gateway.replace('gateway.test', '127.0.0.1')
let n = 0

/** Root's API session on the gateway (a same-origin client: the gateway's own Origin). */
async function rootApi(): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: GATEWAY_API, extraHTTPHeaders: { 'X-Tollgate-Client': '1' } })
  const r = await api.post('/api/user/login', { data: { username: 'root', password: '123456' } })
  expect((await r.json()).success).toBe(true)
  return api
}

async function data<T>(api: APIRequestContext, method: 'get' | 'post' | 'put', path: string, body?: unknown): Promise<T> {
  const res = await api[method](path, body === undefined ? {} : { data: body })
  const json = await res.json()
  expect(json.success, `${method} ${path}: ${json.message}`).toBe(true)
  return json.data as T
}

/** A new user in the vip group, and the permanent access token that must never reach the page. */
async function newVipUser(): Promise<{ username: string; accessToken: string }> {
  const username = `emb${Date.now().toString(36).slice(-5)}${n++}`
  await data(root, 'post', '/api/user/', { username, password: PASSWORD, display_name: username })
  const users = await data<{ items?: Array<{ id: number; username: string }> } | Array<{ id: number; username: string }>>(
    root,
    'get',
    `/api/user/search?keyword=${username}`,
  )
  const list = Array.isArray(users) ? users : (users.items ?? [])
  const id = list.find((u) => u.username === username)!.id
  await data(root, 'put', '/api/user/', { id, username, display_name: username, group: 'vip', quota: 0 })
  const self = await playwrightRequest.newContext({ baseURL: GATEWAY_API, extraHTTPHeaders: { 'X-Tollgate-Client': '1' } })
  await data(self, 'post', '/api/user/login', { username, password: PASSWORD })
  const accessToken = await data<string>(self, 'get', '/api/user/token')
  await self.dispose()
  return { username, accessToken }
}

const newCode = async () => (await data<string[]>(root, 'post', '/api/redemption/', { name: 'embed gift', quota: 5_000_000, count: 1 }))[0]!

/** Every tollgate-* event's detail, as the host page would see it. */
async function recordEvents(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = ((window as any).__tollgateEvents = [])
    for (const type of [
      'tollgate-login',
      'tollgate-logout',
      'tollgate-error',
      'tollgate-session-expired',
      'tollgate-navigate',
      'tollgate-topup',
    ])
      document.addEventListener(type, (e) => seen.push(`${type} ${JSON.stringify((e as CustomEvent).detail)}`))
  })
}

/** localStorage, sessionStorage, cookies and the events so far, as one text. */
async function everythingThePageKeeps(page: Page): Promise<string> {
  const inPage = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, events: (window as any).__tollgateEvents }),
  )
  return inPage + JSON.stringify(await page.context().cookies())
}

const credentialKey = `tollgate:session:${EMBED.gateway}`

/** The walk of the issue on one host page. */
async function walk(page: Page, url: string) {
  const { username, accessToken } = await newVipUser()
  const code = await newCode()
  await recordEvents(page)
  await page.goto(url)
  const login = page.locator('tollgate-login')
  const pricing = page.locator('tollgate-pricing')
  const topup = page.locator('tollgate-topup')
  await expect(pricing.getByText(MODEL).first()).toBeVisible()

  await login.getByLabel('Username', { exact: true }).fill(username)
  await login.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await login.locator('form').getByRole('button').last().click()
  await expect(login.locator('[data-signed-in] [data-user]')).toHaveText(username)
  await expect(page).toHaveURL(url)
  await expect(pricing.getByText('Prices for your group, vip').first()).toBeVisible()

  await topup.getByLabel('Redemption code').fill(code)
  await topup.getByRole('button', { name: 'Redeem', exact: true }).click()
  await expect(topup.getByText('Added $10.00 to your balance.')).toBeVisible()
  // every element shows the new balance, without a reload
  await expect(login.locator('[data-balance]')).toHaveText('$10.00')
  await expect(topup.locator('[part="balance"]')).toContainText('$10.00')

  const stored = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), credentialKey))!)
  expect(stored.token).toMatch(/^tgs_/)
  expect(stored.expires_at).toBeGreaterThan(Date.now() / 1000)
  const kept = await everythingThePageKeeps(page)
  expect(kept).not.toContain(accessToken)
  expect(kept).not.toContain('access_token')

  await page.reload()
  await expect(login.locator('[data-signed-in] [data-user]')).toHaveText(username)
  await expect(login.locator('[data-balance]')).toHaveText('$10.00')

  // the credential works from the shop's origin only, and ends with the sign-out
  const asShop = { headers: { authorization: `Bearer ${stored.token}`, origin: new URL(url).origin } }
  const gw = await playwrightRequest.newContext()
  expect((await gw.get(`${GATEWAY_API}/api/user/self`, asShop)).status()).toBe(200)
  await login.locator('[part~="signout-button"]').click()
  await expect(login.getByLabel('Username', { exact: true })).toBeVisible()
  expect(await page.evaluate((key) => localStorage.getItem(key), credentialKey)).toBeNull()
  expect(await page.evaluate(() => (window as any).__tollgateEvents.filter((e: string) => e.startsWith('tollgate-logout')).length)).toBe(3)
  expect((await gw.get(`${GATEWAY_API}/api/user/self`, asShop)).status()).toBe(401)
  await gw.dispose()
  const after = await everythingThePageKeeps(page)
  expect(after).not.toContain(accessToken)
  expect(after).not.toContain('access_token')
}

test.beforeAll(async () => {
  root = await rootApi()
  await data(root, 'put', '/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 0.5 }) })
  await data(root, 'post', '/api/channel/', {
    name: 'embed channel',
    type: 1,
    key: 'k',
    base_url: 'http://127.0.0.1:9',
    models: MODEL,
    group: 'default,vip',
  })
})

test.afterAll(async () => {
  await root.dispose()
})

test('Chromium here refuses third-party cookies (the reason the credential is a bearer)', async ({ page, context }) => {
  await page.goto(`${EMBED.probe}/set`)
  expect((await context.cookies(EMBED.probe)).map((c) => c.name)).toContain('probe')
  await page.goto(`${EMBED.probe}/echo`)
  expect(await page.textContent('body')).toContain('probe=1')
  await page.goto(`${EMBED.shop}/blank.html`)
  const seen = await page.evaluate((url) => fetch(url, { credentials: 'include' }).then((r) => r.json()), `${EMBED.probe}/echo`)
  expect(seen.cookie).toBe('')
})

test('the documented snippet on another site: sign in, prices, top-up, reload, sign out, old credential refused', async ({ page }) => {
  await walk(page, `${EMBED.shop}/`)
})

test('the same walk with the classic build', async ({ page }) => {
  await walk(page, `${EMBED.shop}/classic.html`)
})

test('the same walk in a React 19 host built by Vite', async ({ page }) => {
  await walk(page, `${EMBED.shop}/react/`)
  await expect(page.locator('[data-host-user]')).toHaveText('Not signed in')
})

test('a site that is not on the allow-list sees prices but cannot sign in', async ({ page }) => {
  const { username } = await newVipUser()
  await page.goto(`${EMBED.evil}/`)
  const login = page.locator('tollgate-login')
  await expect(page.locator('tollgate-pricing').getByText(MODEL).first()).toBeVisible()
  await login.getByLabel('Username', { exact: true }).fill(username)
  await login.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await login.locator('form').getByRole('button').last().click()
  await expect(login.getByText('This site is not allowed to sign in to this gateway.', { exact: false }).first()).toBeVisible()
  await expect(login.locator('[data-signed-in]')).toHaveCount(0)
  expect(await page.evaluate((key) => localStorage.getItem(key), credentialKey)).toBeNull()
})

test('configure() in a second module script is applied before any element asks anything', async ({ page }) => {
  const api: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) api.push(new URL(request.url()).host)
  })
  for (let i = 0; i < 8; i++) {
    await page.goto(`${EMBED.shop}/configured.html`)
    await expect(page.locator('tollgate-pricing').getByText(MODEL).first()).toBeVisible()
    await page.evaluate(() => localStorage.clear())
  }
  expect(api.length).toBeGreaterThanOrEqual(8)
  expect([...new Set(api)]).toEqual([new URL(GATEWAY_API).host])
})

/** Compressed bytes on the wire (headers and bodies) of every answer from the gateway, on a cold cache. */
async function bytesOnTheWire(
  page: Page,
  url: string,
  ready: () => Promise<void>,
): Promise<{ bytes: number; files: number; plain: string[] }> {
  const responses: Array<Promise<{ size: number; plain: string }>> = []
  page.on('requestfinished', (request) => {
    if (!request.url().startsWith(EMBED.gateway)) return
    responses.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        size: sizes.responseBodySize + sizes.responseHeadersSize,
        // a file too small to gain from compression has no compressed copy
        plain:
          request.url().endsWith('.js') && sizes.responseBodySize > 1000 && !response?.headers()['content-encoding'] ? request.url() : '',
      })),
    )
  })
  await page.goto(url)
  await ready()
  await page.waitForLoadState('networkidle')
  const all = await Promise.all(responses)
  return { bytes: all.reduce((s, r) => s + r.size, 0), files: all.length, plain: all.map((r) => r.plain).filter(Boolean) }
}

test('bytes on the wire: the three-element page and the console first view, compressed', async ({ page, browser }) => {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`
  const shop = await bytesOnTheWire(page, `${EMBED.shop}/`, () =>
    expect(page.locator('tollgate-pricing').getByText(MODEL).first()).toBeVisible(),
  )
  const fresh = await browser.newPage()
  const console_ = await bytesOnTheWire(fresh, `${EMBED.gateway}/`, () =>
    expect(fresh.locator('tollgate-console [part="content"]')).toBeVisible(),
  )
  await fresh.close()
  console.log(
    `bytes on the wire: three-element page ${kb(shop.bytes)} in ${shop.files} answers; console first view ${kb(console_.bytes)} in ${console_.files} answers`,
  )
  // every script came compressed (gzip here: Chromium asks for brotli over https only)
  expect(shop.plain).toEqual([])
  expect(console_.plain).toEqual([])
  expect(shop.bytes).toBeLessThan(260_000)
  expect(console_.bytes).toBeLessThan(300_000)
})
