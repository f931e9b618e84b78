import { test, expect, type APIRequestContext } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { apiAs, apiData, newUsername, signIn } from './helpers.ts'

/** the fake image, music and video provider (tests/fake-task-upstream.ts); tasks move a stage every 1.5 s */
const PROVIDER_PORT = Number(process.env.E2E_TASK_PORT ?? 4362)
const PROVIDER = `http://127.0.0.1:${PROVIDER_PORT}`
let provider: ChildProcess

test.beforeAll(async () => {
  provider = spawn(process.execPath, ['tests/fake-task-upstream.ts', String(PROVIDER_PORT), '1500'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the fake task provider did not start')), 15_000)
    provider.stdout!.on('data', (d) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer)
        done()
      }
    })
  })
})

test.afterAll(() => {
  provider?.kill('SIGTERM')
})

/** The user's balance, used quota, consumption log sum and system (refund) rows. */
async function ledger(api: APIRequestContext) {
  const self = await apiData<{ quota: number; used_quota: number }>(api, 'get', '/api/user/self')
  const consumed = await apiData<Array<{ quota: number }>>(api, 'get', '/api/log/self?type=2&p=0&page_size=100')
  const system = await apiData<Array<{ quota: number; content: string }>>(api, 'get', '/api/log/self?type=4&p=0&page_size=100')
  const sum = (rows: Array<{ quota: number }>) => rows.reduce((a, r) => a + r.quota, 0)
  return { quota: self.quota, used: self.used_quota, consumed: sum(consumed), refunds: system.filter((r) => /refunded/.test(r.content)) }
}

test('a user submits an imagine and a Suno song with their key; the lists show progress, then previews; a failed task is refunded once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const root = await apiAs(baseURL!)
  await apiData(root, 'put', '/api/option/', { key: 'TaskPollInterval', value: '0.5' })
  const channel = (body: Record<string, unknown>) =>
    apiData(root, 'post', '/api/channel/', { group: 'default', base_url: PROVIDER, ...body })
  await channel({ name: 'Midjourney proxy', type: 2, key: 'mj-e2e', models: 'mj_imagine' })
  await channel({ name: 'Suno', type: 41, key: 'suno-e2e', models: 'suno_music' })
  await channel({ name: 'Luma (failing)', type: 43, key: 'luma-fail-e2e', models: 'luma_generate' })

  const username = newUsername('tsk')
  const password = 'task-pass-1'
  const initial = 5_000_000
  await apiData(root, 'post', '/api/user/', { username, password, display_name: username })
  const id = (await apiData<Array<{ id: number; username: string }>>(root, 'get', `/api/user/search?keyword=${username}`)).find(
    (u) => u.username === username,
  )!.id
  await apiData(root, 'put', '/api/user/', { id, quota: initial })
  const api = await apiAs(baseURL!, username, password)
  const token = await apiData<{ key: string }>(api, 'post', '/api/token/', { name: 'generations', unlimited_quota: true })
  const headers = { authorization: `Bearer sk-${token.key}` }

  // the requests the official clients send
  const mj = await (
    await api.post('/mj/submit/imagine', { headers, data: { prompt: 'a lighthouse at dusk --v 6', base64Array: [] } })
  ).json()
  expect(mj.code).toBe(1)
  const suno = await (
    await api.post('/suno/submit/music', {
      headers,
      data: { prompt: '[Verse] salt and rope', tags: 'folk', mv: 'chirp-v3-5', title: 'Harbour' },
    })
  ).json()
  expect(suno.code).toBe('success')
  const luma = await (await api.post('/luma/generations', { headers, data: { user_prompt: 'waves', aspect_ratio: '16:9' } })).json()
  expect(luma.id).toBeTruthy()

  await signIn(page, username, password)
  await expect(page).toHaveURL(/\/token$/)
  await page.goto('/midjourney')
  const row = page.locator('tr').filter({ hasText: mj.result })
  await expect(row).toBeVisible()
  await expect(row.locator('[data-col="progress"]')).toHaveText(/\d+%/)
  await expect(async () => {
    await page.reload()
    await expect(page.locator('tr').filter({ hasText: mj.result }).locator('[data-media="image"] img')).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 30_000 })

  await page.goto('/suno')
  await expect(page.locator('tr').filter({ hasText: suno.data })).toBeVisible()
  await expect(async () => {
    await page.reload()
    await expect(page.locator('tr').filter({ hasText: suno.data }).locator('audio[data-media="audio"]')).toHaveCount(1, { timeout: 1000 })
  }).toPass({ timeout: 30_000 })

  // the failing Luma task: refunded exactly once, the ledger whole
  await expect(async () => {
    const tasks = await apiData<Array<{ luma_id: string; status: string }>>(api, 'get', '/api/luma/self?p=0')
    expect(tasks.find((t) => t.luma_id === luma.id)?.status).toBe('failed')
  }).toPass({ timeout: 30_000 })
  await expect(async () => {
    const l = await ledger(api)
    expect(l.refunds).toHaveLength(1)
    expect(l.quota + l.used).toBe(initial)
    expect(l.consumed - l.refunds.reduce((a, r) => a + r.quota, 0)).toBe(l.used)
  }).toPass({ timeout: 10_000 })
  await page.waitForTimeout(1500)
  expect((await ledger(api)).refunds).toHaveLength(1)
  await apiData(root, 'put', '/api/option/', { key: 'TaskPollInterval', value: '15' })
})
