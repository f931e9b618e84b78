import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'
import { DEFAULT_MODEL_PRICE } from '../../server/lib/ratios.ts'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo } from 'node:net'

const QPU = 500_000

/** One submit of each REST platform in its client's shape, the model it is priced by, the answer's id, the fetch path. */
interface Case {
  platform: string
  type: number
  path: string
  body: Record<string, unknown>
  model: string
  action: string
  idOf(json: any): string
  fetch?(id: string): string
  /** the column the result URL lands in */
  media: 'result' | 'audio_url' | 'image_url'
  upstreamPath?: string
}

const CASES: Case[] = [
  {
    platform: 'luma',
    type: 43,
    path: '/luma/generations',
    body: { user_prompt: 'waves', aspect_ratio: '16:9' },
    model: 'luma_generate',
    action: 'luma_generate',
    idOf: (j) => j.id,
    fetch: (id) => `/luma/generations/${id}`,
    media: 'result',
  },
  {
    platform: 'lumav2',
    type: 57,
    path: '/pro/luma/generations',
    upstreamPath: '/luma/generations',
    body: { user_prompt: 'waves' },
    model: 'luma_v2_generate',
    action: 'luma_v2_generate',
    idOf: (j) => j.id,
    fetch: (id) => `/pro/luma/generations/${id}`,
    media: 'result',
  },
  {
    platform: 'runway',
    type: 47,
    path: '/runway/tasks',
    body: { taskType: 'gen3a', options: { seconds: 10, exploreMode: true, text_prompt: 'a city' } },
    model: 'runway_gen3_fast_10',
    action: 'runway_gen3_fast',
    idOf: (j) => j.task.id,
    fetch: (id) => `/runway/tasks/${id}`,
    media: 'result',
  },
  {
    platform: 'runway',
    type: 61,
    path: '/runwayml/v1/image_to_video',
    body: { promptImage: 'https://x/a.png', model: 'gen3a_turbo', duration: 5 },
    model: 'runwayml_gen3a_turbo_5',
    action: 'runwayml_gen3a_turbo',
    idOf: (j) => j.id,
    fetch: (id) => `/runwayml/v1/tasks/${id}`,
    media: 'result',
  },
  {
    platform: 'kling',
    type: 53,
    path: '/kling/v1/videos/text2video',
    body: { prompt: 'a horse', model_name: 'kling-v1', mode: 'pro', duration: '10' },
    model: 'kling-v1_videos_pro_10',
    action: 'kling_txt2video',
    idOf: (j) => j.data.task_id,
    fetch: (id) => `/kling/v1/videos/text2video/${id}`,
    media: 'result',
  },
  {
    platform: 'kling',
    type: 53,
    path: '/kling/v1/images/kolors-virtual-try-on',
    body: { model_name: 'kolors-virtual-try-on-v1', human_image: 'https://x/h.png', cloth_image: 'https://x/c.png' },
    model: 'kolors-virtual-try-on-v1',
    action: 'kling_image',
    idOf: (j) => j.data.task_id,
    fetch: (id) => `/kling/v1/images/kolors-virtual-try-on/${id}`,
    media: 'image_url',
  },
  {
    platform: 'kling',
    type: 53,
    path: '/kling/v1/images/generations',
    body: { prompt: 'a horse', model: 'kling-v1' },
    model: 'kling-v1_images',
    action: 'kling_image',
    idOf: (j) => j.data.task_id,
    media: 'image_url',
  },
  {
    platform: 'pika',
    type: 55,
    path: '/pika/generate',
    body: { prompt: 'a bird', model: '2.0' },
    model: 'pika_v2.0text',
    action: 'pika_v2.0text',
    idOf: (j) => j.id,
    fetch: (id) => `/pika/feed/${id}`,
    media: 'result',
  },
  {
    platform: 'pika',
    type: 58,
    path: '/pixverse/generate',
    body: { prompt: 'a bird' },
    model: 'pixverse_v3.5',
    action: 'pixverse_generate',
    idOf: (j) => j.Resp.video_id,
    fetch: (id) => `/pixverse/feed/${id}`,
    media: 'result',
  },
  {
    platform: 'riffusion',
    type: 64,
    path: '/riffusion/generate/topic',
    body: { topic: 'rain' },
    model: 'riffusion_topic',
    action: 'riffusion_topic',
    idOf: (j) => j.jobs.map((x: any) => x.id).join(','),
    fetch: (ids) => `/riffusion/feed/${ids}`,
    media: 'audio_url',
  },
  {
    platform: 'viggle',
    type: 45,
    path: '/viggle/video-task',
    body: { imageID: 'a', videoID: 'b' },
    model: 'vg_generate',
    action: 'vg_generate',
    idOf: (j) => j.data.taskID,
    fetch: (id) => `/viggle/video-task/${id}`,
    media: 'result',
  },
  {
    platform: 'udio',
    type: 49,
    path: '/udio/submit/music',
    body: { prompt: 'jazz' },
    model: 'udio_music',
    action: 'udio_music',
    idOf: (j) => j.data,
    fetch: (id) => `/udio/fetch/${id}`,
    media: 'audio_url',
  },
]

