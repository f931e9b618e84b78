import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { apiAs, apiData, startOwnServer, UPSTREAM_URL } from './helpers.ts'

/**
 * Screenshots of every screen of the console, light and dark, at 1280 x 800 (and three at
 * 375 px), into test-results/screenshots/ on every run, and into docs/screenshots/ (the README
 * links them) with `npm run screenshots`. Realistic data is arranged first
 * through the API: channels against the fake upstream, tokens, users, redemption codes, an
 * announcement, and relay calls so the logs and the dashboard have rows.
 *
 * The spec runs its own server (same build, its own fresh SQLite): the pictures then show only
 * this data, whatever the other specs left on the shared one and in whatever order they ran.
 */

const OUT = resolve(process.env.SCREENSHOTS_DIR ?? 'test-results/screenshots')
type Theme = 'light' | 'dark'
type Who = 'anon' | 'root'

interface Shot {
  name: string
  path: string
  who: Who
  /** texts that show once the screen has its data */
  ready: Array<string | RegExp>
}

const SHOTS: Shot[] = [
  { name: 'login', path: '/login', who: 'anon', ready: ['Welcome back. Sign in to manage your tokens, quota and usage.'] },
  { name: 'register', path: '/register', who: 'anon', ready: ['Create your account'] },
  { name: 'reset', path: '/reset', who: 'anon', ready: ['Reset your password'] },
  { name: 'home', path: '/', who: 'anon', ready: ['One key, every model', 'Scheduled maintenance'] },
  { name: 'tokens', path: '/token', who: 'root', ready: ['Production app', 'Nightly evaluation'] },
  { name: 'wallet', path: '/topup', who: 'root', ready: ['Current balance', 'Redeem a code', /^\d+\.\d\d$/] },
  { name: 'pricing', path: '/pricing', who: 'root', ready: ['gpt-4o-mini'] },
  { name: 'logs', path: '/log', who: 'root', ready: ['claude-3-5-sonnet-20241022', /Quota used/] },
  { name: 'settings-personal', path: '/setting', who: 'root', ready: ['Models you can call (click to copy)'] },
  { name: 'settings-operation', path: '/setting?tab=operation', who: 'root', ready: ['Ratios', 'General'] },
  { name: 'settings-system', path: '/setting?tab=system', who: 'root', ready: ['Login and registration'] },
  { name: 'settings-other', path: '/setting?tab=other', who: 'root', ready: ['Home page content'] },
  { name: 'channels', path: '/channel', who: 'root', ready: ['OpenAI primary', 'Anthropic direct'] },
  { name: 'channel-edit', path: '/channel/edit/{channel}', who: 'root', ready: ['Edit channel', 'Model mapping'] },
  { name: 'users', path: '/user', who: 'root', ready: ['alice', 'Operations Bob'] },
  { name: 'redemptions', path: '/redemption', who: 'root', ready: ['Spring promo'] },
  { name: 'dashboard', path: '/detail', who: 'root', ready: ['Quota by model', 'gpt-4o-mini'] },
  { name: 'tasks-midjourney', path: '/midjourney', who: 'root', ready: ['Drawing'] },
]

const MOBILE: Shot[] = [
  { name: 'login-375', path: '/login', who: 'anon', ready: ['Welcome back. Sign in to manage your tokens, quota and usage.'] },
  { name: 'tokens-375', path: '/token', who: 'root', ready: ['Production app'] },
  { name: 'logs-375', path: '/log', who: 'root', ready: ['claude-3-5-sonnet-20241022'] },
]

let channelId = 0
let offlineId = 0
let rootUser: unknown = null
let server: { baseURL: string; stop: () => Promise<void> } | null = null

/** POST /api/user/login answers the user the console keeps in localStorage. */
async function login(api: APIRequestContext, username: string, password: string) {
  const r = await api.post('/api/user/login', { data: { username, password } })
  const body = await r.json()
  expect(body.success, body.message).toBe(true)
  return body.data
}

async function relay(api: APIRequestContext, key: string, model: string, content: string, extra: Record<string, unknown> = {}) {
  const r = await api.post('/v1/chat/completions', {
    headers: { authorization: `Bearer sk-${key}` },
    data: { model, messages: [{ role: 'user', content }], ...extra },
  })
  expect(r.status(), `${model}: ${await r.text()}`).toBe(200)
}

