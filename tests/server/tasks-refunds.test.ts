/**
 * Every platform's own failure words end its task failed and refund it exactly once (the ledger
 * whole: quota + used = what was granted, one refund log row): a channel whose key holds "fail"
 * makes the fake provider fail its tasks in that platform's protocol; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects } from './helpers.ts'
import { taskFixture, balances, type TaskFixture } from './tasks-helpers.ts'

const QPU = 500_000
const INITIAL = 1_000_000

interface Case {
  name: string
  type: number
  path: string
  body: Record<string, unknown>
  model: string
  idOf(json: any): string
}

const CASES: Case[] = [
  { name: 'luma', type: 43, path: '/luma/generations', body: { user_prompt: 'x' }, model: 'luma_generate', idOf: (j) => j.id },
  { name: 'lumav2', type: 57, path: '/pro/luma/generations', body: { user_prompt: 'x' }, model: 'luma_v2_generate', idOf: (j) => j.id },
  { name: 'runway', type: 47, path: '/runway/tasks', body: { taskType: 'gen2' }, model: 'runway_gen2', idOf: (j) => j.task.id },
  {
    name: 'runwayml',
    type: 61,
    path: '/runwayml/v1/image_to_video',
    body: { duration: 5 },
    model: 'runwayml_gen3a_turbo_5',
    idOf: (j) => j.id,
  },
  {
    name: 'kling',
    type: 53,
    path: '/kling/v1/videos/image2video',
    body: { image: 'x' },
    model: 'kling-v1_videos_std_5',
    idOf: (j) => j.data.task_id,
  },
  {
    name: 'kling-try-on',
    type: 53,
    path: '/kling/v1/images/kolors-virtual-try-on',
    body: { model_name: 'kolors-virtual-try-on-v1' },
    model: 'kolors-virtual-try-on-v1',
    idOf: (j) => j.data.task_id,
  },
  { name: 'pika', type: 55, path: '/pika/generate', body: { promptText: 'x' }, model: 'pika_v1.5text', idOf: (j) => j.id },
  { name: 'pixverse', type: 58, path: '/pixverse/generate', body: { prompt: 'x' }, model: 'pixverse_v3.5', idOf: (j) => j.Resp.video_id },
  {
    name: 'riffusion',
    type: 64,
    path: '/riffusion/generate',
    body: { prompt: 'x' },
    model: 'riffusion_generate',
    idOf: (j) => j.jobs.map((x: any) => x.id).join(','),
  },
  {
    name: 'viggle',
    type: 45,
    path: '/viggle/video-task',
    body: { imageID: 'a', videoID: 'b' },
    model: 'vg_generate',
    idOf: (j) => j.data.taskID,
  },
  { name: 'udio', type: 49, path: '/udio/submit/music', body: { prompt: 'x' }, model: 'udio_music', idOf: (j) => j.data },
  {
    name: 'replicate',
    type: 59,
    path: '/replicate/v1/models/owner/model/predictions',
    body: { input: {} },
    model: 'replicate_owner/model',
    idOf: (j) => j.id,
  },
  { name: 'bfl', type: 65, path: '/bfl/v1/flux-pro', body: { prompt: 'x' }, model: 'bfl_flux-pro', idOf: (j) => j.id },
  { name: 'fal', type: 66, path: '/fal/fal-ai/flux/dev', body: { prompt: 'x' }, model: 'fal_fal-ai_flux_dev', idOf: (j) => j.request_id },
  { name: 'suno', type: 41, path: '/suno/submit/music', body: { prompt: 'x' }, model: 'suno_music', idOf: (j) => j.data },
  { name: 'midjourney', type: 2, path: '/mj/submit/imagine', body: { prompt: 'x' }, model: 'mj_imagine', idOf: (j) => j.result },
]

for (const dialect of dialects) {
  describe(`every platform refunds a failed task once (${dialect})`, () => {
    let f: TaskFixture

    before(async () => {
      f = await taskFixture(dialect)
      for (const c of CASES) await f.channel({ type: c.type, key: `${c.name}-fail`, baseUrl: f.provider.url, models: c.model })
    })
    after(() => f.close())

    for (const c of CASES) {
      it(`${c.name}: ${c.path} fails in its own words and is refunded once`, async () => {
        const a = await f.account(INITIAL)
        const r = await f.send(a.key, 'POST', c.path, c.body)
        assert.equal(r.status, c.name === 'replicate' ? 201 : 200, JSON.stringify(r.json))
        const id = c.idOf(r.json)
        assert.equal((await balances(f, a.userId)).used, 0.1 * QPU, 'charged at submit')
        await f.rounds(4)
        const row = await f.task(id)
        assert.deepEqual([row.progress, Number(row.refunded)], ['100%', 1], JSON.stringify(row))
        assert.ok(row.fail_reason, 'a reason is kept')
        const b = await balances(f, a.userId)
        assert.equal(b.used, 0)
        assert.equal(b.quota + b.used, INITIAL)
        assert.equal(b.refunds.length, 1)
        assert.equal(b.consumed - b.refunded, b.used, 'logs: consumption minus refunds = used')
      })
    }
  })
}