for (const dialect of dialects) {
  describe(`Suno and the video platforms (${dialect})`, () => {
    let f: TaskFixture
    const prices: Record<string, number> = { ...DEFAULT_MODEL_PRICE }

    before(async () => {
      CASES.forEach((c, i) => (prices[c.model] = 0.01 * (i + 1)))
      f = await taskFixture(dialect, { ModelPrice: JSON.stringify(prices), GroupRatio: JSON.stringify({ default: 1, vip: 2 }) })
      await f.channel({ type: 41, key: 'suno-ok', baseUrl: f.provider.url, models: 'suno_music,suno_lyrics', group: 'default,vip' })
      for (const c of CASES) await f.channel({ type: c.type, key: `${c.platform}-${c.type}-ok`, baseUrl: f.provider.url, models: c.model })
      await f.channel({ type: 51, key: 'ideo-ok', baseUrl: f.provider.url, models: 'ideo_gen_V_2' })
    })
    after(() => f.close())

    it('relays a Suno generation: submit, charge by suno_music x group ratio, fetch, follow to SUCCESS', async () => {
      const userId = await f.user({ quota: 1_000_000, group: 'vip' })
      const { key } = await f.token(userId, { unlimited: true })
      const r = await f.send(key, 'POST', '/suno/submit/music', { prompt: 'a song about tea', tags: 'folk', title: 'Tea', continue_at: 0 })
      assert.equal(r.status, 200)
      assert.equal(r.json.code, 'success')
      const id = r.json.data
      assert.equal(f.provider.requests.at(-1)?.path, '/suno/submit/music')
      assert.equal(f.provider.requests.at(-1)?.body.mv, 'chirp-v3-0')
      assert.equal((await balances(f, userId)).used, 0.1 * QPU * 2)
      let t = await f.send(key, 'GET', `/suno/fetch/${id}`)
      assert.equal(t.json.data.status, 'NOT_START')
      assert.equal(t.json.data.action, 'suno_generate')
      await f.rounds(2)
      t = await f.send(key, 'POST', '/suno/fetch', { ids: [id], action: 'MUSIC' })
      assert.equal(t.json.data[0].status, 'SUCCESS')
      assert.equal(t.json.data[0].data[0].title, 'A fake song')
      const row = await f.task(id)
      assert.match(row.audio_url, /\.mp3$/)
      assert.equal(row.title, 'A fake song')
      assert.equal(Number(row.video_duration), 42)
      assert.ok(Number(row.finish_time) > 0)
    })

    it('refuses lyrics without a prompt and charges nothing when Suno refuses', async () => {
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/suno/submit/lyrics', {})
      assert.equal(r.status, 400)
      assert.equal(r.json.data, null)
      const ch = await f.channel({ type: 41, key: 'suno-refuse', baseUrl: f.provider.url, models: 'suno_lyrics', priority: 5 })
      const refused = await f.send(a.key, 'POST', '/suno/submit/lyrics', { prompt: 'x' })
      assert.equal(refused.status, 400)
      assert.equal(refused.json.message, 'the prompt was refused')
      assert.equal((await balances(f, a.userId)).used, 0)
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', ch).execute()
      await f.refresh()
    })

    for (const c of CASES) {
      it(`relays ${c.platform} ${c.path}: priced as ${c.model}, followed to the end, with its result`, async () => {
        const a = await f.account()
        const r = await f.send(a.key, 'POST', c.path, c.body)
        assert.equal(r.status, 200, JSON.stringify(r.json))
        const id = c.idOf(r.json)
        assert.ok(id)
        const sent = f.provider.requests.at(-1)!
        assert.equal(sent.path, c.upstreamPath ?? c.path)
        assert.equal(sent.key, `${c.platform}-${c.type}-ok`)
        assert.equal((await balances(f, a.userId)).used, Math.round(prices[c.model] * QPU))
        const row0 = await f.task(id)
        assert.equal(row0.platform, c.platform)
        assert.equal(row0.action, c.action)
        await f.rounds(1)
        assert.notEqual((await f.task(id)).progress, '100%')
        await f.rounds(1)
        const row = await f.task(id)
        assert.equal(row.progress, '100%')
        assert.ok(row[c.media], `${c.media} of ${JSON.stringify(row)}`)
        assert.equal(Number(row.refunded), 0)
        if (c.fetch) {
          const got = await f.send(a.key, 'GET', c.fetch(id))
          assert.equal(got.status, 200)
          assert.ok(
            id.split(',').every((x) => JSON.stringify(got.json).includes(x)),
            JSON.stringify(got.json),
          )
        }
      })
    }

    it('records an Ideogram generation finished at once', async () => {
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/ideogram/generate', { image_request: { prompt: 'a logo', model: 'V_2' } })
      assert.equal(r.status, 200)
      assert.match(r.json.data[0].url, /\.png$/)
      const row = await f.s.ctx.db
        .selectFrom('tasks')
        .selectAll()
        .where('platform', '=', 'ideogram')
        .where('user_id', '=', a.userId)
        .executeTakeFirstOrThrow()
      assert.equal(row.status, 'SUCCESS')
      assert.equal(row.image_url, r.json.data[0].url)
      assert.equal((await balances(f, a.userId)).used, Math.round((prices.ideo_gen_V_2 ?? 0.1) * QPU))
    })

    it("lists every platform but Midjourney in the family's /api/task/ (own tasks on /self, channel to admins), with enable_task", async () => {
      const person = await f.s.user({ quota: 1_000_000 })
      const { key } = await f.token(person.id, { unlimited: true })
      const luma = await f.send(key, 'POST', '/luma/generations', { user_prompt: 'mine' })
      const suno = await f.send(key, 'POST', '/suno/submit/music', { prompt: 'mine' })
      await f.s.ctx.db
        .insertInto('tasks')
        .values({ platform: 'midjourney', user_id: person.id, channel_id: 0, task_id: 'mj-1', submit_time: Date.now() })
        .execute()
      const mine = await person.get('/api/task/self?p=0')
      assert.equal(mine.body.success, true)
      assert.deepEqual(mine.body.data.map((t: any) => t.task_id).sort(), [luma.json.id, suno.json.data].sort())
      assert.equal(mine.body.data[0].channel_id, undefined)
      assert.ok(mine.body.data[0].submit_time < 1e11, 'seconds')
      const admin = await f.s.root()
      const lumaOnly = await admin.get(`/api/task/?platform=luma&task_id=${luma.json.id}`)
      assert.equal(lumaOnly.body.data.length, 1)
      assert.ok(lumaOnly.body.data[0].channel_id > 0)
      assert.equal(lumaOnly.body.data[0].properties.input.user_prompt, 'mine')
      const status = await f.s.anon.get('/api/status')
      assert.equal(status.body.data.enable_task, true)
    })

    it('applies SunoServer, SunoLimit, VmodelMap and ViggleProEnabled', async () => {
      const a = await f.account()
      const bare = await f.channel({ type: 41, key: 'suno-bare', baseUrl: '', models: 'suno_music', priority: 50 })
      await f.s.ctx.options.set('SunoServer', f.provider.url)
      await f.s.ctx.options.set('SunoLimit', JSON.stringify({ default: 1 }))
      const first = await f.send(a.key, 'POST', '/suno/submit/music', { prompt: 'one' })
      assert.equal(first.json.code, 'success', JSON.stringify(first.json))
      assert.equal(f.provider.requests.at(-1)?.key, 'suno-bare')
      const second = await f.send(a.key, 'POST', '/suno/submit/music', { prompt: 'two' })
      assert.equal(second.status, 429)
      assert.equal(second.json.code, 'too_many_tasks')
      await f.rounds(2)
      assert.equal((await f.task(first.json.data)).status, 'SUCCESS', 'polled at SunoServer too')
      assert.equal((await f.send(a.key, 'POST', '/suno/submit/music', { prompt: 'three' })).json.code, 'success')
      await f.s.ctx.options.set('SunoLimit', '{}')
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', bare).execute()
      await f.refresh()

      const b = await f.account()
      await f.s.ctx.options.set('VmodelMap', JSON.stringify({ 'pika_v1.5text': 'pika_v2.0text' }))
      const pika = await f.send(b.key, 'POST', '/pika/generate', { prompt: 'mapped' })
      assert.equal(pika.status, 200)
      assert.equal((await balances(f, b.userId)).used, Math.round(prices['pika_v2.0text'] * QPU))
      await f.s.ctx.options.set('VmodelMap', '{}')

      await f.s.ctx.options.set('ViggleProEnabled', 'true')
      const vg = await f.send(b.key, 'POST', '/viggle/video-task', { imageID: 'a', videoID: 'b' })
      assert.equal(vg.status, 200)
      assert.equal(f.provider.requests.at(-1)?.path, '/pro/viggle/video-task')
      await f.s.ctx.options.set('ViggleProEnabled', 'false')
      const asked = await f.send(b.key, 'POST', '/pro/viggle/video-task', { imageID: 'c', videoID: 'd' })
      assert.equal(f.provider.requests.at(-1)?.path, '/pro/viggle/video-task', 'the client may ask for the pro pool itself')
      const plain = await f.send(b.key, 'POST', '/viggle/video-task', { imageID: 'e', videoID: 'f' })
      assert.equal(f.provider.requests.at(-1)?.path, '/viggle/video-task')
      await f.rounds(2)
      for (const r of [vg, asked, plain]) {
        const row = await f.task(r.json.data.taskID)
        assert.equal(row.status, '0', 'each task is polled in the pool it was submitted to')
        const polled = f.provider.requests.filter((q) => q.path.endsWith('/by-ids') && q.body.ids.includes(row.task_id)).map((q) => q.path)
        assert.deepEqual(polled, Array(2).fill(r === plain ? '/viggle/video-task/by-ids' : '/pro/viggle/video-task/by-ids'))
      }
      const batched = f.provider.requests.filter((q) => q.path === '/pro/viggle/video-task/by-ids').at(-1)
      assert.deepEqual(batched?.body.ids.sort(), [vg.json.data.taskID, asked.json.data.taskID].sort(), "one call for a pool's tasks")
      const fetched = await f.send(b.key, 'GET', `/pro/viggle/video-task/${asked.json.data.taskID}`)
      assert.equal(fetched.json.data.status, 0)
      assert.match(fetched.json.data.resultCover, /\.png$/)
    })

    it('reaches Suno through SunoProxy when it is set, submits and polls alike', async () => {
      const seen: string[] = []
      const proxy = createHttpServer((req, res) => {
        seen.push(req.url ?? '')
        const u = new URL(req.url ?? '')
        const up = httpRequest(
          { host: u.hostname, port: u.port, path: u.pathname + u.search, method: req.method, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers)
            r.pipe(res)
          },
        )
        req.pipe(up)
      })
      proxy.on('connect', (req, socket, head) => {
        seen.push(req.url ?? '')
        const [host, port] = (req.url ?? '').split(':')
        const s = connect(Number(port), host, () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          s.write(head)
          s.pipe(socket)
          socket.pipe(s)
        })
      })
      await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done))
      try {
        await f.s.ctx.options.set('SunoProxy', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)
        const a = await f.account()
        const r = await f.send(a.key, 'POST', '/suno/submit/music', { prompt: 'through the proxy' })
        assert.equal(r.json.code, 'success', JSON.stringify(r.json))
        assert.ok(seen.length >= 1, 'the submit went through the proxy')
        const working = f.s.ctx.options.get('SunoProxy')
        // polls too: through a proxy that is down they fail, through the working one they finish
        await f.s.ctx.options.set('SunoProxy', 'http://127.0.0.1:1')
        await f.rounds(1)
        const stuck = await f.task(r.json.data)
        assert.equal(Number(stuck.poll_errors), 1)
        assert.equal(stuck.status, 'NOT_START')
        await f.s.ctx.options.set('SunoProxy', working)
        await f.s.ctx.db.updateTable('tasks').set({ lease_until: 0 }).where('id', '=', stuck.id).execute()
        await f.rounds(2)
        assert.equal((await f.task(r.json.data)).status, 'SUCCESS')
        const luma = await f.send(a.key, 'POST', '/luma/generations', { user_prompt: 'not proxied' })
        assert.equal(luma.status, 200)
        assert.ok(!seen.some((u) => u.includes('/luma/')), 'only Suno is proxied')
      } finally {
        await f.s.ctx.options.set('SunoProxy', '')
        proxy.closeAllConnections()
        await new Promise((done) => proxy.close(done))
      }
    })
  })
}
