import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import {
  $,
  $$,
  cleanup,
  inputNamed,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  setOptions,
  signInAs,
  sleep,
  textOf,
  uniqueName,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

const DAY = 24 * 3600 * 1000
let seq = 0

interface TaskRow {
  platform?: string
  task_id?: string
  action?: string
  status?: string
  code?: number
  progress?: string
  submit_time?: number
  start_time?: number
  finish_time?: number
  channel_id?: number
  prompt?: string
  prompt_en?: string
  fail_reason?: string
  image_url?: string
  audio_url?: string
  result?: string
  title?: string
  text?: string
  video_duration?: number
  sub_platform?: string
  data?: string
}

/** Writes task rows for `owner` straight into the real server's database (times in ms). */
function insertTasks(owner: string, platform: string, rows: TaskRow[]): Promise<number> {
  const now = Date.now()
  return serverCommand<number>('tg-h3-tasks', {
    rows: rows.map((r) => ({
      owner,
      platform,
      task_id: `t${Date.now().toString(36)}${++seq}`,
      submit_time: now - 60_000,
      created_at: now,
      status: 'SUCCESS',
      ...r,
    })),
  })
}

/** A row that took `seconds` from submission to finish. */
const took = (seconds: number, extra: TaskRow = {}): TaskRow => {
  const submit = Date.now() - 3_600_000
  return { submit_time: submit, finish_time: submit + seconds * 1000, ...extra }
}

async function user(): Promise<{ username: string; password: string }> {
  const username = uniqueName('tk')
  await registerAndSignIn(username, 'password123')
  return { username, password: 'password123' }
}

async function admin(): Promise<string> {
  const { username, password } = await user()
  await serverCommand('tg-h3-user', { username, set: { role: 10 } })
  await signInAs(username, password)
  return username
}

const rows = (el: Element) => $$(el, '[data-task-row]')
const cell = (row: Element, col: string) => row.querySelector<HTMLElement>(`[data-col="${col}"]`)!
const cellText = (row: Element, col: string) => (cell(row, col).textContent ?? '').trim()
const rowWithId = (el: Element, id: string) => rows(el).find((r) => cellText(r, 'task-id') === id)

async function mountTasks(platform: string): Promise<HTMLElement> {
  const el = await mount(`<tollgate-tasks platform="${platform}"></tollgate-tasks>`)
  await waitFor(() => $(el, '[data-task-row]') || $(el, '[part="empty-state"]') || $(el, 'sl-alert[variant="danger"]'), 'the task list')
  return el
}

async function setFilter(el: Element, name: string, value: string): Promise<void> {
  const input = inputNamed(el, name)!
  input.value = value
  input.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(50)
}

async function search(el: Element): Promise<void> {
  $$<HTMLElement & { type: string }>(el, 'form[part="filters"] sl-button')
    .find((b) => b.type === 'submit')!
    .click()
  await sleep(50)
}

/** Inserts one row per value with task ids `<prefix>-<i>`, mounts the list, returns the label of each. */
async function labels(platform: string, list: string, field: 'status' | 'action', values: string[], col: string): Promise<string[]> {
  const me = await user()
  const prefix = uniqueName('id')
  await insertTasks(
    me.username,
    platform,
    values.map((v, i) => ({ [field]: v, task_id: `${prefix}-${i}` })),
  )
  const el = await mountTasks(list)
  // ten per page: load the rest
  for (let page = 1; page < Math.ceil(values.length / 10); page++) {
    await waitFor(() => rows(el).length === page * 10 && $<HTMLElement>(el, '[data-action="load-more"]'), `page ${page}`).then((b) =>
      b.click(),
    )
  }
  await waitFor(() => rows(el).length === values.length, `${values.length} rows`)
  const out = values.map((_, i) => cellText(rowWithId(el, `${prefix}-${i}`)!, col))
  el.remove()
  return out
}

function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } })
  return () => {
    delete (navigator as unknown as Record<string, unknown>).clipboard
    if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original)
  }
}

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
    const cases: Array<[string, string, Record<string, string>]> = [
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
    for (const [platform, list, kinds] of cases) {
      const got = await labels(platform, list, 'action', Object.keys(kinds), 'action')
      expect(got, platform).to.deep.equal(Object.values(kinds))
    }
  })

  it('colours the time taken: Midjourney, Viggle, Runway, Pika and Kling red above 60 s', async () => {
    for (const platform of ['midjourney', 'viggle', 'runway', 'pika', 'kling']) {
      const me = await user()
      await insertTasks(me.username, platform, [took(60, { task_id: `${platform}-60` }), took(61, { task_id: `${platform}-61` })])
      const el = await mountTasks(platform)
      await waitFor(() => rows(el).length === 2)
      const tone = (id: string) => cell(rowWithId(el, id)!, 'duration').querySelector('[data-tone]')!.getAttribute('data-tone')
      expect([tone(`${platform}-60`), tone(`${platform}-61`)], platform).to.deep.equal(['green', 'red'])
      expect(cellText(rowWithId(el, `${platform}-61`)!, 'duration')).to.equal('61 s')
      el.remove()
    }
  })

  it('colours Luma red above 300 s and shows minutes above 120 s', async () => {
    const me = await user()
    await insertTasks(
      me.username,
      'luma',
      [120, 121, 300, 301].map((s) => took(s, { task_id: `luma-${s}` })),
    )
    const el = await mountTasks('luma')
    await waitFor(() => rows(el).length === 4)
    const show = (s: number) => {
      const tag = cell(rowWithId(el, `luma-${s}`)!, 'duration').querySelector('[data-tone]')!
      return `${tag.textContent!.trim()} ${tag.getAttribute('data-tone')}`
    }
    expect([120, 121, 300, 301].map(show)).to.deep.equal(['120 s green', '2.0 min green', '5.0 min green', '5.0 min red'])
  })

  it('colours the video length of Viggle and Pika red above 30 s', async () => {
    for (const platform of ['viggle', 'pika']) {
      const me = await user()
      await insertTasks(me.username, platform, [
        { task_id: `${platform}-v30`, video_duration: 30 },
        { task_id: `${platform}-v31`, video_duration: 31 },
      ])
      const el = await mountTasks(platform)
      await waitFor(() => rows(el).length === 2)
      const tone = (id: string) => cell(rowWithId(el, id)!, 'video-duration').querySelector('[data-tone]')!.getAttribute('data-tone')
      expect([tone(`${platform}-v30`), tone(`${platform}-v31`)], platform).to.deep.equal(['green', 'red'])
      el.remove()
    }
    const me = await user()
    await insertTasks(me.username, 'runway', [{ video_duration: 40 }])
    const el = await mountTasks('runway')
    expect($$(el, '[data-col="video-duration"]')).to.have.length(0)
  })

  it('previews images, audio and video, and never a script address', async () => {
    const me = await user()
    await insertTasks(me.username, 'midjourney', [
      { task_id: 'mj-img', image_url: 'https://cdn.example.com/a.png' },
      { task_id: 'mj-bad', image_url: 'javascript:alert(1)' },
    ])
    await insertTasks(me.username, 'suno', [
      {
        task_id: 'suno-song',
        audio_url: 'https://cdn.example.com/song.mp3',
        image_url: 'https://cdn.example.com/cover.jpg',
        title: 'Morning Coffee',
      },
    ])
    await insertTasks(me.username, 'luma', [{ task_id: 'luma-vid', result: 'https://cdn.example.com/clip.mp4' }])
    await insertTasks(me.username, 'viggle', [
      { task_id: 'vg-rz', data: JSON.stringify({ rz: [{ video_url: 'https://cdn.example.com/dance.mp4' }] }) },
    ])
    let el = await mountTasks('midjourney')
    await waitFor(() => rowWithId(el, 'mj-img'))
    expect(cell(rowWithId(el, 'mj-img')!, 'result').querySelector('img')!.getAttribute('src')).to.equal('https://cdn.example.com/a.png')
    expect(cell(rowWithId(el, 'mj-img')!, 'result').querySelector('a')!.getAttribute('href')).to.equal('https://cdn.example.com/a.png')
    expect(cell(rowWithId(el, 'mj-bad')!, 'result').querySelector('img, a')).to.equal(null)
    el.remove()
    el = await mountTasks('suno')
    const song = cell(rowWithId(el, 'suno-song')!, 'result')
    expect(song.querySelector('audio')!.getAttribute('src')).to.equal('https://cdn.example.com/song.mp3')
    expect(song.querySelector('img')!.getAttribute('src')).to.equal('https://cdn.example.com/cover.jpg')
    expect(song.textContent).to.include('Morning Coffee')
    el.remove()
    el = await mountTasks('luma')
    expect(cell(rowWithId(el, 'luma-vid')!, 'result').querySelector('video')!.getAttribute('src')).to.equal(
      'https://cdn.example.com/clip.mp4',
    )
    el.remove()
    el = await mountTasks('viggle')
    expect(cell(rowWithId(el, 'vg-rz')!, 'result').querySelector('video')!.getAttribute('src')).to.equal(
      'https://cdn.example.com/dance.mp4',
    )
  })

  it('shows the failure reason, cuts long prompts and opens the whole prompt in a dialog', async () => {
    const me = await user()
    const long = `a lighthouse on a cliff at dawn, ${'very '.repeat(20)}detailed, --ar 16:9`
    await insertTasks(me.username, 'midjourney', [
      { task_id: 'mj-long', prompt: long, prompt_en: 'a lighthouse', status: 'FAILURE', fail_reason: 'banned prompt: blocked word' },
      { task_id: 'mj-short', prompt: 'a cat' },
    ])
    const copied: string[] = []
    const restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountTasks('midjourney')
      await waitFor(() => rowWithId(el, 'mj-long'))
      expect(cellText(rowWithId(el, 'mj-long')!, 'fail-reason')).to.equal('banned prompt: blocked word')
      expect(cellText(rowWithId(el, 'mj-short')!, 'fail-reason')).to.equal('—')
      const shown = cell(rowWithId(el, 'mj-long')!, 'prompt').querySelector('.tg-task__prompt-text')!.textContent!
      expect(shown).to.equal(`${long.slice(0, 60)}…`)
      expect(cell(rowWithId(el, 'mj-short')!, 'prompt').querySelector('[data-action="view-prompt"]')).to.equal(null)
      cell(rowWithId(el, 'mj-long')!, 'prompt').querySelector<HTMLElement>('[data-action="view-prompt"]')!.click()
      const dialog = await waitFor(
        () => $<HTMLElement & { open: boolean }>(el, 'sl-dialog[data-dialog="prompt"]')?.open && $(el, 'sl-dialog[data-dialog="prompt"]'),
        'the prompt dialog',
      )
      expect(dialog.querySelector('[data-prompt-text="tasks.prompt"]')!.textContent).to.equal(long)
      expect(dialog.querySelector('[data-prompt-text="tasks.promptEn"]')!.textContent).to.equal('a lighthouse')
      dialog.querySelector<HTMLElement>('sl-button[variant="text"]')!.click()
      await waitForToast(el, 'copied to clipboard')
      expect(copied).to.deep.equal([long])
    } finally {
      restore()
    }
  })

  it('copies the task id on click and filters by it on the server', async () => {
    const me = await user()
    await insertTasks(me.username, 'kling', [{ task_id: 'kl-one' }, { task_id: 'kl-two' }])
    const copied: string[] = []
    const restore = stubClipboard(async (text) => void copied.push(text))
    try {
      const el = await mountTasks('kling')
      await waitFor(() => rows(el).length === 2)
      cell(rowWithId(el, 'kl-two')!, 'task-id').querySelector('button')!.click()
      await waitForToast(el, 'copied to clipboard')
      expect(copied).to.deep.equal(['kl-two'])
      await setFilter(el, 'mj_id', 'kl-one')
      await search(el)
      await waitFor(() => rows(el).length === 1 && !!rowWithId(el, 'kl-one'), 'the filtered list')
    } finally {
      restore()
    }
  })

  it('filters the Pika list by its sub-platform (the query platfrom)', async () => {
    const me = await user()
    await insertTasks(me.username, 'pika', [
      { task_id: 'pk-web', sub_platform: 'web' },
      { task_id: 'pk-api', sub_platform: 'api' },
    ])
    const el = await mountTasks('pika')
    await waitFor(() => rows(el).length === 2)
    await setFilter(el, 'platfrom', 'api')
    await search(el)
    await waitFor(() => rows(el).length === 1 && !!rowWithId(el, 'pk-api'), 'the api task only')
  })

  it('loads ten at a time and appends the next page', async () => {
    const me = await user()
    const now = Date.now()
    await insertTasks(
      me.username,
      'runway',
      Array.from({ length: 12 }, (_, i) => ({ task_id: `rw-${i}`, submit_time: now - i * 1000 })),
    )
    const el = await mountTasks('runway')
    await waitFor(() => rows(el).length === 10, 'the first page')
    $<HTMLElement>(el, '[data-action="load-more"]')!.click()
    await waitFor(() => rows(el).length === 12, 'the second page')
    expect($(el, '[data-action="load-more"]')).to.equal(null)
    expect(new Set(rows(el).map((r) => cellText(r, 'task-id'))).size).to.equal(12)
  })

  it('reads the Ideogram list for platform="ideogram" and Luma v2 from its own list', async () => {
    const me = await user()
    await insertTasks(me.username, 'ideogram', [{ task_id: 'ideo-1', action: 'ideo_describe' }])
    await insertTasks(me.username, 'lumav2', [{ task_id: 'lv2-1' }])
    await insertTasks(me.username, 'luma', [{ task_id: 'lv1-1' }])
    let el = await mountTasks('ideogram')
    expect(rows(el).map((r) => cellText(r, 'task-id'))).to.deep.equal(['ideo-1'])
    el.remove()
    el = await mountTasks('lumav2')
    expect(rows(el).map((r) => cellText(r, 'task-id'))).to.deep.equal(['lv2-1'])
  })

  it('shows the empty state, and the error panel with Retry when the server refuses', async () => {
    const { username } = await user()
    let el = await mountTasks('suno')
    await waitForText(el, 'No tasks in this range')
    el.remove()
    $session.set({ ...$session.get()!, role: 10 })
    el = await mountTasks('suno')
    await waitFor(() => $(el, 'sl-alert[variant="danger"]'), 'the error panel')
    await serverCommand('tg-h3-user', { username, set: { role: 10 } })
    $$<HTMLElement>(el, 'sl-alert sl-button')
      .find((b) => b.textContent!.includes('Retry'))!
      .click()
    await waitFor(
      () => !$(el, 'sl-alert[variant="danger"]') && ($(el, '[data-task-row]') || $(el, '[part="empty-state"]')),
      'the list after Retry',
    )
  })

  it('speaks Simplified Chinese, follows dark mode and fits a 375 px screen', async () => {
    setLocale('zh')
    setTheme('dark')
    await setViewport({ width: 375, height: 800 })
    try {
      const me = await user()
      await insertTasks(me.username, 'midjourney', [took(30, { task_id: 'mj-zh', action: 'IMAGINE', status: 'IN_PROGRESS' })])
      const el = await mountTasks('midjourney')
      await waitFor(() => rowWithId(el, 'mj-zh'))
      expect(cellText(rowWithId(el, 'mj-zh')!, 'status')).to.equal('执行中')
      expect(cellText(rowWithId(el, 'mj-zh')!, 'action')).to.equal('绘图')
      expect(cellText(rowWithId(el, 'mj-zh')!, 'duration')).to.equal('30 秒')
      expect($(el, '.tg-root')!.classList.contains('sl-theme-dark')).to.equal(true)
      expect(document.documentElement.scrollWidth).to.be.at.most(375)
      expect(getComputedStyle($(el, '.tg-table-wrap')!).overflowX).to.equal('auto')
    } finally {
      await setViewport({ width: 1280, height: 800 })
    }
  })
})