/** Five channels: two tested, one paused, one overflow, one whose upstream refuses (its failed test stays on the row). */
async function arrangeChannels(root: APIRequestContext) {
  const channel = async (body: Record<string, unknown>) =>
    (await apiData<Array<{ id: number }>>(root, 'post', '/api/channel/', { group: 'default', base_url: UPSTREAM_URL, ...body }))[0]!.id
  channelId = await channel({
    name: 'OpenAI primary',
    type: 1,
    key: 'sk-proj-primary',
    models: 'gpt-4o,gpt-4o-mini,text-embedding-3-small',
    priority: 10,
    weight: 5,
  })
  const anthropic = await channel({
    name: 'Anthropic direct',
    type: 14,
    key: 'sk-ant-direct',
    models: 'claude-3-5-sonnet-20241022,claude-3-5-haiku-20241022',
    weight: 3,
  })
  await channel({ name: 'OpenAI overflow', type: 1, key: 'sk-proj-overflow', models: 'gpt-4o-mini', priority: 0, weight: 1 })
  const gemini = await channel({ name: 'Gemini (paused)', type: 24, key: 'AIza-demo-key', models: 'gemini-1.5-pro,gemini-1.5-flash' })
  for (const id of [channelId, anthropic]) {
    const r = await (await root.get(`/api/channel/test/${id}`, { headers: { 'X-Tollgate-Client': '1' } })).json()
    expect(r.success, r.message).toBe(true)
  }
  await apiData(root, 'put', '/api/channel/', { id: gemini, status: 2 })
  // a channel whose upstream refuses the connection: its failed test stays on the row
  offlineId = await channel({ name: 'Offline relay', type: 1, key: 'sk-offline', models: 'gpt-4o-mini', base_url: 'http://127.0.0.1:1' })
  const offline = await (await root.get(`/api/channel/test/${offlineId}`, { headers: { 'X-Tollgate-Client': '1' } })).json()
  expect(offline.success).toBe(false)
}

/** Root's three tokens; the production one's key. */
async function arrangeTokens(root: APIRequestContext): Promise<string> {
  const token = (body: Record<string, unknown>) => apiData<{ key: string }>(root, 'post', '/api/token/', body)
  const production = await token({ name: 'Production app', unlimited_quota: true })
  await token({ name: 'Staging', remain_quota: 5_000_000, expired_time: Math.floor(Date.now() / 1000) + 30 * 86400 })
  await token({
    name: 'Nightly evaluation',
    remain_quota: 2_000_000,
    model_limits_enabled: true,
    model_limits: 'gpt-4o-mini,claude-3-5-haiku-20241022',
  })
  return production.key
}

/** An ordinary user with a balance, an administrator, a banned account. */
async function arrangeUsers(root: APIRequestContext) {
  const user = async (username: string, display_name: string, extra: { role?: number } = {}) => {
    await apiData(root, 'post', '/api/user/', { username, display_name, password: 'demo-password-1', ...extra })
    return (await apiData<Array<{ id: number; username: string }>>(root, 'get', `/api/user/search?keyword=${username}`)).find(
      (u) => u.username === username,
    )!.id
  }
  const alice = await user('alice', 'Alice Chen')
  await apiData(root, 'put', '/api/user/', { id: alice, quota: 12_500_000 })
  await user('bob', 'Operations Bob', { role: 10 })
  await user('mallory', 'Mallory')
  await apiData(root, 'post', '/api/user/manage', { username: 'mallory', action: 'disable' })
}

/**
 * Relay calls by root (with `productionKey`) and by alice (who first redeems `code`), so the logs
 * and the dashboard have rows; how many consumption rows they write.
 */
