import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import { $, $$, cleanup, inputNamed, mount, textOf, waitFor, waitForText } from './helpers.ts'
import { DAY, insertTasks, user, rows, cellText, rowWithId, mountTasks, labels } from './tasks-helpers.ts'

/** Per platform and list: each action kind the server stores → the name the list shows (unknown kinds raw). */
const ACTION_KINDS: Array<[platform: string, list: string, kinds: Record<string, string>]> = [
  [
    'midjourney',
    'midjourney',
    {
      IMAGINE: 'Imagine',
      UPSCALE: 'Upscale',
      VARIATION: 'Variation',
      HIGH_VARIATION: 'Strong variation',
      LOW_VARIATION: 'Subtle variation',
      PAN: 'Pan',
      DESCRIBE: 'Describe',
      BLEND: 'Blend',
      SHORTEN: 'Shorten',
      REROLL: 'Reroll',
      INPAINT: 'Vary region',
      ZOOM: 'Zoom',
      CUSTOM_ZOOM: 'Custom zoom',
      MODAL: 'Window',
      SWAP_FACE: 'Swap face',
      ZAP: 'ZAP',
    },
  ],
  [
    'suno',
    'suno',
    {
      suno_generate: 'Generate music',
      suno_lyrics: 'Generate lyrics',
      suno_upload: 'Upload audio',
      suno_file: 'Audio file',
      suno_concat: 'Join songs',
      suno_url_upload: 'Upload from a link',
      suno_tau: 'Tau',
      suno_other: 'suno_other',
    },
  ],
  ['luma', 'luma', { luma_generate: 'Generate video', luma_v2_generate: 'Generate video (v2)', luma_extend: 'Extend video' }],
  ['lumav2', 'lumav2', { luma_v2_generate: 'Generate video (v2)' }],
  [
    'viggle',
    'viggle',
    { vg_generate: 'Generate dance', vg_up_image: 'Upload image', vg_up_video: 'Upload video', vg_template: 'Template' },
  ],
  [
    'runway',
    'runway',
    {
      runway_gen2: 'Gen-2',
      runway_gen3_turbo: 'Gen-3 Alpha Turbo',
      runway_gen3_fast: 'Gen-3 Alpha (fast)',
      runway_gen3: 'Gen-3 Alpha',
      runway_file: 'Upload file',
    },
  ],
  [
    'pika',
    'pika',
    {
      'pika_v1.5text': 'v1.5 text to video',
      'pika_v1.5image': 'v1.5 image to video',
      'pika_v2.0text': 'v2.0 text to video',
      'pika_v2.0image': 'v2.0 image to video',
    },
  ],
  ['kling', 'kling', { kling_image: 'Image', kling_img2video: 'Image to video', kling_txt2video: 'Text to video' }],
  [
    'ideogram',
    'ideogram',
    {
      ideo_gen_V_2: 'Generate · V_2',
      ideo_remix_V_2_TURBO: 'Remix · V_2_TURBO',
      ideo_describe: 'Describe',
      ideo_upscale: 'Upscale',
      IMAGINE: 'IMAGINE',
    },
  ],
]

describe('<tollgate-tasks> for a user', () => {
  afterEach(cleanup)

  it('asks to sign in when nobody is signed in', async () => {
    const el = await mount('<tollgate-tasks platform="suno"></tollgate-tasks>')
    await waitForText(el, 'Sign in to see your tasks')
  })

  it("reads the user's own tasks through the /self list and never another user's", async () => {
    const other = await user()
    await insertTasks(other.username, 'midjourney', [{ task_id: 'mj-of-other' }])
    const me = await user()
    await insertTasks(me.username, 'midjourney', [{ task_id: 'mj-mine' }])
    await insertTasks(me.username, 'suno', [{ task_id: 'suno-mine' }])
    const el = await mountTasks('midjourney')
    await waitFor(() => rowWithId(el, 'mj-mine'), 'my task')
    expect(rows(el)).to.have.length(1)
    expect(textOf(el)).to.not.include('mj-of-other')
    expect($(el, '[data-screen="tasks"]')!.dataset.mode).to.equal('user')
    expect($$(el, '[data-col="channel"]')).to.have.length(0)
    expect($$(el, '[data-col="submit-result"]')).to.have.length(0)
    expect($$(el, '[data-col="status"]')).to.have.length(0, 'the task status column is an administrator extra')
    expect(textOf($(el, 'thead')!)).to.not.include('Status')
    expect($(el, '[data-notice="mj-callback"]')).to.equal(null)
  })

  it('defaults the range to 30 days back up to 1 h ahead, and the server answers only rows inside it', async () => {
    const now = Date.now()
    const me = await user()
    await insertTasks(me.username, 'luma', [
      { task_id: 'luma-31d-ago', submit_time: now - 31 * DAY },
      { task_id: 'luma-29d-ago', submit_time: now - 29 * DAY },
      { task_id: 'luma-30min-ahead', submit_time: now + 1_800_000 },
      { task_id: 'luma-2h-ahead', submit_time: now + 7_200_000 },
    ])
    const el = await mountTasks('luma')
    await waitFor(() => rowWithId(el, 'luma-29d-ago'))
    const s = Math.floor(now / 1000)
    expect([toLocalInput(s - 30 * 86400), toLocalInput(s - 30 * 86400 + 60)]).to.include(inputNamed(el, 'start')!.value)
    expect([toLocalInput(s + 3600), toLocalInput(s + 3660)]).to.include(inputNamed(el, 'end')!.value)
    expect(
      rows(el)
        .map((r) => cellText(r, 'task-id'))
        .sort(),
    ).to.deep.equal(['luma-29d-ago', 'luma-30min-ahead'])
  })

  it('labels the Midjourney statuses; empty is none and unknown values stay raw', async () => {
    const got = await labels(
      'midjourney',
      'midjourney',
      'status',
      ['SUCCESS', 'NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'FAILURE', 'MODAL', '', 'WEIRD'],
      'status',
    )
    expect(got).to.deep.equal(['success', 'not started', 'queued', 'in progress', 'failure', 'window waiting', 'none', 'WEIRD'])
  })

  it("labels the other lists' statuses by the spec's groups, '0' meaning success on Viggle only", async () => {
    const values = [
      'complete',
      'completed',
      'succeeded',
      'finished',
      'SUCCEEDED',
      'SUCCEED',
      '1',
      'streaming',
      'processing',
      'RUNNING',
      'queued',
      'queue',
      'pending',
      'PENDING',
      'IN_PROGRESS',
      'fail',
      'FAILED',
      'failed',
      '2',
      'error',
      'MODAL',
      '',
      'SUCCESS',
      'Complete',
      '0',
    ]
    const suno = await labels('suno', 'suno', 'status', values, 'status')
    expect(suno).to.deep.equal([
      ...Array(7).fill('success'),
      ...Array(3).fill('generating'),
      ...Array(5).fill('queued'),
      ...Array(4).fill('failure'),
      'error',
      'window waiting',
      'none',
      'SUCCESS',
      'Complete',
      '0',
    ])
    expect(await labels('viggle', 'viggle', 'status', ['0', '1', 'processing'], 'status')).to.deep.equal([
      'success',
      'success',
      'generating',
    ])
  })

  it('names the action kinds of every list and shows unknown kinds raw', async () => {
    for (const [platform, list, kinds] of ACTION_KINDS) {
      const got = await labels(platform, list, 'action', Object.keys(kinds), 'action')
      expect(got, platform).to.deep.equal(Object.values(kinds))
    }
  })
})
