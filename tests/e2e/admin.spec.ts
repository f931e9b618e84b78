import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { DatabaseSync } from 'node:sqlite'
import { apiAs, apiData, closeToasts, E2E_DATABASE, expectToast, newUsername, overlay, signInAsRoot, UPSTREAM_URL } from './helpers.ts'

/**
 * The admin issue's end-to-end walk: root adds a channel against the fake upstream, tests it,
 * changes a ratio, creates redemption codes and downloads them, promotes a user and cleans the
 * logs, each through the console as root would, with the server's state checked after each step.
 */

const pad = (n: number) => String(n).padStart(2, '0')
/** Unix seconds as a datetime-local value (local time, to the minute), as the console writes it. */
function localInput(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}
const DAY = 24 * 3600
const now = () => Math.floor(Date.now() / 1000)

/** The table row that holds this text. */
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

/** What the walk's steps share: root's page, its session's API (to check the server) and this run's names. */
interface Walk {
  page: Page
  /** page.request: root's session, used to check the server's state */
  api: APIRequestContext
  stamp: string
  channelName: string
  model: string
}

/** Adds a channel against the fake upstream through the drawer; its id on the server. */
async function addChannel({ page, api, stamp, channelName, model }: Walk): Promise<number> {
  await page.getByRole('link', { name: 'Channels' }).first().click()
  await expect(page).toHaveURL(/\/channel$/)
  await page.getByRole('button', { name: 'Add channel' }).click()
  await expect(page).toHaveURL(/\/channel\/add$/)
  const drawer = overlay(page, 'Add channel')
  await expect(drawer.getByRole('combobox', { name: 'Type' })).toHaveValue('OpenAI')
  await drawer.getByLabel('Name', { exact: true }).fill(channelName)
  await drawer.getByLabel('Key', { exact: true }).fill(`sk-e2e-${stamp}`)
  await drawer.getByLabel('Base URL').fill(UPSTREAM_URL)
  const models = drawer.getByPlaceholder('Custom model names, comma separated')
  await models.fill(model)
  await models.press('Enter')
  await expect(drawer.getByText(model, { exact: true })).toBeVisible()
  await drawer.getByRole('button', { name: 'Save' }).click()
  await expectToast(page, 'channel created')
  await expect(page).toHaveURL(/\/channel$/)
  await expect(row(page, channelName)).toBeVisible()

  const found = await apiData<Array<{ id: number; name: string; type: number; base_url: string; models: string; status: number }>>(
    api,
    'get',
    `/api/channel/search?keyword=${encodeURIComponent(channelName)}`,
  )
  const channel = found.find((c) => c.name === channelName)
  expect(channel, 'the channel is on the server').toBeTruthy()
  expect(channel).toMatchObject({ type: 1, base_url: UPSTREAM_URL, models: model, status: 1 })
  return channel!.id
}

async function testChannel({ page, api, channelName }: Walk, channelId: number) {
  const r = row(page, channelName)
  await expect(r.getByText('untested')).toBeVisible()
  await r.getByRole('button', { name: 'Test', exact: true }).click()
  await expectToast(page, new RegExp(`^channel ${channelName} tested successfully, took \\d+\\.\\d\\d seconds$`))
  await expect(r.getByText(/^\d+\.\d\d s$/)).toBeVisible()
  const channel = await apiData<{ test_time: number; response_time: number }>(api, 'get', `/api/channel/${channelId}`)
  expect(channel.test_time).toBeGreaterThan(now() - 120)
  expect(channel.response_time).toBeGreaterThanOrEqual(0)
}

async function changeRatio({ page, api, model }: Walk) {
  await page.goto('/setting')
  await page.getByRole('tab', { name: 'Operation' }).click()
  await expect(page).toHaveURL(/tab=operation/)
  const ratios = page.getByRole('region', { name: 'Ratios', exact: true })
  const field = ratios.getByLabel('Model ratios')
  await expect(field).not.toHaveValue('')
  const current = JSON.parse(await field.inputValue()) as Record<string, number>
  expect(current[model]).toBeUndefined()
  await field.fill(JSON.stringify({ ...current, [model]: 7.5 }, null, 2))
  await ratios.getByRole('button', { name: 'Save' }).click()
  await expectToast(page, 'saved')

  const options = await apiData<Array<{ key: string; value: string }>>(api, 'get', '/api/option/')
  const stored = JSON.parse(options.find((o) => o.key === 'ModelRatio')!.value) as Record<string, number>
  expect(stored[model]).toBe(7.5)
  const pricing = await apiData<Array<{ model_name: string; model_ratio: number; available: boolean }>>(api, 'get', '/api/pricing')
  expect(pricing.find((p) => p.model_name === model)).toMatchObject({ model_ratio: 7.5, available: true })
}

