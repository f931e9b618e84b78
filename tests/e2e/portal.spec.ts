import { test, expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test'
import OpenAI from 'openai'
import { newUsername, register, signIn, UPSTREAM_URL as UPSTREAM } from './helpers.ts'

async function asRoot(baseURL: string): Promise<APIRequestContext> {
  const root = await playwrightRequest.newContext({ baseURL })
  const r = await root.post('/api/user/login', { data: { username: 'root', password: '123456' } })
  expect((await r.json()).success).toBe(true)
  return root
}

test('a new user signs up, makes a token, redeems a code, sees pricing, calls the relay and finds the call in the log', async ({
  page,
  baseURL,
}) => {
  const root = await asRoot(baseURL!)
  const model = `e2e-model-${Date.now().toString(36)}`
  const channel = await root.post('/api/channel/', {
    data: { name: 'e2e upstream', type: 1, key: 'e2e-key', base_url: UPSTREAM, models: model, group: 'default' },
  })
  expect((await channel.json()).success).toBe(true)
  const codes = await root.post('/api/redemption/', { data: { name: 'e2e gift', quota: 5_000_000, count: 1 } })
  const code = ((await codes.json()).data as string[])[0]!

  const username = newUsername('por')
  await register(page, username, 'portal-password')
  await signIn(page, username, 'portal-password')
  await expect(page).toHaveURL(/\/token$/)

  // a token, made through the tokens screen
  await page.getByRole('button', { name: 'Create token' }).first().click()
  await page.getByLabel('Name', { exact: true }).first().fill('my app')
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page.getByText('1 token created successfully').first()).toBeVisible()
  await expect(page.getByText('my app').first()).toBeVisible()

  // the code root made, redeemed in the wallet: the balance grows by $10
  await page.goto('/topup')
  await page.getByLabel('Redemption code').fill(code)
  await page.getByRole('button', { name: 'Redeem', exact: true }).click()
  await expect(page.getByText('redeemed successfully').first()).toBeVisible()
  await expect(page.getByText('$10.00').first()).toBeVisible()
  const self = await (await page.request.get('/api/user/self')).json()
  expect(self.data.quota).toBe(5_000_000)

  // the model is on the public pricing page
  await page.goto('/pricing')
  await expect(page.getByText(model).first()).toBeVisible()

  // the relay, called with the token through the official SDK
  const tokens = await (await page.request.get('/api/token/?p=0&size=10')).json()
  const key = tokens.data.find((t: { name: string }) => t.name === 'my app').key as string
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: `sk-${key}` })
  const reply = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] })
  expect(reply.choices[0]!.message.content).toBeTruthy()

  // and the call shows in the usage log (logs are written in batches: wait for the row, then look)
  await expect
    .poll(async () => (await (await page.request.get(`/api/log/self/?p=0&page_size=10&model_name=${model}`)).json()).data?.length ?? 0, {
      timeout: 15_000,
    })
    .toBeGreaterThan(0)
  await page.goto('/log')
  await expect(
    page
      .getByRole('button', { name: model })
      .or(page.getByText(model, { exact: true }))
      .first(),
  ).toBeVisible()
  await root.dispose()
})
