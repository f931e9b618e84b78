/**
 * The model-API platforms, each in its provider's own API: Replicate (59), bfl.ai (65) and fal.ai
 * (66). A submit goes to the channel with the provider's key scheme (the fake answers 401 to any
 * other), is charged ModelPrice x group ratio by the derived model, answers with the provider's
 * self-links pointed at the gateway, is polled to the end, and is read back from the table (own
 * tasks only) and in /api/task/; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'

const QPU = 500_000
const GW = 'https://gw.example'

interface Case {
  name: string
  platform: string
  type: number
  path: string
  body: Record<string, unknown>
  model: string
  status: number
  upstreamPath: string
  idOf(json: any): string
  /** the self-links the client gets, all on the gateway */
  links(id: string): Record<string, string>
  linksOf(json: any): Record<string, string>
  fetch(id: string): string
  /** what the fetch answers once the task is done */
  done(json: any): boolean
  image: boolean
}

const CASES: Case[] = [
  {
    name: 'replicate-version',
    platform: 'replicate',
    type: 59,
    path: '/replicate/v1/predictions',
    body: { version: '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa', input: { prompt: 'a fox' } },
    model: 'replicate_5c7d5dc6',
    status: 201,
    upstreamPath: '/v1/predictions',
    idOf: (j) => j.id,
    links: (id) => ({ get: `${GW}/replicate/v1/predictions/${id}` }),
    linksOf: (j) => j.urls,
    fetch: (id) => `/replicate/v1/predictions/${id}`,
    done: (j) => j.status === 'succeeded' && /\.png$/.test(j.output[0]),
    image: true,
  },
  {
    name: 'replicate-model',
    platform: 'replicate',
    type: 59,
    path: '/replicate/v1/models/black-forest-labs/flux-schnell/predictions',
    body: { input: { prompt: 'a fox' } },
    model: 'replicate_black-forest-labs/flux-schnell',
    status: 201,
    upstreamPath: '/v1/models/black-forest-labs/flux-schnell/predictions',
    idOf: (j) => j.id,
    links: (id) => ({ get: `${GW}/replicate/v1/predictions/${id}` }),
    linksOf: (j) => j.urls,
    fetch: (id) => `/replicate/v1/predictions/${id}`,
    done: (j) => j.status === 'succeeded' && /\.mp4$/.test(j.output),
    image: false,
  },
  {
    name: 'bfl',
    platform: 'bfl',
    type: 65,
    path: '/bfl/v1/flux-pro-1.1',
    body: { prompt: 'a fox', width: 1024, height: 768 },
    model: 'bfl_flux-pro-1.1',
    status: 200,
    upstreamPath: '/v1/flux-pro-1.1',
    idOf: (j) => j.id,
    links: (id) => ({ polling_url: `${GW}/bfl/v1/get_result?id=${id}` }),
    linksOf: (j) => ({ polling_url: j.polling_url }),
    fetch: (id) => `/bfl/v1/get_result?id=${id}`,
    done: (j) => j.status === 'Ready' && /\.jpeg\?/.test(j.result.sample),
    image: true,
  },
  {
    name: 'fal',
    platform: 'fal',
    type: 66,
    path: '/fal/fal-ai/flux/dev',
    body: { prompt: 'a fox', image_size: 'landscape_4_3' },
    model: 'fal_fal-ai_flux_dev',
    status: 200,
    upstreamPath: '/fal-ai/flux/dev',
    idOf: (j) => j.request_id,
    links: (id) => ({
      status_url: `${GW}/fal/fal-ai/flux/dev/requests/${id}/status`,
      response_url: `${GW}/fal/fal-ai/flux/dev/requests/${id}`,
    }),
    linksOf: (j) => ({ status_url: j.status_url, response_url: j.response_url, ...(j.cancel_url ? { cancel_url: j.cancel_url } : {}) }),
    fetch: (id) => `/fal/fal-ai/flux/dev/requests/${id}/status`,
    done: (j) => j.status === 'COMPLETED',
    image: true,
  },
]

