/**
 * The read paths the family's client uses beside each platform's fetch (server-semantics §14):
 * Luma's download_video_url, Viggle's by-ids, Riffusion's feed of several job ids; answered from
 * the table, the caller's own tasks only; and the Pika list holding Pixverse; on SQLite and
 * PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, type TaskFixture } from './tasks-helpers.ts'

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
