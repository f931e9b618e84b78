import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'
import { waitFor } from './relay-helpers.ts'

const QPU = 500_000

for (const dialect of dialects) {
  describe(`Midjourney-proxy relay (${dialect})`, () => {
    let f: TaskFixture
    let mj: number

    before(async () => {
      f = await taskFixture(dialect, { ServerAddress: 'https://gw.example' })
      mj = await f.channel({
        type: 2,
        key: 'mj-ok',
        baseUrl: f.provider.url,
        models: 'mj_imagine,mj_upscale,mj_variation,mj_describe,swap_face',
      })
    })
    after(() => f.close())

    it('submits an imagine, charges mj_imagine once accepted, and follows the task to SUCCESS', async () => {
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a red fox', base64Array: [] })
      assert.equal(r.status, 200)
      assert.equal(r.json.code, 1)
      const id = r.json.result
      assert.ok(id)
      const b = await balances(f, a.userId)
      assert.equal(b.used, 0.1 * QPU)
      assert.equal(b.quota, 1_000_000 - 0.1 * QPU)
      assert.equal(f.provider.requests.at(-1)?.key, 'mj-ok')

      let t = await f.send(a.key, 'GET', `/mj/task/${id}/fetch`)
      assert.equal(t.json.status, 'NOT_START')
      assert.equal(t.json.action, 'IMAGINE')
      assert.equal(t.json.prompt, 'a red fox')
      await f.rounds(1)
      t = await f.send(a.key, 'GET', `/mj/task/${id}/fetch`)
      assert.equal(t.json.status, 'IN_PROGRESS')
      assert.equal(t.json.progress, '50%')
      assert.match(t.json.imageUrl, /^https:\/\/gw\.example\/mj\/image\/.+\?rand=/)
      await f.rounds(1)
      t = await f.send(a.key, 'GET', `/mj/task/${id}/fetch`)
      assert.equal(t.json.status, 'SUCCESS')
      assert.equal(t.json.progress, '100%')
      assert.equal(t.json.imageUrl, `https://gw.example/mj/image/${id}`)
      assert.ok(t.json.finishTime >= t.json.submitTime)
      assert.equal(t.json.buttons.length, 1)

      const img = await f.s.app.request(`http://localhost/mj/image/${id}`)
      assert.equal(img.status, 200)
      assert.equal(img.headers.get('content-type'), 'image/png')
      const seed = await f.send(a.key, 'GET', `/mj/task/${id}/image-seed`)
      assert.deepEqual([seed.json.code, seed.json.result], [1, '1234567890'])
      assert.equal(f.provider.requests.at(-1)?.key, 'mj-ok')
      const list = await f.send(a.key, 'POST', '/mj/task/list-by-condition', { ids: [id, 'nope'] })
      assert.deepEqual(
        list.json.map((x: any) => x.id),
        [id],
      )
    })

    it('sends actions on a task to its channel, priced by the action, and refuses them before it succeeded', async () => {
      const a = await f.account()
      const other = await f.channel({ type: 2, key: 'mj-other', baseUrl: f.provider.url, models: 'mj_upscale', priority: 10 })
      const { json } = await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a cat' })
      const early = await f.send(a.key, 'POST', '/mj/submit/action', {
        taskId: json.result,
        customId: `MJ::JOB::upsample::1::${json.result}`,
      })
      assert.equal(early.status, 400)
      assert.equal(early.json.type, 'task_status_not_success')
      await f.rounds(2)
      const before = await balances(f, a.userId)
      const up = await f.send(a.key, 'POST', '/mj/submit/action', { taskId: json.result, customId: `MJ::JOB::upsample::1::${json.result}` })
      assert.equal(up.json.code, 1)
      assert.equal(f.provider.requests.at(-1)?.key, 'mj-ok', 'the origin task channel, not the higher-priority one')
      const row = await f.task(up.json.result)
      assert.equal(row.action, 'UPSCALE')
      assert.equal(row.channel_id, mj)
      assert.equal((await balances(f, a.userId)).used - before.used, 0.05 * QPU)
      const simple = await f.send(a.key, 'POST', '/mj/submit/simple-change', { content: `${json.result} V2` })
      assert.equal((await f.task(simple.json.result)).action, 'VARIATION')
      await f.s.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', other).execute()
      await f.refresh()
    })

    it('charges nothing for a submit the upstream refused, and disables a channel without accounts when auto-ban is on', async () => {
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      const a = await f.account()
      const refused = await f.channel({ type: 5, key: 'mj-refuse', baseUrl: f.provider.url, models: 'mj_describe', priority: 20 })
      const r = await f.send(a.key, 'POST', '/mj/submit/describe', { base64: 'data:image/png;base64,AAAA' })
      assert.equal(r.status, 400)
      assert.equal(r.json.code, 24)
      assert.match(r.json.description, /banned prompt/)
      assert.equal((await balances(f, a.userId)).used, 0)
      await f.s.ctx.db.updateTable('channels').set({ key: 'mj-noaccount' }).where('id', '=', refused).execute()
      await f.refresh()
      const r3 = await f.send(a.key, 'POST', '/mj/submit/describe', { base64: 'data:image/png;base64,AAAA' })
      assert.equal(r3.json.code, 3)
      await waitFor(
        async () =>
          (await f.s.ctx.db.selectFrom('channels').select('status').where('id', '=', refused).executeTakeFirstOrThrow()).status === 3,
      )
      assert.equal((await balances(f, a.userId)).used, 0)
      // the proxy's description is data: kept as it came inside the reason, in either language
      const root = await f.s.root()
      const reason = async (lang: string) =>
        JSON.parse((await root.call('GET', `/api/channel/${refused}`, undefined, { 'accept-language': lang })).body.data.other_info)
          .status_reason
      assert.equal(await reason('en'), 'image-relay proxy: no available account instance')
      assert.equal(await reason('zh-CN'), '图像中继代理：no available account instance')
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'false')
    })

    it('forwards a mode prefix, clears mode flags, drops the callback and account filter as the options say', async () => {
      await f.s.ctx.options.set('MjModeClearEnabled', 'true')
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/mj-fast/mj/submit/imagine', {
        prompt: 'a dog --fast --v 6',
        notifyHook: 'https://x/cb',
        accountFilter: { x: 1 },
      })
      assert.equal(r.json.code, 1)
      const sent = f.provider.requests.find((q) => q.path === '/mj-fast/mj/submit/imagine')
      assert.ok(sent)
      assert.equal(sent.body.prompt, 'a dog --v 6')
      assert.equal(sent.body.notifyHook, undefined)
      assert.equal(sent.body.accountFilter, undefined)
      await f.s.ctx.options.set('MjModeClearEnabled', 'false')
      await f.s.ctx.options.set('MjNotifyEnabled', 'true')
      await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'b', notifyHook: 'https://x/cb' })
      assert.equal(f.provider.requests.at(-1)?.body.notifyHook, 'https://x/cb')
      await f.s.ctx.options.set('MjNotifyEnabled', 'false')
      await f.s.ctx.options.set('MjAccountFilterEnabled', 'true')
      await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'c --relax', accountFilter: { channelId: '42' } })
      assert.deepEqual(f.provider.requests.at(-1)?.body.accountFilter, { channelId: '42' })
      assert.equal(f.provider.requests.at(-1)?.body.prompt, 'c --relax', 'mode flags stay when MjModeClearEnabled is off')
      await f.s.ctx.options.set('MjAccountFilterEnabled', 'false')
    })

    it('translates a Chinese imagine prompt with a chat model through our own channels when MjTranslate is on', async () => {
      await f.channel({ type: 1, key: 'translator', models: 'gpt-4o-mini' })
      f.fake.scenario('translator', { text: 'a red fox under the moon' })
      const a = await f.account()
      const prompt = 'https://img.example/ref.png 月光下的红狐狸 --ar 16:9 --v 6'
      const chats = () => f.fake.requests.filter((q) => q.key === 'translator')
      await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt })
      assert.equal(f.provider.requests.at(-1)?.body.prompt, prompt, 'off: forwarded as written')
      assert.equal(chats().length, 0)

      await f.s.ctx.options.set('MjTranslate', 'true')
      const r = await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt })
      assert.equal(r.json.code, 1)
      assert.equal(f.provider.requests.at(-1)?.body.prompt, 'https://img.example/ref.png a red fox under the moon --ar 16:9 --v 6')
      assert.equal(chats().length, 1)
      const asked = chats()[0].body
      assert.equal(asked.model, 'gpt-4o-mini')
      assert.equal(asked.messages.at(-1).content, '月光下的红狐狸', 'only the words are sent, not the URL or the parameters')
      const row = await f.task(r.json.result)
      assert.equal(row.prompt, prompt)
      assert.equal(row.prompt_en, 'https://img.example/ref.png a red fox under the moon --ar 16:9 --v 6')
      assert.equal((await balances(f, a.userId)).used, 2 * 0.1 * QPU, 'the translation costs nothing of its own')

      await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'already english --v 6' })
      assert.equal(chats().length, 1, 'an English prompt is not sent to the translator')
      f.fake.scenario('translator', { status: 500, error: { error: { message: 'down' } } })
      await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: '小猫' })
      assert.equal(f.provider.requests.at(-1)?.body.prompt, '小猫', 'a failed translation forwards the prompt as written')
      await f.s.ctx.options.set('MjTranslate', 'false')
    })

    it('refunds a failed task exactly once, with a system log, and keeps the ledger whole', async () => {
      const a = await f.account()
      await f.channel({ type: 2, key: 'mj-fail', baseUrl: f.provider.url, models: 'mj_blend' })
      const r = await f.send(a.key, 'POST', '/mj/submit/blend', { base64Array: ['a', 'b'] })
      assert.equal(r.json.code, 1)
      await f.rounds(3)
      const row = await f.task(r.json.result)
      assert.equal(row.status, 'FAILURE')
      assert.equal(row.progress, '100%')
      assert.equal(row.fail_reason, 'banned prompt detected')
      assert.equal(Number(row.refunded), 1)
      // the callback makes us ask again; nothing is refunded twice
      await f.send(a.key, 'POST', '/mj/notify', { id: r.json.result, status: 'FAILURE' })
      await f.rounds(2)
      const b = await balances(f, a.userId)
      assert.equal(b.quota + b.used, 1_000_000)
      assert.equal(b.used, 0)
      assert.equal(b.consumed - b.refunded, b.used)
      assert.equal(b.refunds.length, 1)
      assert.deepEqual(JSON.parse(b.refunds[0].other).detail, {
        kind: 'task.refunded',
        quota: 0.1 * QPU,
        platform: 'midjourney',
        task_id: r.json.result,
      })
    })

    it('rewrites image URLs to the CDN proxy when forwarding is off, and lists tasks with millisecond bounds', async () => {
      await f.s.ctx.options.set('MjForwardUrlEnabled', 'false')
      const a = await f.account()
      const { json } = await f.send(a.key, 'POST', '/mj/submit/imagine', { prompt: 'cdn' })
      await f.rounds(2)
      let t = await f.send(a.key, 'GET', `/mj/task/${json.result}/fetch`)
      assert.match(t.json.imageUrl, new RegExp(`^${f.provider.url}/files/`))
      await f.s.ctx.db
        .updateTable('tasks')
        .set({ image_url: 'https://cdn.discordapp.com/attachments/1/2.png' })
        .where('task_id', '=', json.result)
        .execute()
      await f.s.ctx.options.set('MjCDNProxy', 'https://cdn.example/')
      t = await f.send(a.key, 'GET', `/mj/task/${json.result}/fetch`)
      assert.equal(t.json.imageUrl, 'https://cdn.example/attachments/1/2.png')
      await f.s.ctx.options.set('MjCDNProxy', '')

      const row = await f.task(json.result)
      const session = await f.s.user()
      await f.s.ctx.db.updateTable('tasks').set({ user_id: session.id }).where('id', '=', row.id).execute()
      const at = Number(row.submit_time)
      const inside = await session.get(`/api/mj/self?start_timestamp=${at - 1000}&end_timestamp=${at + 1000}`)
      assert.deepEqual(
        inside.body.data.map((x: any) => x.mj_id),
        [json.result],
      )
      const outside = await session.get(`/api/mj/self?start_timestamp=${at + 1}&end_timestamp=${at + 1000}`)
      assert.equal(outside.body.data.length, 0)
      const seconds = await session.get(`/api/mj/self?start_timestamp=${Math.floor(at / 1000)}&end_timestamp=${Math.ceil(at / 1000) + 1}`)
      assert.equal(seconds.body.data.length, 1)
      await f.s.ctx.options.set('MjForwardUrlEnabled', 'true')
    })
  })
}
