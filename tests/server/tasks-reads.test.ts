/**
 * The read paths the family's client uses beside each platform's fetch (server-semantics §14):
 * Luma's download_video_url and batch fetch (POST /luma/tasks), Viggle's by-ids, Riffusion's feed of several job ids; answered from
 * the table, the caller's own tasks only; and the Pika list holding Pixverse; on SQLite and
 * PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'

for (const dialect of dialects) {
  describe(`task read paths (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect)
      await f.channel({ type: 43, key: 'luma-ok', baseUrl: f.provider.url, models: 'luma_generate' })
      await f.channel({ type: 57, key: 'lumav2-ok', baseUrl: f.provider.url, models: 'luma_v2_generate' })
      await f.channel({ type: 45, key: 'viggle-ok', baseUrl: f.provider.url, models: 'vg_generate' })
      await f.channel({ type: 64, key: 'riffusion-ok', baseUrl: f.provider.url, models: 'riffusion_generate' })
      await f.channel({ type: 55, key: 'pika-ok', baseUrl: f.provider.url, models: 'pika_v1.5text' })
      await f.channel({ type: 58, key: 'pixverse-ok', baseUrl: f.provider.url, models: 'pixverse_v3.5' })
    })
    after(() => f.close())

    it("answers Luma's download_video_url once the video is there, on both pools", async () => {
      const a = await f.account()
      const other = await f.account()
      for (const pool of ['', '/pro']) {
        const r = await f.send(a.key, 'POST', `${pool}/luma/generations`, { user_prompt: 'waves' })
        const path = `${pool}/luma/generations/${r.json.id}/download_video_url`
        assert.equal((await f.send(a.key, 'GET', path)).status, 404, 'not ready yet')
        await f.rounds(2)
        const got = await f.send(a.key, 'GET', path)
        assert.equal(got.status, 200)
        assert.match(got.json.url, new RegExp(`/files/${r.json.id}\\.mp4$`))
        assert.equal((await f.send(other.key, 'GET', path)).status, 404, "another user's task")
      }
    })

    it('answers POST /luma/tasks from the table: own tasks in the order asked, nothing forwarded or charged', async () => {
      const a = await f.account()
      const other = await f.account()
      for (const pool of ['', '/pro']) {
        const ids: string[] = []
        for (const prompt of ['one', 'two'])
          ids.push((await f.send(a.key, 'POST', `${pool}/luma/generations`, { user_prompt: prompt })).json.id)
        const foreign = (await f.send(other.key, 'POST', `${pool}/luma/generations`, { user_prompt: 'theirs' })).json.id
        await f.rounds(2)
        const used = (await balances(f, a.userId)).used
        const asked = f.provider.requests.length
        const batch = await f.send(a.key, 'POST', `${pool}/luma/tasks`, { ids: [ids[1], 'nope', foreign, ids[0], ids[1]] })
        assert.equal(batch.status, 200, JSON.stringify(batch.json))
        assert.deepEqual(
          batch.json.map((g: any) => [g.id, g.state]),
          [
            [ids[1], 'completed'],
            [ids[0], 'completed'],
          ],
        )
        assert.match(batch.json[0].video.url, /\.mp4$/)
        const bare = await f.send(a.key, 'POST', `${pool}/luma/tasks`, [ids[0]])
        assert.deepEqual(
          bare.json.map((g: any) => g.id),
          [ids[0]],
        )
        assert.deepEqual((await f.send(a.key, 'POST', `${pool}/luma/tasks`, { ids: [] })).json, [])
        assert.equal(f.provider.requests.length, asked, 'nothing forwarded')
        assert.equal((await balances(f, a.userId)).used, used, 'nothing charged')
        for (const bad of [{}, { ids: 'x' }, { ids: [1] }, 'text', { ids: Array(501).fill('x') }]) {
          const r = await f.send(a.key, 'POST', `${pool}/luma/tasks`, bad)
          assert.equal(r.status, 400, JSON.stringify(bad))
          assert.equal(r.json.error.code, 'invalid_request')
        }
        assert.equal((await f.send('sk-wrong', 'POST', `${pool}/luma/tasks`, { ids })).status, 401)
      }
    })

    it("answers Viggle's by-ids and Riffusion's feed of a submit's job ids from the table", async () => {
      const a = await f.account()
      const v1 = (await f.send(a.key, 'POST', '/viggle/video-task', { imageID: 'a', videoID: 'b' })).json.data.taskID
      const v2 = (await f.send(a.key, 'POST', '/viggle/video-task', { imageID: 'c', videoID: 'd' })).json.data.taskID
      await f.rounds(2)
      const by = await f.send(a.key, 'POST', '/viggle/video-task/by-ids', { ids: [v1, v2, 'nope'] })
      assert.equal(by.status, 200)
      assert.equal(by.json.code, 0)
      assert.deepEqual(
        by.json.data.map((t: any) => [t.taskID, t.status]).sort(),
        [
          [v1, 0],
          [v2, 0],
        ].sort(),
      )
      const other = await f.account()
      assert.deepEqual((await f.send(other.key, 'POST', '/viggle/video-task/by-ids', { ids: [v1] })).json.data, [])

      const r = await f.send(a.key, 'POST', '/riffusion/generate', { prompt: 'one' })
      const jobs = r.json.jobs.map((j: any) => j.id).join(',')
      await f.rounds(2)
      const feed = await f.send(a.key, 'GET', `/riffusion/feed/${jobs}`)
      assert.equal(feed.status, 200)
      assert.equal(feed.json.status, 'success')
      assert.deepEqual(feed.json.generations.map((g: any) => g.id).join(','), jobs, 'the jobs of one submit are one task')
    })

    it('lists Pika and Pixverse tasks in the Pika list, told apart by platfrom', async () => {
      const person = await f.s.user({ quota: 1_000_000 })
      const { key } = await f.token(person.id, { unlimited: true })
      const pika = await f.send(key, 'POST', '/pika/generate', { promptText: 'a bird' })
      const pix = await f.send(key, 'POST', '/pixverse/generate', { prompt: 'a cat' })
      const ids = async (q: string) => (await person.get(`/api/pika/self?p=0${q}`)).body.data.map((t: any) => t.pika_id)
      assert.deepEqual(await ids(''), [pix.json.Resp.video_id, pika.json.id])
      assert.deepEqual(await ids('&platfrom=pixverse'), [pix.json.Resp.video_id])
      assert.deepEqual(await ids('&platfrom=pika'), [pika.json.id])
    })
  })
}
