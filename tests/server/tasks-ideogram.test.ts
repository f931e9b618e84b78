/**
 * Ideogram (type 51): generate and the multipart remix, answered at once and recorded finished,
 * with the spec's action kinds ideo_gen_<model> and ideo_remix_<model> as the prices' names; on
 * SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'

const QPU = 500_000
const PRICES = { ideo_gen_V_2: 0.08, ideo_remix_V_2_TURBO: 0.05 }

for (const dialect of dialects) {
  describe(`Ideogram relay (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect, { ModelPrice: JSON.stringify(PRICES) })
      await f.channel({ type: 51, key: 'ideo-ok', baseUrl: f.provider.url, models: Object.keys(PRICES).join(',') })
    })
    after(() => f.close())

    const rows = (userId: number) =>
      f.s.ctx.db.selectFrom('tasks').selectAll().where('platform', '=', 'ideogram').where('user_id', '=', userId).orderBy('id').execute()

    it('records a generation and a remix finished at once, priced by ideo_gen_ and ideo_remix_ with the model', async () => {
      const a = await f.account()
      const g = await f.send(a.key, 'POST', '/ideogram/generate', { image_request: { prompt: 'a logo' } })
      assert.equal(g.status, 200)

      const form = new FormData()
      form.append('image_request', JSON.stringify({ prompt: 'the logo in blue', model: 'V_2_TURBO', image_weight: 50 }))
      form.append('image_file', new Blob(['fake image bytes'], { type: 'image/png' }), 'logo.png')
      const res = await f.s.app.request('http://localhost/ideogram/remix', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}` },
        body: form,
      })
      const json = (await res.json()) as any
      assert.equal(res.status, 200, JSON.stringify(json))
      assert.match(json.data[0].url, /\.png$/)
      const sent = f.provider.requests.at(-1)!
      assert.equal(sent.path, '/ideogram/remix')
      assert.ok(sent.body.multipart.includes('fake image bytes'), 'the file is forwarded as received')
      assert.ok(sent.body.multipart.includes('"model":"V_2_TURBO"'))

      const [gen, rem] = await rows(a.userId)
      assert.deepEqual([gen.action, gen.status, gen.progress], ['ideo_gen_V_2', 'SUCCESS', '100%'])
      assert.deepEqual(
        [rem.action, rem.status, rem.prompt, rem.image_url],
        ['ideo_remix_V_2_TURBO', 'SUCCESS', 'the logo in blue', json.data[0].url],
      )
      assert.equal((await balances(f, a.userId)).used, Math.round((0.08 + 0.05) * QPU))
    })

    it('refuses a remix without its file, charging nothing', async () => {
      const a = await f.account()
      const form = new FormData()
      form.append('image_request', JSON.stringify({ prompt: 'x' }))
      const res = await f.s.app.request('http://localhost/ideogram/remix', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}` },
        body: form,
      })
      assert.equal(res.status, 400)
      assert.equal((await balances(f, a.userId)).used, 0)
    })
  })
}
