/**
 * A fake image, music and video provider on loopback speaking each task protocol the relays use:
 * mj-proxy (`mj-api-secret`), Suno's and Udio's task API, Suno's web API, Luma, Runway,
 * RunwayML, Kling, Viggle, Ideogram, Pika, Pixverse and Riffusion (fake-task-feeds.ts), with
 * bearer keys, and Replicate, bfl.ai and fal.ai with theirs (fake-task-models.ts). Tasks move on over time: queued, then
 * running, then finished, one stage per fetch of the task (or per `stepMs` when set). The channel's
 * key chooses the ending: a key containing "fail" fails its tasks, "refuse" refuses submits,
 * "noaccount" answers mj-proxy's code 3, "down" answers every fetch with 500.
 *
 * Run alone: node tests/fake-task-upstream.ts [port] [stepMs]  -> prints "listening <port>".
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { feeds } from './fake-task-feeds.ts'
import { models } from './fake-task-models.ts'

export interface FakeTask {
  id: string
  kind: string
  key: string
  submitted: number
  fetches: number
  body: any
}

export interface FakeTaskUpstream {
  url: string
  tasks: Map<string, FakeTask>
  /** submits and fetches received, newest last */
  requests: Array<{ method: string; path: string; key: string; body: any; query?: string }>
  close(): Promise<void>
}

// a 1x1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

let seq = 0

type State = 'queued' | 'running' | 'ok' | 'fail'

/** The tasks and the clock of one fake provider. */
export class Provider {
  url = ''
  tasks = new Map<string, FakeTask>()
  requests: FakeTaskUpstream['requests'] = []
  private stepMs: number
  constructor(stepMs: number) {
    this.stepMs = stepMs
  }

  /** 0 queued, 1 running, 2 finished: "ok" or "fail" by the key */
  state(t: FakeTask): State {
    const s = this.stepMs ? Math.floor((Date.now() - t.submitted) / this.stepMs) : t.fetches
    if (s <= 0) return 'queued'
    if (s === 1) return 'running'
    return t.key.includes('fail') ? 'fail' : 'ok'
  }

  media(t: FakeTask, ext: string): string {
    return `${this.url}/files/${t.id}.${ext}`
  }

  submit(kind: string, key: string, body: any): FakeTask {
    const id = `${kind.replace(/\W/g, '-')}-${++seq}-${Date.now().toString(36)}`
    const t: FakeTask = { id, kind, key, submitted: Date.now(), fetches: 0, body }
    this.tasks.set(t.id, t)
    return t
  }

  /** The tasks of these ids, each counted as fetched once. */
  fetchAll(ids: unknown): FakeTask[] {
    const list = (Array.isArray(ids) ? ids : []).map((id) => this.tasks.get(String(id))).filter((t): t is FakeTask => !!t)
    for (const t of list) t.fetches++
    return list
  }
}

export function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
  return true
}

function mjTask(p: Provider, t: FakeTask) {
  const s = p.state(t)
  const status = { queued: 'SUBMITTED', running: 'IN_PROGRESS', ok: 'SUCCESS', fail: 'FAILURE' }[s]
  return {
    id: t.id,
    action: t.kind,
    prompt: t.body?.prompt ?? '',
    promptEn: t.body?.prompt ?? '',
    description: '',
    status,
    progress: { queued: '0%', running: '50%', ok: '100%', fail: '100%' }[s],
    imageUrl: s === 'running' || s === 'ok' ? p.media(t, 'png') : '',
    failReason: s === 'fail' ? 'banned prompt detected' : '',
    submitTime: t.submitted,
    startTime: s === 'queued' ? 0 : t.submitted + 1,
    finishTime: s === 'ok' || s === 'fail' ? Date.now() : 0,
    buttons: s === 'ok' ? [{ customId: `MJ::JOB::upsample::1::${t.id}`, label: 'U1' }] : [],
    properties: {},
  }
}

function sunoTask(p: Provider, t: FakeTask) {
  const s = p.state(t)
  return {
    task_id: t.id,
    action: 'MUSIC',
    status: { queued: 'SUBMITTED', running: 'IN_PROGRESS', ok: 'SUCCESS', fail: 'FAILURE' }[s],
    fail_reason: s === 'fail' ? 'the song could not be made' : '',
    submit_time: Math.floor(t.submitted / 1000),
    start_time: s === 'queued' ? 0 : Math.floor(t.submitted / 1000),
    finish_time: s === 'ok' || s === 'fail' ? Math.floor(Date.now() / 1000) : 0,
    progress: { queued: '0%', running: '50%', ok: '100%', fail: '100%' }[s],
    data:
      s === 'queued'
        ? []
        : [
            {
              id: `${t.id}-clip`,
              title: 'A fake song',
              audio_url: p.media(t, 'mp3'),
              image_url: p.media(t, 'png'),
              metadata: { duration: 42 },
            },
          ],
  }
}