async function createCodes({ page, api, stamp }: Walk) {
  const name = `gift ${stamp}`
  await page.getByRole('link', { name: 'Redemption codes' }).first().click()
  await expect(page).toHaveURL(/\/redemption$/)
  await closeToasts(page)
  await page.getByRole('button', { name: 'Add redemption codes' }).click()
  const drawer = overlay(page, 'Add redemption codes')
  await drawer.getByLabel('Name', { exact: true }).fill(name)
  await drawer.getByLabel('Quota', { exact: true }).fill('250000')
  await drawer.getByLabel('How many codes').fill('3')
  await drawer.getByRole('button', { name: 'Save' }).click()
  await expectToast(page, 'redemption created successfully')

  const dialog = overlay(page, 'New codes: 3')
  const shown = (await dialog.getByLabel('The new codes').inputValue()).split('\n')
  expect(shown).toHaveLength(3)
  const downloading = page.waitForEvent('download')
  await dialog.getByRole('link', { name: `Download ${name}.txt` }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(`${name}.txt`)
  const lines = (await readFile(await download.path(), 'utf8')).split('\n')
  expect(lines).toEqual(shown)
  for (const code of lines) expect(code).toMatch(/^[0-9a-zA-Z]{16,}$/)
  await dialog.getByRole('button', { name: 'Close' }).first().click()
  await expect(dialog).toBeHidden()

  const onServer = await apiData<Array<{ key: string; name: string; quota: number; status: number }>>(
    api,
    'get',
    `/api/redemption/search?keyword=${encodeURIComponent(name)}`,
  )
  expect(onServer.map((r) => r.key).sort()).toEqual([...lines].sort())
  for (const r of onServer) expect(r).toMatchObject({ name, quota: 250000, status: 1 })
  // the list shows them too
  await expect(row(page, name)).toHaveCount(3)
}

async function promoteUser({ page }: Walk, baseURL: string) {
  const username = newUsername('adm')
  const rootApi = await apiAs(baseURL)
  await apiData(rootApi, 'post', '/api/user/', { username, password: 'promote-me-1', display_name: 'Promoted Person' })
  await page.getByRole('link', { name: 'Users' }).first().click()
  await expect(page).toHaveURL(/\/user$/)
  await page.getByPlaceholder('ID, username, display name or e-mail').fill(username)
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
  const r = row(page, username)
  await expect(r.getByText('User', { exact: true })).toBeVisible()
  await r.getByRole('button', { name: 'Promote' }).click()
  await expectToast(page, 'operation completed successfully')
  await expect(r.getByText('Administrator', { exact: true })).toBeVisible()
  await expect(r.getByRole('button', { name: 'Demote' })).toBeVisible()

  const users = await apiData<Array<{ id: number; username: string; role: number }>>(rootApi, 'get', `/api/user/search?keyword=${username}`)
  const promoted = users.find((u) => u.username === username)!
  expect((await apiData<{ role: number }>(rootApi, 'get', `/api/user/${promoted.id}`)).role).toBe(10)
  // and the role takes effect: the promoted user may now list the channels
  const promotedApi = await apiAs(baseURL, username, 'promote-me-1')
  expect((await promotedApi.get('/api/channel/?p=0')).status()).toBe(200)
  await promotedApi.dispose()
  await rootApi.dispose()
}

/**
 * Old logs cannot be made through the API (the server stamps every log with the current time), so
 * rows dated 40 (three) and 5 (two) days back are written straight into the e2e database.
 */
function writeAgedLogs(oldModel: string, channelId: number) {
  const db = new DatabaseSync(E2E_DATABASE)
  try {
    const insert = db.prepare(
      "INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel) VALUES (1, ?, 2, 'written by the e2e test', 'root', 'e2e', ?, 100, 10, 10, ?)",
    )
    for (const days of [40, 40, 41, 5, 5]) insert.run(now() - days * DAY, oldModel, channelId)
  } finally {
    db.close()
  }
}

/** How many logs of any user the last day holds (up to 100). */
async function recentLogCount(api: APIRequestContext): Promise<number> {
  return (await apiData<unknown[]>(api, 'get', `/api/log/?p=0&page_size=100&start_timestamp=${now() - DAY}&end_timestamp=${now() + 3600}`))
    .length
}

/** Filters the usage logs to `oldModel` over the last 60 days and exports the filter as CSV. */
async function filterAndExport(page: Page, oldModel: string) {
  await page.getByRole('link', { name: 'Usage logs' }).first().click()
  await expect(page).toHaveURL(/\/log$/)
  const filters = page.getByRole('form', { name: 'Log filters' })
  await filters.getByLabel('Model', { exact: true }).fill(oldModel)
  await filters.getByLabel('From', { exact: true }).fill(localInput(now() - 60 * DAY))
  await filters.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByText(oldModel, { exact: true })).toHaveCount(5)

  // the filter shown exports as CSV, named after it (issue 15)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(new RegExp(`^logs-\\d{8}-\\d{8}-${oldModel}\\.csv$`))
  const csv = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n')
  expect(csv).toHaveLength(6)
  expect(csv.slice(1).every((line) => line.includes(`,${oldModel},`))).toBe(true)
  await expect(page.getByText(`Saved ${download.suggestedFilename()}`)).toBeVisible()
}

