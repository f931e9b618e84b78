/**
 * Suno's web API paths as the family's client sends them (server-semantics §14): generate,
 * description mode, lyrics, feed; priced by the body's mv, followed by the poller through the
 * channel's feed, refunded once on failure; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'
import { presetModels } from '../../domain/channel-models.ts'
import { SUNO_WEB_DEFAULT_MV } from '../../server/relay/tasks/suno-web.ts'

const QPU = 500_000
const PRICES = { 'chirp-v3-5': 0.02, 'chirp-v4': 0.04, 'chirp-lyrics': 0.01 }

for (const dialect of dialects) {
  describe(`Suno web API relay (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect, { ModelPrice: JSON.stringify(PRICES), GroupRatio: JSON.stringify({ default: 1, vip: 2 }) })
      const models = Object.keys(PRICES).join(',')
      await f.channel({ type: 41, key: 'suno-web-ok', baseUrl: f.provider.url, models, group: 'default' })
      await f.channel({ type: 41, key: 'suno-web-fail', baseUrl: f.provider.url, models, group: 'vip' })
    })
    after(() => f.close())

    it("a Suno channel's preset models hold every model the Suno relays price by", () => {
      for (const m of ['suno_music', 'suno_lyrics', SUNO_WEB_DEFAULT_MV, 'chirp-lyrics']) assert.ok(presetModels(41).includes(m), m)
    })

    const feedCalls = () => f.provider.requests.filter((q) => q.method === 'GET' && q.path.startsWith('/suno/feed/'))

    it('relays a generation: priced by mv, clips fed from the table, followed in one feed call per channel', async () => {
      const a = await f.account()
      const r = await f.send(a.key, 'POST', '/suno/generate', { prompt: '[Verse] tea', mv: 'chirp-v4', title: 'Tea', tags: 'folk' })
      assert.equal(r.status, 200, JSON.stringify(r.json))
      assert.equal(r.json.clips.length, 2)
      const sent = f.provider.requests.at(-1)!
      assert.deepEqual([sent.path, sent.key, sent.body.mv], ['/suno/generate', 'suno-web-ok', 'chirp-v4'])
      const d = await f.send(a.key, 'POST', '/suno/generate/description-mode', { gpt_description_prompt: 'a song about rain' })
      assert.equal(d.status, 200)
      const b = await balances(f, a.userId)
      assert.equal(b.used, Math.round((0.04 + 0.02) * QPU), 'chirp-v4, then chirp-v3-5 when the body names no mv')
      const logs = await f.s.ctx.db.selectFrom('logs').select('model_name').where('user_id', '=', a.userId).orderBy('id').execute()
      assert.deepEqual(
        logs.map((l) => l.model_name),
        ['chirp-v4', 'chirp-v3-5'],
      )

      const ids = r.json.clips.map((c: any) => c.id)
      let feed = await f.send(a.key, 'GET', `/suno/feed/${ids.join(',')}`)
      assert.deepEqual(
        feed.json.map((c: any) => [c.id, c.status]),
        ids.map((id: string) => [id, 'submitted']),
      )
      const before = feedCalls().length
      await f.rounds(1)
      assert.equal(feedCalls().length, before + 1, 'both generations of the channel in one feed call')
      assert.equal(feedCalls().at(-1)!.path.split('/').at(-1)!.split(',').length, 4)
      let row = await f.task(r.json.id)
      assert.deepEqual([row.status, row.progress, row.action, row.sub_platform], ['IN_PROGRESS', '50%', 'suno_generate', 'web'])
      await f.rounds(1)
      row = await f.task(r.json.id)
      assert.deepEqual([row.status, row.progress], ['SUCCESS', '100%'])
      assert.match(row.audio_url, /\.mp3$/)
      assert.equal(Number(row.video_duration), 42)
      feed = await f.send(a.key, 'GET', `/suno/feed/${ids[1]}`)
      assert.deepEqual(
        feed.json.map((c: any) => [c.id, c.status]),
        [[ids[1], 'complete']],
      )
      const other = await f.account()
      assert.deepEqual((await f.send(other.key, 'GET', `/suno/feed/${ids[0]}`)).json, [], "another user's clips are not shown")
    })

    it('relays lyrics: chirp-lyrics, polled at /suno/lyrics/{id}, answered from the table', async () => {
      const a = await f.account()
      const none = await f.send(a.key, 'POST', '/suno/generate/lyrics/', {})
      assert.equal(none.status, 400)
      const r = await f.send(a.key, 'POST', '/suno/generate/lyrics/', { prompt: 'tea' })
      assert.equal(r.status, 200)
      assert.equal((await balances(f, a.userId)).used, Math.round(0.01 * QPU))
      await f.rounds(2)
      const l = await f.send(a.key, 'GET', `/suno/lyrics/${r.json.id}`)
      assert.deepEqual([l.json.status, l.json.title], ['complete', 'Fake lyrics'])
      const row = await f.task(r.json.id)
      assert.deepEqual([row.status, row.action, row.text], ['SUCCESS', 'suno_lyrics', '[Verse]\nla la la'])
    })

    it('refunds a failed generation exactly once and sends a continuation to the clip’s channel', async () => {
      const userId = await f.user({ quota: 1_000_000, group: 'vip' })
      const { key } = await f.token(userId, { unlimited: true })
      const r = await f.send(key, 'POST', '/suno/generate', { prompt: 'x', mv: 'chirp-v3-5' })
      assert.equal(r.status, 200)
      await f.rounds(3)
      const row = await f.task(r.json.id)
      assert.deepEqual([row.status, row.fail_reason, Number(row.refunded)], ['FAILURE', 'the song could not be made', 1])
      const b = await balances(f, userId)
      assert.equal(b.used, 0)
      assert.equal(b.refunds.length, 1)
      assert.equal(b.quota + b.used, 1_000_000)

      const a = await f.account()
      const first = await f.send(a.key, 'POST', '/suno/generate', { prompt: 'y' })
      await f.s.ctx.db.updateTable('tasks').set({ user_id: userId }).where('task_id', '=', first.json.id).execute()
      const cont = await f.send(key, 'POST', '/suno/generate', {
        prompt: 'more',
        continue_clip_id: first.json.clips[0].id,
        continue_at: 30,
      })
      assert.equal(cont.status, 200)
      assert.equal(f.provider.requests.at(-1)?.key, 'suno-web-ok', 'the origin clip’s channel, not the vip group’s')
      const unknown = await f.send(key, 'POST', '/suno/generate', { prompt: 'z', continue_clip_id: 'nope' })
      assert.equal(unknown.status, 404)
    })
  })
}