/** Every provider's answer for one task, by platform. */
const RENDER: Record<string, (p: Provider, t: FakeTask) => unknown> = {
  luma: (p, t) => {
    const s = p.state(t)
    return {
      id: t.id,
      state: { queued: 'queued', running: 'dreaming', ok: 'completed', fail: 'failed' }[s],
      failure_reason: s === 'fail' ? 'the video could not be made' : null,
      video: s === 'ok' ? { url: p.media(t, 'mp4'), duration: 5 } : null,
      thumbnail: s === 'ok' ? { url: p.media(t, 'png') } : null,
    }
  },
  runway: (p, t) => {
    const s = p.state(t)
    return {
      task: {
        id: t.id,
        status: { queued: 'PENDING', running: 'RUNNING', ok: 'SUCCEEDED', fail: 'FAILED' }[s],
        progressRatio: s === 'running' ? '0.5' : s === 'queued' ? '0' : '1',
        artifacts: s === 'ok' ? [{ url: p.media(t, 'mp4') }] : [],
        error: s === 'fail' ? 'the video could not be made' : '',
      },
    }
  },
  runwayml: (p, t) => {
    const s = p.state(t)
    return {
      id: t.id,
      status: { queued: 'PENDING', running: 'RUNNING', ok: 'SUCCEEDED', fail: 'FAILED' }[s],
      progress: s === 'running' ? 0.5 : 0,
      output: s === 'ok' ? [p.media(t, 'mp4')] : [],
      failure: s === 'fail' ? 'the video could not be made' : undefined,
    }
  },
  kling: (p, t) => {
    const s = p.state(t)
    const result = t.kind.includes('images')
      ? { images: [{ url: p.media(t, 'png') }] }
      : { videos: [{ url: p.media(t, 'mp4'), duration: '5' }] }
    return {
      code: 0,
      message: 'SUCCEED',
      data: {
        task_id: t.id,
        task_status: { queued: 'submitted', running: 'processing', ok: 'succeed', fail: 'failed' }[s],
        task_status_msg: s === 'fail' ? 'the video could not be made' : '',
        task_result: s === 'ok' ? result : {},
      },
    }
  },
  viggle: (p, t) => {
    const s = p.state(t)
    return {
      taskID: t.id,
      status: { queued: -1, running: 1, ok: 0, fail: 2 }[s],
      result: s === 'ok' ? p.media(t, 'mp4') : '',
      resultCover: s === 'ok' ? p.media(t, 'png') : '',
      videoDuration: s === 'ok' ? 6 : 0,
    }
  },
}

export interface Call {
  method: string
  path: string
  key: string
  body: any
  res: ServerResponse
  headers: IncomingHttpHeaders
  query: string
}

/** mj-proxy: submits, list-by-condition, image seed. */
function midjourney(p: Provider, c: Call): boolean {
  const m = c.path.match(/^(?:\/mj-[a-z]+)?\/mj\/(submit\/[a-z-]+|insight-face\/swap)$/)
  if (m && c.method === 'POST') {
    if (c.key.includes('noaccount')) return send(c.res, 200, { code: 3, description: 'no available account instance', result: null })
    if (c.key.includes('refuse'))
      return send(c.res, 200, { code: 24, description: 'banned prompt', result: null, properties: { bannedWord: 'x' } })
    const t = p.submit(m[1], c.key, c.body)
    return send(c.res, 200, { code: 1, description: 'Submit success', result: t.id, properties: {} })
  }
  if (c.path === '/mj/task/list-by-condition' && c.method === 'POST') {
    if (c.key.includes('down')) return send(c.res, 500, { error: 'the provider is down' })
    return send(
      c.res,
      200,
      p.fetchAll(c.body?.ids).map((t) => mjTask(p, t)),
    )
  }
  if (/^\/mj\/task\/[^/]+\/image-seed$/.test(c.path)) return send(c.res, 200, { code: 1, description: 'success', result: '1234567890' })
  return false
}

/** A clip of a generation through Suno's web API (ids `<task id>-clip<n>`). */
function sunoClip(p: Provider, t: FakeTask, n: number) {
  const s = p.state(t)
  return {
    id: `${t.id}-clip${n}`,
    status: { queued: 'submitted', running: 'streaming', ok: 'complete', fail: 'error' }[s],
    title: t.body?.title || 'A fake song',
    audio_url: s === 'ok' ? p.media(t, 'mp3') : '',
    image_url: s === 'ok' ? p.media(t, 'png') : '',
    metadata: { duration: s === 'ok' ? 42 : null, error_message: s === 'fail' ? 'the song could not be made' : null },
  }
}

