import { expect } from '@esm-bundle/chai'
import { setViewport } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import { $, $$, cleanup, serverCommand, waitFor, waitForText, waitForToast } from './helpers.ts'
import { insertTasks, took, user, rows, cell, cellText, rowWithId, mountTasks, setFilter, search, stubClipboard } from './tasks-helpers.ts'

describe('<tollgate-tasks> for a user: times, media, prompts and paging', () => {
  afterEach(cleanup)

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
