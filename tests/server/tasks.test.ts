import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Insertable } from 'kysely'
import { dialects, startServer, type Client, type TestServer, assertRefused } from './helpers.ts'
import type { TasksTable } from '../../server/db/schema.ts'
import { TASK_LISTS } from '../../server/routes/tasks.ts'

const DAY = 24 * 3600 * 1000
const T0 = Date.UTC(2025, 0, 10, 12, 0, 0)

type Row = Insertable<TasksTable>

for (const dialect of dialects) {
  describe(`task lists (${dialect})`, () => {
    let s: TestServer
    let admin: Client
    let alice: Client & { id: number }
    let bob: Client & { id: number }

    before(async () => {
      s = await startServer(dialect)
      admin = await s.user({ role: 10 })
      alice = await s.user()
      bob = await s.user()
    })
    after(() => s.close())
    beforeEach(async () => {
      await s.ctx.db.deleteFrom('tasks').execute()
    })

    let seq = 0
    const task = (platform: string, extra: Partial<Row> = {}): Row => {
      seq++
      return {
        platform,
        user_id: alice.id,
        channel_id: 1,
        task_id: `${platform}-${seq}`,
        action: 'generate',
        status: 'SUCCESS',
        progress: '100%',
        submit_time: T0 + seq * 1000,
        created_at: T0 + seq * 1000,
        ...extra,
      }
    }
    // one row at a time: rows carry different columns, and SQLite has no DEFAULT inside VALUES
    const insert = async (...rows: Row[]) => {
      for (const row of rows) await s.ctx.db.insertInto('tasks').values(row).execute()
    }
    const list = async (c: Client, path: string) => {
      const r = await c.get(path)
      assert.equal(r.status, 200, `${path}: ${r.body.message}`)
      assert.equal(r.body.success, true)
      assert.ok(Array.isArray(r.body.data))
      return r.body.data as Array<Record<string, any>>
    }

    it('answers every Midjourney field of the spec, newest first', async () => {
      await insert(
        task('midjourney', {
          task_id: 'mj-1',
          action: 'IMAGINE',
          code: 1,
          status: 'SUCCESS',
          progress: '100%',
          prompt: 'a cat',
          prompt_en: 'a cat',
          description: 'submitted',
          url: 'https://cdn.example/cat.png',
          submit_time: T0,
          start_time: T0 + 4000,
          finish_time: T0 + 64_000,
          data: '{"rz":[{"url":"https://cdn.example/v.mp4"}]}',
          channel_id: 7,
        }),
        task('midjourney', { task_id: 'mj-2', submit_time: T0 + 1000, status: 'IN_PROGRESS', progress: '40%' }),
      )
      const rows = await list(admin, '/api/mj/')
      assert.deepEqual(
        rows.map((r) => r.mj_id),
        ['mj-2', 'mj-1'],
      )
      const t = rows[1]!
      for (const f of [
        'id',
        'created_at',
        'channel_id',
        'action',
        'mj_id',
        'status',
        'progress',
        'url',
        'image_url',
        'audio_url',
        'result',
        'prompt',
        'prompt_en',
        'fail_reason',
        'submit_time',
        'finish_time',
        'qtime',
        'video_duration',
        'duration',
        'platform',
        'text',
        'title',
        'data',
        'code',
        'description',
      ]) {
        assert.ok(f in t, `task lacks ${f}`)
      }
      assert.equal(t.channel_id, 7)
      assert.equal(t.action, 'IMAGINE')
      assert.equal(t.code, 1)
      assert.equal(t.image_url, 'https://cdn.example/cat.png', 'image_url falls back to url for Midjourney')
      assert.equal(t.audio_url, '')
      assert.equal(t.qtime, 4)
      assert.equal(t.duration, 64)
      assert.equal(t.platform, 'midjourney')
      assert.deepEqual(t.data, { rz: [{ url: 'https://cdn.example/v.mp4' }] })
      assert.equal(rows[0]!.duration, 0, 'unfinished: no duration yet')
      assert.equal(rows[0]!.data, null)
    })

    it('puts the provider id under each platform name and keeps platforms apart', async () => {
      const names: Record<string, string> = {
        '/api/mj/': 'mj_id',
        '/api/suno/': 'suno_id',
        '/api/luma/': 'luma_id',
        '/api/luma/v2/': 'task_id',
        '/api/viggle/': 'viggle_id',
        '/api/runway/': 'runway_id',
        '/api/pika/': 'pika_id',
        '/api/kling/': 'kling_id',
        '/api/ideo/': 'ideo_id',
      }
      await insert(...TASK_LISTS.map((l) => task(l.platform, { task_id: `id-${l.platform}` })))
      for (const l of TASK_LISTS) {
        const path = `/api${l.path}/`
        const rows = await list(admin, path)
        assert.equal(rows.length, 1, path)
        assert.equal(rows[0]![names[path]!], `id-${l.platform}`, path)
        assert.equal(rows[0]!.platform, l.platform)
      }
    })

    it('serves every list with and without the trailing slash', async () => {
      await insert(...TASK_LISTS.map((l) => task(l.platform)))
      for (const l of TASK_LISTS) {
        for (const path of [`/api${l.path}`, `/api${l.path}/`]) assert.equal((await list(admin, path)).length, 1, path)
        for (const path of [`/api${l.path}/self`, `/api${l.path}/self/`]) assert.equal((await list(alice, path)).length, 1, path)
      }
    })

    it('shows a user only their own tasks and never the channel', async () => {
      await insert(
        task('suno', { user_id: alice.id, task_id: 'a1', channel_id: 3 }),
        task('suno', { user_id: bob.id, task_id: 'b1', channel_id: 3 }),
        task('suno', { user_id: alice.id, task_id: 'a2', channel_id: 4 }),
      )
      const mine = await list(alice, '/api/suno/self')
      assert.deepEqual(
        mine.map((r) => r.suno_id),
        ['a2', 'a1'],
      )
      assert.ok(mine.every((r) => !('channel_id' in r) && !('user_id' in r)))
      assert.deepEqual(
        (await list(bob, '/api/suno/self')).map((r) => r.suno_id),
        ['b1'],
      )
      assert.deepEqual(
        (await list(bob, '/api/suno/self?suno_id=a1')).map((r) => r.suno_id),
        [],
        'asking for another user task id finds nothing',
      )
      assert.deepEqual(
        (await list(bob, '/api/suno/self?channel_id=3')).map((r) => r.suno_id),
        ['b1'],
        'channel_id is ignored for users',
      )
      assert.equal((await list(admin, '/api/suno/')).length, 3)
      const admins = await list(admin, '/api/suno/?channel_id=3')
      assert.deepEqual(
        admins.map((r) => r.suno_id),
        ['b1', 'a1'],
      )
      assert.ok(admins.every((r) => r.channel_id === 3))
      assert.equal((await list(admin, '/api/suno/self')).length, 0, "an admin's own list is their own tasks")
    })

    it('pages 10 at a time from p=0', async () => {
      await insert(...Array.from({ length: 23 }, (_, i) => task('luma', { task_id: `l${i}` })))
      const p0 = await list(admin, '/api/luma/?p=0')
      const p1 = await list(admin, '/api/luma/?p=1')
      const p2 = await list(admin, '/api/luma/?p=2')
      assert.deepEqual([p0.length, p1.length, p2.length], [10, 10, 3])
      assert.equal(p0[0]!.luma_id, 'l22')
      assert.equal(p2[2]!.luma_id, 'l0')
      assert.equal((await list(admin, '/api/luma/?p=')).length, 10)
      assert.equal((await list(alice, '/api/luma/self?p=1')).length, 10)
    })

    it('filters by task id and by a window of seconds against submit_time in ms', async () => {
      await insert(
        task('kling', { task_id: 'k-old', submit_time: T0 - 40 * DAY }),
        task('kling', { task_id: 'k-mid', submit_time: T0 }),
        task('kling', { task_id: 'k-new', submit_time: T0 + DAY }),
      )
      const secs = (ms: number) => Math.floor(ms / 1000)
      const ids = async (q: string) => (await list(admin, `/api/kling/?${q}`)).map((r) => r.kling_id)
      assert.deepEqual(await ids(`start_timestamp=${secs(T0 - 30 * DAY)}`), ['k-new', 'k-mid'])
      assert.deepEqual(await ids(`end_timestamp=${secs(T0)}`), ['k-mid', 'k-old'])
      assert.deepEqual(await ids(`start_timestamp=${secs(T0)}&end_timestamp=${secs(T0)}`), ['k-mid'])
      assert.deepEqual(await ids('kling_id=k-new'), ['k-new'])
      assert.deepEqual(await ids('mj_id=k-old'), ['k-old'], 'the console sends mj_id on every list')
      assert.deepEqual(await ids('start_timestamp=&end_timestamp=&mj_id='), ['k-new', 'k-mid', 'k-old'])
      assert.deepEqual(
        (await list(alice, `/api/kling/self?start_timestamp=${secs(T0 + 1000)}`)).map((r) => r.kling_id),
        ['k-new'],
      )
    })

    it('filters Pika tasks on the sub-platform given as platfrom', async () => {
      await insert(
        task('pika', { task_id: 'p1', sub_platform: 'pika' }),
        task('pika', { task_id: 'p2', sub_platform: 'pixverse' }),
        task('pika', { task_id: 'p3', sub_platform: 'pika' }),
      )
      const ids = async (c: Client, path: string) => (await list(c, path)).map((r) => r.pika_id)
      assert.deepEqual(await ids(admin, '/api/pika/?platfrom=pika'), ['p3', 'p1'])
      assert.deepEqual(await ids(admin, '/api/pika/?platfrom=pixverse'), ['p2'])
      assert.deepEqual(await ids(admin, '/api/pika/?platfrom='), ['p3', 'p2', 'p1'])
      assert.deepEqual(await ids(alice, '/api/pika/self?platfrom=pixverse'), ['p2'])
      assert.equal((await list(admin, '/api/pika/?platfrom=pika'))[0]!.sub_platform, 'pika')
    })

    it('maps the media fields per platform and passes title, text and durations through', async () => {
      await insert(
        task('suno', {
          task_id: 's1',
          url: 'https://cdn.example/song.mp3',
          image_url: 'https://cdn.example/cover.png',
          title: 'Night drive',
          text: '[Verse] lyrics',
          video_duration: 121.5,
        }),
        task('viggle', { task_id: 'v1', url: 'https://cdn.example/dance.mp4', video_duration: 12 }),
        task('ideogram', { task_id: 'i1', url: 'https://cdn.example/pic.png', result: '{"images":1}' }),
        task('runway', { task_id: 'r1', data: 'not json' }),
      )
      const suno = (await list(admin, '/api/suno/'))[0]!
      assert.equal(suno.audio_url, 'https://cdn.example/song.mp3')
      assert.equal(suno.image_url, 'https://cdn.example/cover.png')
      assert.equal(suno.title, 'Night drive')
      assert.equal(suno.text, '[Verse] lyrics')
      assert.equal(suno.video_duration, 121.5)
      const viggle = (await list(admin, '/api/viggle/'))[0]!
      assert.equal(viggle.result, 'https://cdn.example/dance.mp4')
      assert.equal(viggle.url, 'https://cdn.example/dance.mp4')
      assert.equal(viggle.video_duration, 12)
      const ideo = (await list(admin, '/api/ideo/'))[0]!
      assert.equal(ideo.image_url, 'https://cdn.example/pic.png')
      assert.equal(ideo.result, '{"images":1}')
      assert.equal((await list(admin, '/api/runway/'))[0]!.data, 'not json', 'unparseable data is passed as text')
    })

    it('refuses, naming the field, bad query values', async () => {
      for (const [path, field] of [
        ['/api/mj/?p=-1', 'p'],
        ['/api/mj/?p=abc', 'p'],
        ['/api/mj/?channel_id=x', 'channel_id'],
        ['/api/mj/?start_timestamp=1e400', 'start_timestamp'],
        ['/api/mj/?end_timestamp=99999999999999', 'end_timestamp'],
        ['/api/suno/self?suno_id=' + 'x'.repeat(192), 'suno_id'],
        ['/api/pika/?platfrom=' + 'x'.repeat(33), 'platfrom'],
      ] as const) {
        const r = await admin.get(path)
        assertRefused(r, path)
        assert.equal(r.body.data?.field, field, path)
        assert.match(r.body.message, new RegExp(`^${field}\\b`))
      }
      const zh = await admin.call('GET', '/api/mj/?p=-1', undefined, { 'accept-language': 'zh-CN' })
      assert.deepEqual([zh.body.message, zh.body.data.field], ['p 不能小于 0', 'p'])
    })
  })
}