/** Suno's web API as the family's Suno server relays it: generate, feed, lyrics. */
function sunoWeb(p: Provider, c: Call): boolean {
  if (c.method === 'POST' && /^\/suno\/generate(\/description-mode|\/lyrics)?\/?$/.test(c.path)) {
    if (c.key.includes('refuse')) return send(c.res, 400, { detail: 'the prompt was refused' })
    if (c.path.includes('/lyrics')) return send(c.res, 200, { id: p.submit('suno-lyrics', c.key, c.body).id })
    const t = p.submit('suno-web', c.key, c.body)
    return send(c.res, 200, { id: t.id, clips: [sunoClip(p, t, 1), sunoClip(p, t, 2)], status: 'running' })
  }
  let m = c.path.match(/^\/suno\/feed\/([^/]+)$/)
  if (m && c.method === 'GET') {
    if (c.key.includes('down')) return send(c.res, 500, { detail: 'down' })
    const ids = decodeURIComponent(m[1]).split(',')
    const tasks = p.fetchAll([...new Set(ids.map((id) => id.split('-clip')[0]))])
    return send(
      c.res,
      200,
      ids.flatMap((id) => tasks.filter((t) => id.startsWith(`${t.id}-clip`)).map((t) => sunoClip(p, t, Number(id.split('-clip')[1])))),
    )
  }
  m = c.path.match(/^\/suno\/lyrics\/([^/]+)$/)
  if (m && c.method === 'GET') {
    const [t] = p.fetchAll([m[1]])
    if (!t) return send(c.res, 404, { detail: 'not found' })
    const s = p.state(t)
    const status = { queued: 'submitted', running: 'running', ok: 'complete', fail: 'error' }[s]
    return send(c.res, 200, { id: t.id, status, title: s === 'ok' ? 'Fake lyrics' : '', text: s === 'ok' ? '[Verse]\nla la la' : '' })
  }
  return false
}

/** Suno's and Udio's task API. */
function music(p: Provider, c: Call): boolean {
  if (sunoWeb(p, c)) return true
  let m = c.path.match(/^\/(suno|udio)\/submit\/([a-z]+)$/)
  if (m && c.method === 'POST') {
    if (c.key.includes('refuse')) return send(c.res, 400, { code: 'error', message: 'the prompt was refused', data: null })
    return send(c.res, 200, { code: 'success', message: '', data: p.submit(m[1], c.key, c.body).id })
  }
  if (c.path === '/suno/fetch' && c.method === 'POST') {
    if (c.key.includes('down')) return send(c.res, 500, { code: 'error', message: 'down' })
    return send(c.res, 200, { code: 'success', message: '', data: p.fetchAll(c.body?.ids).map((t) => sunoTask(p, t)) })
  }
  m = c.path.match(/^\/udio\/fetch\/([^/]+)$/)
  if (m) {
    if (c.key.includes('down')) return send(c.res, 500, { error: 'the provider is down' })
    const [t] = p.fetchAll([m[1]])
    if (!t) return send(c.res, 404, { error: 'task not found' })
    const ok = p.state(t) === 'ok'
    const songs = ok
      ? [{ id: `${t.id}-s`, title: 'A fake udio song', song_path: p.media(t, 'mp3'), image_path: p.media(t, 'png'), duration: 33 }]
      : []
    return send(c.res, 200, { code: 'success', message: '', data: { ...sunoTask(p, t), data: { songs } } })
  }
  return false
}