describe('<tollgate-tasks> for an administrator', () => {
  afterEach(cleanup)

  it("reads everyone's tasks with the channel column and filter, and the Midjourney submit results", async () => {
    const other = await user()
    await insertTasks(other.username, 'midjourney', [
      { task_id: 'mj-c1', channel_id: 9101, code: 1 },
      { task_id: 'mj-c21', channel_id: 9101, code: 21 },
      { task_id: 'mj-c22', channel_id: 9101, code: 22 },
      { task_id: 'mj-c0', channel_id: 9101, code: 0 },
      { task_id: 'mj-other-channel', channel_id: 9102, code: 1 },
    ])
    await admin()
    const el = await mountTasks('midjourney')
    expect($(el, '[data-screen="tasks"]')!.dataset.mode).to.equal('admin')
    await setFilter(el, 'channel_id', '9101')
    await search(el)
    await waitFor(() => rows(el).length === 4 && !rowWithId(el, 'mj-other-channel'), 'the four tasks of channel 9101')
    expect(cellText(rowWithId(el, 'mj-c1')!, 'channel')).to.equal('#9101')
    const code = (id: string) => cellText(rowWithId(el, id)!, 'submit-result')
    expect(['mj-c1', 'mj-c21', 'mj-c22', 'mj-c0'].map(code)).to.deep.equal([
      'submitted',
      'waiting',
      'duplicate submission',
      'not submitted',
    ])
  })

  it('keeps the submit result to the Midjourney list', async () => {
    const other = await user()
    await insertTasks(other.username, 'suno', [{ task_id: 'suno-admin', channel_id: 9201 }])
    await admin()
    const el = await mountTasks('suno')
    await setFilter(el, 'channel_id', '9201')
    await search(el)
    await waitFor(() => rowWithId(el, 'suno-admin'))
    expect($$(el, '[data-col="submit-result"]')).to.have.length(0)
    expect(cellText(rowWithId(el, 'suno-admin')!, 'channel')).to.equal('#9201')
  })

  it('tells administrators to set the Midjourney callback while it is off', async () => {
    await setOptions({ MjNotifyEnabled: false })
    await loadStatus()
    await admin()
    let el = await mountTasks('midjourney')
    await waitFor(() => $(el, '[data-notice="mj-callback"]'), 'the notice')
    expect($(el, '[data-notice="mj-callback"]')!.textContent).to.include('Midjourney callback is off')
    el.remove()
    el = await mountTasks('suno')
    expect($(el, '[data-notice="mj-callback"]')).to.equal(null)
    el.remove()
    await setOptions({ MjNotifyEnabled: true })
    await loadStatus()
    el = await mountTasks('midjourney')
    expect($(el, '[data-notice="mj-callback"]')).to.equal(null)
  })
})
