/**
 * The family client's helper calls that make no task (uploads, assets, listings, credit
 * estimates): forwarded as received to a channel of the platform's type in the caller's group,
 * nothing charged or recorded; Viggle's follow the pool; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'

for (const dialect of dialects) {
  describe(`task helper calls (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect)
      await f.channel({ type: 45, key: 'viggle-ok', baseUrl: f.provider.url, models: 'vg_generate' })
      await f.channel({ type: 47, key: 'runway-ok', baseUrl: f.provider.url, models: 'runway_gen3_5' })
      await f.channel({ type: 41, key: 'suno-vip', baseUrl: f.provider.url, models: 'suno_music', group: 'vip' })
    })
    after(() => f.close())

    it('forwards uploads, assets and listings as received, charging and recording nothing', async () => {
      const a = await f.account()
      const form = new FormData()
      form.append('file', new Blob(['image bytes'], { type: 'image/png' }), 'me.png')
      const res = await f.s.app.request('http://localhost/viggle/asset/image', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}` },
        body: form,
      })
      const up = (await res.json()) as any
      assert.equal(res.status, 200)
      assert.match(up.data.id, /^asset-/)
      assert.match(up.data.type, /^multipart\/form-data; boundary=/)
      const sent = f.provider.requests.at(-1)!
      assert.deepEqual([sent.method, sent.path, sent.key], ['POST', '/viggle/asset/image', 'viggle-ok'])
      assert.ok(sent.body.multipart.includes('image bytes'))

      const tags = await f.send(a.key, 'GET', '/viggle/template2/tag?page=2')
      assert.equal(tags.status, 200)
      assert.deepEqual([f.provider.requests.at(-1)!.method, f.provider.requests.at(-1)!.query], ['GET', 'page=2'])
      const up2 = await f.send(a.key, 'POST', '/runway/uploads', { filename: 'a.png', numberOfParts: 1 })
      assert.equal(up2.status, 200)
      assert.deepEqual([f.provider.requests.at(-1)!.key, f.provider.requests.at(-1)!.body.filename], ['runway-ok', 'a.png'])

      await f.s.ctx.options.set('ViggleProEnabled', 'true')
      await f.send(a.key, 'POST', '/viggle/video-task/credit/calculate', { imageID: 'x' })
      assert.equal(f.provider.requests.at(-1)!.path, '/pro/viggle/video-task/credit/calculate', 'the pool a submit would go to')
      await f.s.ctx.options.set('ViggleProEnabled', 'false')

      const b = await balances(f, a.userId)
      assert.deepEqual([b.used, b.consumed], [0, 0])
      const tasks = await f.s.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', a.userId).execute()
      assert.equal(tasks.length, 0)
    })

    it("uses only channels of the caller's group and refuses without a key", async () => {
      const a = await f.account()
      const none = await f.send(a.key, 'POST', '/suno/uploads/audio', { url: 'https://x/a.mp3' })
      assert.equal(none.status, 503, 'the only Suno channel is in another group')
      const userId = await f.user({ group: 'vip' })
      const { key } = await f.token(userId, { unlimited: true })
      const vip = await f.send(key, 'POST', '/suno/uploads/audio', { url: 'https://x/a.mp3' })
      assert.equal(vip.status, 200)
      assert.equal(f.provider.requests.at(-1)!.key, 'suno-vip')
      const res = await f.s.app.request('http://localhost/viggle/template2/tag')
      assert.equal(res.status, 401)
    })
  })
}
