/**
 * The feed-style providers of the fake task upstream, in the shapes the family's client reads:
 * Pika (`{id}`, feed `{id, videos:[{status, resultUrl…}]}`), Pixverse (`{ErrCode, Resp:{video_id}}`,
 * feed `{ErrCode, Resp:{video_status, url…}}`) and Riffusion (`{jobs:[{id}]}`, feed of the job ids
 * `{status, generations:[…]}`).
 */
import { send, type Call, type FakeTask, type Provider } from './fake-task-upstream.ts'

function pika(p: Provider, t: FakeTask) {
  const s = p.state(t)
  const ok = s === 'ok'
  return {
    id: t.id,
    promptText: t.body?.promptText ?? '',
    videos: [
      {
        id: `${t.id}-v`,
        status: { queued: 'queued', running: 'pending', ok: 'finished', fail: 'error' }[s],
        progress: s === 'running' ? 50 : ok ? 100 : 0,
        resultUrl: ok ? p.media(t, 'mp4') : '',
        videoPoster: ok ? p.media(t, 'png') : '',
        duration: ok ? 5 : 0,
        error: s === 'fail' ? 'the video could not be made' : '',
      },
    ],
  }
}

function pixverse(p: Provider, t: FakeTask) {
  const s = p.state(t)
  const ok = s === 'ok'
  const status = { queued: 5, running: 5, ok: 1, fail: 8 }[s]
  return {
    ErrCode: 0,
    ErrMsg: 'Success',
    Resp: { video_status: status, url: ok ? p.media(t, 'mp4') : '', first_frame: ok ? p.media(t, 'png') : '', video_duration: ok ? 5 : 0 },
  }
}

function riffusion(p: Provider, tasks: FakeTask[]) {
  const states = tasks.map((t) => p.state(t))
  const status = states.includes('fail')
    ? 'failed'
    : states.every((s) => s === 'ok')
      ? 'success'
      : states.includes('running')
        ? 'running'
        : 'queued'
  const generations = tasks
    .filter((t) => p.state(t) === 'ok' || p.state(t) === 'running')
    .map((t) => ({
      id: t.id,
      title: 'A fake riff',
      audio_url: p.media(t, 'mp3'),
      image_url: p.media(t, 'png'),
      duration_s: 30,
      lyrics: 'la',
    }))
  return { status, generations }
}

export function feeds(p: Provider, c: Call): boolean {
  let m = c.path.match(/^\/(pika|pixverse|riffusion)\/generate(\/topic)?$/)
  if (m && c.method === 'POST') {
    if (c.key.includes('refuse')) return send(c.res, 400, { error: { message: 'the prompt was refused' } })
    if (m[1] === 'pika') return send(c.res, 200, { id: p.submit('pika', c.key, c.body).id })
    if (m[1] === 'pixverse')
      return send(c.res, 200, { ErrCode: 0, ErrMsg: 'Success', Resp: { video_id: p.submit('pixverse', c.key, c.body).id } })
    return send(c.res, 200, { jobs: [1, 2].map(() => ({ id: p.submit('riffusion', c.key, c.body).id, status: 'queued' })) })
  }
  m = c.path.match(/^\/(pika|pixverse|riffusion)\/feed\/([^/]+)$/)
  if (!m || c.method !== 'GET') return false
  if (c.key.includes('down')) return send(c.res, 500, { error: 'the provider is down' })
  const tasks = p.fetchAll(decodeURIComponent(m[2]).split(','))
  if (tasks.length === 0) return send(c.res, 404, { error: 'task not found' })
  if (m[1] === 'pika') return send(c.res, 200, pika(p, tasks[0]))
  if (m[1] === 'pixverse') return send(c.res, 200, pixverse(p, tasks[0]))
  return send(c.res, 200, riffusion(p, tasks))
}