async function arrangeCalls(baseURL: string, root: APIRequestContext, productionKey: string, code: string): Promise<number> {
  const aliceApi = await apiAs(baseURL, 'alice', 'demo-password-1')
  await apiData(aliceApi, 'post', '/api/user/topup', { key: code })
  const aliceToken = await apiData<{ key: string }>(aliceApi, 'post', '/api/token/', { name: 'Notebook', unlimited_quota: true })
  const calls: Array<[string, string, string, Record<string, unknown>?]> = [
    [productionKey, 'gpt-4o-mini', 'Summarise the release notes in three bullet points.'],
    [productionKey, 'gpt-4o-mini', 'Translate "good morning" into French.'],
    [productionKey, 'gpt-4o', 'Draft a polite reminder about the invoice due on Friday.'],
    [productionKey, 'claude-3-5-sonnet-20241022', 'Review this function for off-by-one errors.', { stream: true }],
    [aliceToken.key, 'claude-3-5-sonnet-20241022', 'Explain vector databases to a product manager.'],
    [aliceToken.key, 'gpt-4o-mini', 'Write a haiku about gateways.'],
    [aliceToken.key, 'claude-3-5-haiku-20241022', 'Classify this ticket: "cannot log in after reset".'],
  ]
  for (const [key, model, content, extra] of calls) await relay(root, key, model, content, extra)
  const emb = await root.post('/v1/embeddings', {
    headers: { authorization: `Bearer sk-${productionKey}` },
    data: { model: 'text-embedding-3-small', input: 'tollgate' },
  })
  expect(emb.status()).toBe(200)
  await aliceApi.dispose()
  return calls.length + 1
}

/** Channels, tokens, users, codes, an announcement and relay calls, as a running site would have. */
async function arrange(baseURL: string) {
  const root = await apiAs(baseURL)
  await arrangeChannels(root)

  await apiData(root, 'put', '/api/option/', {
    key: 'Notice',
    value: 'Scheduled maintenance on Sunday, 02:00 to 03:00 UTC. Requests may be slower during the window.',
  })

  const productionKey = await arrangeTokens(root)
  await arrangeUsers(root)

  // redemption codes: one batch redeemed in part
  const codes = await apiData<string[]>(root, 'post', '/api/redemption/', { name: 'Spring promo', quota: 2_500_000, count: 3 })
  await apiData(root, 'post', '/api/redemption/', { name: 'Partner credit', quota: 25_000_000, count: 1 })

  const rows = await arrangeCalls(baseURL, root, productionKey, codes[0]!)

  // logs and dashboard figures are written in batches
  const since = Math.floor(Date.now() / 1000) - 3600
  await expect
    .poll(async () => (await apiData<unknown[]>(root, 'get', `/api/log/?p=0&page_size=100&type=2&start_timestamp=${since}`)).length, {
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(rows)
  await root.dispose()
}

/**
 * The dashboard's buckets are written every DataExportInterval minutes (at least one) and when the
 * server stops: a restart on the same data writes them now, as an operator's restart would.
 */
async function restartWithBuckets(dir: string): Promise<void> {
  await server!.stop()
  server = await startOwnServer(dir, { keep: true })
  const root = await apiAs(server.baseURL)
  expect((await apiData<unknown[]>(root, 'get', '/api/data/')).length).toBeGreaterThan(0)
  rootUser = await login(root, 'root', '123456')
  await root.dispose()
}

/** A browser context in one theme, signed in as root or not, at the given size. */
async function contextFor(
  browser: Browser,
  baseURL: string,
  theme: Theme,
  who: Who,
  width: number,
  height: number,
  lang: 'en' | 'zh' = 'en',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height },
    colorScheme: theme,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    timezoneId: 'UTC',
    deviceScaleFactor: 1,
  })
  if (who === 'root') await login(context.request, 'root', '123456')
  await context.addInitScript(
    ({ theme, user, lang }) => {
      localStorage.setItem('tollgate:theme', JSON.stringify(theme))
      localStorage.setItem('tollgate:locale', JSON.stringify(lang))
      if (user) localStorage.setItem('tollgate:user', JSON.stringify(user))
      else localStorage.removeItem('tollgate:user')
    },
    { theme, user: who === 'root' ? rootUser : null, lang },
  )
  return context
}

/**
 * Waits until the screen has settled: no skeleton or spinner on screen, every Shoelace icon
 * drawn, fonts loaded. Returns the names of icons that never drew (reported, not fatal).
 */