for (const dialect of dialects) {
  describe(`Replicate, bfl.ai and fal.ai (${dialect})`, () => {
    let f: TaskFixture
    const prices: Record<string, number> = {}

    before(async () => {
      CASES.forEach((c, i) => (prices[c.model] = 0.01 * (i + 1)))
      f = await taskFixture(dialect, {
        ModelPrice: JSON.stringify(prices),
        GroupRatio: JSON.stringify({ default: 1, vip: 2 }),
        ServerAddress: `${GW}/`,
      })
      for (const c of CASES)
        await f.channel({ type: c.type, key: `${c.name}-ok`, baseUrl: f.provider.url, models: c.model, group: 'default,vip' })
      await f.channel({ type: 65, key: 'bfl-foreign', baseUrl: f.provider.url, models: 'bfl_flux-dev' })
      await f.channel({ type: 66, key: 'fal-foreign', baseUrl: f.provider.url, models: 'fal_fal-ai_fast-sdxl' })
      await f.channel({ type: 66, key: 'fal-refuse', baseUrl: f.provider.url, models: 'fal_fal-ai_flux_schnell' })
    })
    after(() => f.close())

    for (const c of CASES) {
      it(`relays ${c.name} ${c.path}: priced as ${c.model} x group ratio, links on the gateway, followed to the end`, async () => {
        const userId = await f.user({ quota: 1_000_000, group: 'vip' })
        const { key } = await f.token(userId, { unlimited: true })
        const r = await f.send(key, 'POST', c.path, c.body)
        assert.equal(r.status, c.status, JSON.stringify(r.json))
        const id = c.idOf(r.json)
        assert.ok(id)
        assert.deepEqual(c.linksOf(r.json), c.links(id), 'self-links point at the gateway, cancel is dropped')
        assert.ok(!JSON.stringify(r.json).includes(f.provider.url), 'the upstream address is not shown')
        const sent = f.provider.requests.at(-1)!
        assert.deepEqual([sent.method, sent.path, sent.key], ['POST', c.upstreamPath, `${c.name}-ok`])
        assert.deepEqual(sent.body, c.body)
        assert.equal((await balances(f, userId)).used, Math.round(prices[c.model]! * QPU * 2))
        const row0 = await f.task(id)
        assert.deepEqual([row0.platform, row0.action, Number(row0.quota)], [c.platform, c.model, Math.round(prices[c.model]! * QPU * 2)])
        assert.equal((await f.send(key, 'GET', c.fetch(id))).status, 200, 'readable before the first poll')
        await f.rounds(1)
        assert.notEqual((await f.task(id)).progress, '100%')
        await f.rounds(1)
        const row = await f.task(id)
        assert.equal(row.progress, '100%', JSON.stringify(row))
        assert.equal(Number(row.refunded), 0)
        assert.match(row.result, /^http:\/\/127\.0\.0\.1:\d+\/files\//)
        assert.equal(row.url, row.result)
        assert.equal(row.image_url, c.image ? row.result : '')
        const got = await f.send(key, 'GET', c.fetch(id))
        assert.equal(got.status, 200)
        assert.ok(c.done(got.json), JSON.stringify(got.json))
        if (c.platform !== 'bfl') assert.deepEqual(c.linksOf(got.json), c.links(id), 'the stored answer is presented as the submit was')
        const other = await f.account()
        assert.equal((await f.send(other.key, 'GET', c.fetch(id))).status, 404, "another user's task")
      })
    }

    it("answers fal's result from the table: 400 until done, the model's output after", async () => {
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/fal/fal-ai/flux/dev', { prompt: 'x' })
      const id = r.json.request_id
      const result = `/fal/fal-ai/flux/dev/requests/${id}`
      const early = await f.send(a.key, 'GET', result)
      assert.deepEqual([early.status, early.json.detail], [400, 'Request is still in progress'])
      assert.equal((await f.send(a.key, 'GET', `${result}/status`)).json.status, 'IN_QUEUE')
      await f.rounds(1)
      assert.equal((await f.send(a.key, 'GET', `${result}/status`)).json.status, 'IN_PROGRESS')
      await f.rounds(1)
      const done = await f.send(a.key, 'GET', result)
      assert.equal(done.status, 200)
      assert.match(done.json.images[0].url, /\.png$/)
      assert.equal((await f.send(a.key, 'GET', `/fal/fal-ai/flux/requests/${id}`)).status, 200, 'read at owner/app too, as fal')
      assert.equal((await f.send(a.key, 'GET', '/fal/fal-ai/flux/dev')).status, 404)
    })

    it('polls only on the channel origin: links to another host are not followed with the key', async () => {
      const a = await f.account()
      const b = await f.send(a.key, 'POST', '/bfl/v1/flux-dev', { prompt: 'x' })
      const fal = await f.send(a.key, 'POST', '/fal/fal-ai/fast-sdxl', { prompt: 'x' })
      assert.equal(b.json.polling_url, `${GW}/bfl/v1/get_result?id=${b.json.id}`)
      await f.rounds(2)
      for (const id of [b.json.id, fal.json.request_id]) {
        const row = await f.task(id)
        assert.deepEqual([row.progress, Number(row.poll_errors), Number(row.refunded)], ['100%', 0, 0], JSON.stringify(row))
      }
      const asked = f.provider.requests.filter((q) => q.method === 'GET' && q.key.endsWith('-foreign')).map((q) => q.path)
      assert.ok(asked.includes('/v1/get_result'))
      assert.ok(asked.includes(`/fal-ai/fast-sdxl/requests/${fal.json.request_id}/status`), asked.join(' '))
    })

    it('refuses bad submits with a 400 and charges nothing for them or for an upstream refusal', async () => {
      const a = await f.account()
      const asked = f.provider.requests.length
      const bad: Array<[string, unknown, number]> = [
        ['/replicate/v1/predictions', { input: {} }, 400],
        ['/replicate/v1/predictions', { version: 'a/b/c:1', input: {} }, 400],
        ['/replicate/v1/predictions', [], 400],
        ['/fal/fal-ai', { prompt: 'x' }, 400],
        ['/fal/fal-ai/flux/requests/x/cancel', {}, 400],
        ['/bfl/v1/get_result', {}, 405],
        ['/bfl/v1/flux%20pro', {}, 400],
      ]
      for (const [path, body, status] of bad) {
        const r = await f.send(a.key, 'POST', path, body)
        assert.equal(r.status, status, `${path}: ${JSON.stringify(r.json)}`)
        assert.equal(typeof r.json.error.message, 'string')
      }
      assert.equal(f.provider.requests.length, asked, 'nothing forwarded')
      const refused = await f.send(a.key, 'POST', '/fal/fal-ai/flux/schnell', { image_size: 'square' })
      assert.equal(refused.status, 422)
      assert.ok(Array.isArray(refused.json.detail), "fal's refusal passed on as it came")
      assert.equal((await balances(f, a.userId)).used, 0)
      assert.equal((await f.send(a.key, 'GET', '/bfl/v1/get_result')).status, 400)
    })

    it('lists the three platforms in /api/task/ under their own names', async () => {
      const person = await f.s.user({ quota: 1_000_000 })
      const { key } = await f.token(person.id, { unlimited: true })
      const ids: Record<string, string> = {}
      for (const c of CASES.slice(1)) ids[c.platform] = c.idOf((await f.send(key, 'POST', c.path, c.body)).json)
      for (const platform of ['replicate', 'bfl', 'fal']) {
        const mine = await person.get(`/api/task/self?p=0&platform=${platform}`)
        assert.deepEqual(
          mine.body.data.map((t: any) => t.task_id),
          [ids[platform]],
        )
      }
      const admin = await f.s.root()
      const all = await admin.get(`/api/task/?platform=fal&task_id=${ids.fal}`)
      assert.equal(all.body.data[0].properties.input.prompt, 'a fox')
    })
  })
}