/** Cleans the logs before ten days back through the dialog's picker, checking the count the toast gives. */
async function cleanTenDaysBack(page: Page) {
  await closeToasts(page)
  await page.getByRole('button', { name: 'Clean logs' }).click()
  const dialog = overlay(page, 'Clean old logs')
  const picker = dialog.getByLabel('Delete logs before')
  // the default is one month back
  expect((await picker.inputValue()).slice(0, 10)).toBe(localInput(now() - 30 * DAY).slice(0, 10))
  const target = now() - 10 * DAY
  await picker.fill(localInput(target))
  // every log (of any user) before the chosen minute goes
  const cutoff = Math.floor(new Date(localInput(target)).getTime() / 1000)
  const db2 = new DatabaseSync(E2E_DATABASE, { readOnly: true })
  const expected = Number((db2.prepare('SELECT count(*) AS n FROM logs WHERE created_at < ?').get(cutoff) as { n: number }).n)
  db2.close()
  expect(expected).toBeGreaterThanOrEqual(3)
  await dialog.getByRole('button', { name: 'Clean', exact: true }).click()
  await expectToast(page, `${expected} logs cleaned`)
  await expect(dialog).toBeHidden()
}

async function cleanLogs({ page, api, stamp }: Walk, channelId: number) {
  const oldModel = `aged-${stamp}`
  writeAgedLogs(oldModel, channelId)
  const count = async (before?: number) => {
    const q = `/api/log/?p=0&page_size=100&model_name=${oldModel}&start_timestamp=${now() - 60 * DAY}&end_timestamp=${before ?? now()}`
    return (await apiData<unknown[]>(api, 'get', q)).length
  }
  expect(await count()).toBe(5)
  // logs written now (the channel test, the promotion, …) must survive the clean
  const recentBefore = await recentLogCount(api)
  expect(recentBefore).toBeGreaterThan(0)

  await filterAndExport(page, oldModel)
  await cleanTenDaysBack(page)
  // the list reloads: the two rows of 5 days ago are left
  await expect(page.getByText(oldModel, { exact: true })).toHaveCount(2)

  expect(await count(now() - 10 * DAY)).toBe(0)
  expect(await count()).toBe(2)
  expect(await recentLogCount(api)).toBeGreaterThanOrEqual(recentBefore)
}

test('root walks through channel, test, ratio, redemption codes, promotion and log cleaning', async ({ page, baseURL }) => {
  test.setTimeout(90_000)
  const stamp = Date.now().toString(36).slice(-6)
  await signInAsRoot(page)
  // page.request shares the page's cookies: it is root's session, used to check the server's state
  const walk: Walk = { page, api: page.request, stamp, channelName: `e2e upstream ${stamp}`, model: `e2e-gpt-${stamp}` }

  let channelId = 0
  await test.step('add a channel against the fake upstream', async () => {
    channelId = await addChannel(walk)
  })
  await test.step('test the channel', () => testChannel(walk, channelId))
  await test.step('change a model ratio in Settings, Operation', () => changeRatio(walk))
  await test.step('create redemption codes and download them', () => createCodes(walk))
  await test.step('promote a user made through the API', () => promoteUser(walk, baseURL!))
  await test.step('clean the logs older than a date chosen in the picker', () => cleanLogs(walk, channelId))
})