async function settle(page: Page): Promise<string[]> {
  const check = () =>
    page.evaluate(() => {
      const all: Element[] = []
      const walk = (root: Document | ShadowRoot) => {
        for (const el of root.querySelectorAll('*')) {
          all.push(el)
          if (el.shadowRoot) walk(el.shadowRoot)
        }
      }
      walk(document)
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect()
        return r.width > 0 && r.height > 0
      }
      const busy = all.some((el) => (el.localName === 'sl-skeleton' || el.localName === 'sl-spinner') && shown(el))
      const blank = all
        .filter((el) => el.localName === 'sl-icon' && shown(el))
        .filter(
          (el) =>
            ((el as HTMLElement & { name?: string }).name || (el as HTMLElement & { src?: string }).src) &&
            !el.shadowRoot?.querySelector('svg'),
        )
        .map((el) => (el as HTMLElement & { name?: string }).name ?? '?')
      return { busy, blank, fonts: document.fonts.status === 'loaded' }
    })
  let last = { busy: true, blank: [] as string[], fonts: false }
  for (let i = 0; i < 40; i++) {
    last = await check()
    if (!last.busy && last.blank.length === 0 && last.fonts) return []
    await page.waitForTimeout(100)
  }
  expect(last.busy, 'a skeleton or spinner is still on screen').toBe(false)
  return last.blank
}

async function shoot(browser: Browser, baseURL: string, theme: Theme, shots: Shot[], width: number, height: number) {
  mkdirSync(OUT, { recursive: true })
  const contexts = new Map<Who, BrowserContext>()
  // a page per person, each screen a fresh document in it: a new page started a renderer process
  // for each screen, which on this kind of machine cost more than drawing it
  const pages = new Map<Who, Page>()
  let errors: string[] = []
  const problems: string[] = []
  try {
    for (const shot of shots) {
      if (!contexts.has(shot.who)) contexts.set(shot.who, await contextFor(browser, baseURL, theme, shot.who, width, height))
      let page = pages.get(shot.who)
      if (!page) {
        pages.set(shot.who, (page = await contexts.get(shot.who)!.newPage()))
        page.on('pageerror', (e) => errors.push(e.message))
      }
      errors = []
      await page.goto(shot.path.replace('{channel}', String(channelId)))
      await expect(page.locator('tollgate-console')).toBeAttached()
      for (const text of shot.ready) await expect(page.getByText(text).first(), `${shot.name}: ${text}`).toBeVisible()
      const blank = await settle(page)
      if (blank.length) problems.push(`${shot.name}-${theme}: icons not drawn: ${blank.join(', ')}`)
      await page.mouse.move(0, height - 1)
      await page.screenshot({ path: `${OUT}/${shot.name}-${theme}.png`, animations: 'disabled', caret: 'hide' })
      expect(errors, `${shot.name}: errors on the page`).toEqual([])
      // the screen's document ends here, so that nothing it says while unloading counts for the next
      await page.goto('about:blank')
    }
  } finally {
    for (const c of contexts.values()) await c.close()
  }
  if (problems.length) test.info().annotations.push({ type: 'screenshot problems', description: problems.join('; ') })
}

test.describe('screenshots for docs/screenshots', () => {
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(45_000)
    const dir = resolve('tests/e2e/.data/screenshots')
    server = await startOwnServer(dir)
    await arrange(server.baseURL)
    await restartWithBuckets(dir)
  })

  test.afterAll(async () => {
    await server?.stop()
    server = null
  })

  for (const theme of ['light', 'dark'] as const) {
    test(`every screen at 1280 x 800, ${theme}`, async ({ browser }) => {
      test.setTimeout(60_000)
      await shoot(browser, server!.baseURL, theme, SHOTS, 1280, 800)
    })
  }

  test("channels in Simplified Chinese at 375 px, dark: a failed test says why in the reader's words", async ({ browser }) => {
    test.setTimeout(30_000)
    const context = await contextFor(browser, server!.baseURL, 'dark', 'root', 375, 812, 'zh')
    try {
      const page = await context.newPage()
      await page.goto('/channel')
      await expect(page.getByText('Offline relay').first()).toBeVisible()
      // the connection refused by the upstream, in Chinese, the HTTP client's own text in brackets
      const pill = page.locator(`[data-cell="response-time"][title*="连接被拒绝"]`).first()
      await expect(pill).toBeVisible()
      await expect(pill).toHaveText('测试失败')
      await settle(page)
      await pill.scrollIntoViewIfNeeded()
      mkdirSync(OUT, { recursive: true })
      await page.screenshot({ path: `${OUT}/channels-zh-375-dark.png`, animations: 'disabled', caret: 'hide' })
    } finally {
      await context.close()
    }
  })

  test('three screens at 375 px, light and dark', async ({ browser }) => {
    test.setTimeout(30_000)
    for (const theme of ['light', 'dark'] as const) await shoot(browser, server!.baseURL, theme, MOBILE, 375, 812)
  })
})
