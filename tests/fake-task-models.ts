/**
 * The model-API providers of the fake task upstream, each in its own API and with its own key
 * scheme (a call with another scheme is answered 401):
 * - Replicate (`Authorization: Bearer`): POST /v1/predictions and /v1/models/{owner}/{name}/predictions
 *   answer a prediction (201); GET /v1/predictions/{id}: starting, processing, succeeded | failed.
 * - bfl.ai (`x-key`): POST /v1/{model} answers `{id, polling_url}`; GET /v1/get_result?id=:
 *   Pending, Pending, Ready | Content Moderated; an unknown id is "Task not found".
 * - fal.ai (`Authorization: Key`, model ids under fal-ai/): POST /{model id} answers
 *   `{request_id, status_url, response_url, cancel_url}`; GET /{owner}/{app}/requests/{id}/status
 *   (without the model's subpath, as fal): IN_QUEUE, IN_PROGRESS, COMPLETED; GET
 *   /{owner}/{app}/requests/{id} the result, or 422 `{detail}` for a failed request.
 * A key containing "foreign" makes the links of an answer point at another host (never to be
 * called with the key); "fail" fails the tasks, "refuse" refuses submits, "down" fails every read.
 */
import { send, type Call, type FakeTask, type Provider } from './fake-task-upstream.ts'

const FOREIGN = 'https://elsewhere.invalid'
const base = (p: Provider, key: string) => (key.includes('foreign') ? FOREIGN : p.url)

function prediction(p: Provider, t: FakeTask) {
  const s = p.state(t)
  const ok = s === 'ok'
  return {
    id: t.id,
    model: t.kind.slice('replicate:'.length),
    input: t.body?.input ?? {},
    status: { queued: 'starting', running: 'processing', ok: 'succeeded', fail: 'failed' }[s],
    // a model path answers one URL, a version a list of them (Replicate's outputs vary by model)
    output: ok ? (t.kind.includes('/') ? p.media(t, 'mp4') : [p.media(t, 'png')]) : null,
    error: s === 'fail' ? 'CUDA out of memory' : null,
    urls: { get: `${base(p, t.key)}/v1/predictions/${t.id}`, cancel: `${base(p, t.key)}/v1/predictions/${t.id}/cancel` },
  }
}

function replicate(p: Provider, c: Call): boolean {
  const submit = c.path === '/v1/predictions' || /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(c.path)
  const fetch = /^\/v1\/predictions\/([^/]+)$/.exec(c.path)
  if (!(submit && c.method === 'POST') && !(fetch && c.method === 'GET')) return false
  if (c.headers.authorization !== `Bearer ${c.key}`) return send(c.res, 401, { detail: 'Unauthenticated' })
  if (fetch) {
    if (c.key.includes('down')) return send(c.res, 500, { detail: 'down' })
    const [t] = p.fetchAll([fetch[1]])
    return t ? send(c.res, 200, prediction(p, t)) : send(c.res, 404, { detail: 'Not found.' })
  }
  if (c.key.includes('refuse')) return send(c.res, 422, { detail: 'Invalid version or not permitted' })
  const model = c.path.startsWith('/v1/models/') ? c.path.split('/').slice(3, 5).join('/') : String(c.body?.version)
  return send(c.res, 201, prediction(p, p.submit(`replicate:${model}`, c.key, c.body)))
}

function bfl(p: Provider, c: Call): boolean {
  const submit = /^\/v1\/(flux-[a-z0-9.-]+)$/.exec(c.path)
  if (!(submit && c.method === 'POST') && !(c.path === '/v1/get_result' && c.method === 'GET')) return false
  if (c.headers['x-key'] !== c.key || c.headers.authorization) return send(c.res, 401, { detail: 'Not authenticated' })
  if (submit) {
    if (c.key.includes('refuse')) return send(c.res, 422, { detail: 'the prompt was refused' })
    const t = p.submit(`bfl:${submit[1]}`, c.key, c.body)
    return send(c.res, 200, { id: t.id, polling_url: `${base(p, c.key)}/v1/get_result?id=${t.id}` })
  }
  if (c.key.includes('down')) return send(c.res, 500, { detail: 'down' })
  const id = new URLSearchParams(c.query).get('id') ?? ''
  const [t] = p.fetchAll([id])
  if (!t) return send(c.res, 200, { id, status: 'Task not found' })
  const s = p.state(t)
  const status = { queued: 'Pending', running: 'Pending', ok: 'Ready', fail: 'Content Moderated' }[s]
  const result = s === 'ok' ? { sample: `${p.media(t, 'jpeg')}?se=2099&sig=x`, prompt: t.body?.prompt ?? '' } : null
  return send(c.res, 200, { id: t.id, status, result, progress: s === 'running' ? 0.5 : null })
}

function fal(p: Provider, c: Call): boolean {
  if (!c.path.startsWith('/fal-ai/')) return false
  if (c.headers.authorization !== `Key ${c.key}`) return send(c.res, 401, { detail: 'Unauthorized' })
  const read = /^\/(fal-ai\/[^/]+)\/requests\/([^/]+)(\/status)?$/.exec(c.path)
  if (c.method === 'POST' && !read) {
    if (c.key.includes('refuse')) return send(c.res, 422, { detail: [{ msg: 'field required', loc: ['body', 'prompt'] }] })
    const t = p.submit(`fal:${c.path.slice(1)}`, c.key, c.body)
    const requests = `${base(p, c.key)}/${c.path.split('/').slice(1, 3).join('/')}/requests/${t.id}`
    const links = { status_url: `${requests}/status`, response_url: requests, cancel_url: `${requests}/cancel` }
    return send(c.res, 200, { request_id: t.id, status: 'IN_QUEUE', queue_position: 0, ...links })
  }
  if (!read || c.method !== 'GET') return false
  if (c.key.includes('down')) return send(c.res, 500, { detail: 'down' })
  const known = p.tasks.get(read[2]!)
  // fal reads a request at owner/app, without the model's subpath
  const t = known && known.kind.startsWith(`fal:${read[1]}`) ? known : undefined
  if (!t) return send(c.res, 404, { detail: 'Request not found' })
  if (read[3]) {
    p.fetchAll([t.id])
    const s = p.state(t)
    return send(c.res, 200, {
      status: { queued: 'IN_QUEUE', running: 'IN_PROGRESS', ok: 'COMPLETED', fail: 'COMPLETED' }[s],
      queue_position: 0,
    })
  }
  if (p.state(t) === 'fail') return send(c.res, 422, { detail: 'the image could not be made' })
  if (p.state(t) !== 'ok') return send(c.res, 400, { detail: 'Request is still in progress' })
  return send(c.res, 200, { images: [{ url: p.media(t, 'png'), width: 1024, height: 768 }], seed: 42 })
}

/** Replicate, bfl.ai and fal.ai; false when the call is none of theirs. */
export function models(p: Provider, c: Call): boolean {
  return replicate(p, c) || bfl(p, c) || fal(p, c)
}