/** The REST platforms' submits. */
function restSubmit(p: Provider, c: Call): boolean {
  if (c.method !== 'POST') return false
  if (c.key.includes('refuse')) return send(c.res, 400, { error: { message: 'the prompt was refused' } })
  if (c.path === '/ideogram/generate' || c.path === '/ideogram/remix') {
    const url = `${p.url}/files/ideo-${++seq}.png`
    return send(c.res, 200, { created: new Date().toISOString(), data: [{ url, prompt: c.body?.image_request?.prompt ?? '' }] })
  }
  if (/^\/luma\/generations(\/[^/]+\/extend)?$/.test(c.path)) return send(c.res, 200, RENDER.luma(p, p.submit('luma', c.key, c.body)))
  if (c.path === '/runway/tasks' || c.path === '/runway/image_to_video')
    return send(c.res, 200, RENDER.runway(p, p.submit('runway', c.key, c.body)))
  if (c.path === '/runwayml/v1/image_to_video') return send(c.res, 200, { id: p.submit('runwayml', c.key, c.body).id })
  let m = c.path.match(/^\/kling\/v1\/(videos\/text2video|videos\/image2video|images\/generations|images\/kolors-virtual-try-on)$/)
  if (m) return send(c.res, 200, RENDER.kling(p, p.submit(m[1], c.key, c.body)))
  m = c.path.match(/^(\/pro)?\/viggle\/video-task\/by-ids$/)
  if (m) {
    if (c.key.includes('down')) return send(c.res, 500, { error: 'the provider is down' })
    // the pro pool is a separate pool: its tasks are known only there
    const pool = m[1] ? 'viggle-pro' : 'viggle'
    const ids = (Array.isArray(c.body?.ids) ? c.body.ids : []).filter((id: string) => p.tasks.get(String(id))?.kind === pool)
    return send(c.res, 200, { code: 0, data: p.fetchAll(ids).map((t) => RENDER.viggle(p, t)) })
  }
  m = c.path.match(/^(\/pro)?\/viggle\/video-task$/)
  if (m) return send(c.res, 200, { code: 0, data: { taskID: p.submit(m[1] ? 'viggle-pro' : 'viggle', c.key, c.body).id } })
  return false
}

const REST_FETCHES: Array<[RegExp, string]> = [
  [/^\/luma\/generations\/([^/]+)$/, 'luma'],
  [/^\/runway\/tasks\/([^/]+)$/, 'runway'],
  [/^\/runwayml\/v1\/tasks\/([^/]+)$/, 'runwayml'],
  [/^\/kling\/v1\/(?:videos\/text2video|videos\/image2video|images\/generations|images\/kolors-virtual-try-on)\/([^/]+)$/, 'kling'],
]

/** The REST platforms' task fetches. */
function restFetch(p: Provider, c: Call): boolean {
  if (c.method !== 'GET') return false
  for (const [re, platform] of REST_FETCHES) {
    const m = c.path.match(re)
    if (!m) continue
    if (c.key.includes('down')) return send(c.res, 500, { error: 'the provider is down' })
    // a Kling task is known only under the kind it was submitted as
    const known = p.tasks.get(m[1])
    if (platform === 'kling' && known && !c.path.includes(`/${known.kind}/`)) return send(c.res, 404, { error: 'task not found' })
    const [t] = p.fetchAll([m[1]])
    return t ? send(c.res, 200, RENDER[platform](p, t)) : send(c.res, 404, { error: 'task not found' })
  }
  return false
}

function handle(p: Provider, req: IncomingMessage, res: ServerResponse, body: any): void {
  const path = (req.url ?? '/').split('?')[0]
  const bearer = String(req.headers.authorization ?? '').replace(/^(Bearer|Key)\s+/i, '')
  const key = String(req.headers['mj-api-secret'] ?? req.headers['x-key'] ?? '') || bearer
  const method = req.method ?? 'GET'
  const query = (req.url ?? '').split('?')[1] ?? ''
  p.requests.push({ method, path, key, body, query })
  if (p.requests.length > 500) p.requests.shift()
  if (path.startsWith('/files/')) {
    res.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : path.endsWith('.mp3') ? 'audio/mpeg' : 'video/mp4' })
    res.end(PNG)
    return
  }
  if (!key) return void send(res, 401, { error: 'no key' })
  const c: Call = { method, path, key, body, res, headers: req.headers, query }
  // uploads, assets, listings: echoed, so a test sees what arrived
  if (/^(\/pro)?\/viggle\/(asset|template2)\/|^(\/pro)?\/viggle\/video-task\/credit\/|^\/runway\/uploads|^\/suno\/uploads\//.test(path))
    return void send(res, 200, { code: 0, data: { id: `asset-${++seq}`, method, path, query, type: req.headers['content-type'] ?? '' } })
  if (midjourney(p, c) || music(p, c) || feeds(p, c) || models(p, c) || restSubmit(p, c) || restFetch(p, c)) return
  send(res, 404, { error: `no route ${method} ${path}` })
}

export async function startFakeTaskUpstream(opts: { port?: number; stepMs?: number } = {}): Promise<FakeTaskUpstream> {
  const p = new Provider(opts.stepMs ?? 0)
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      let body: any = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        // a multipart upload (Ideogram's remix) is kept as text to look at
        body = String(req.headers['content-type']).startsWith('multipart/') ? { multipart: raw } : null
      }
      handle(p, req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: p.url,
    tasks: p.tasks,
    requests: p.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startFakeTaskUpstream({ port: Number(process.argv[2] ?? 0), stepMs: Number(process.argv[3] ?? 5000) })
  console.log(`listening ${new URL(fake.url).port}`)
}
