/**
 * Ideogram (type 51) in Ideogram's API: POST /ideogram/generate `{image_request:{prompt, model}}`
 * and POST /ideogram/remix (multipart: `image_file` and `image_request` as JSON text, forwarded as
 * received) answer at once `{created, data:[{url, prompt, …}]}`, so the task is recorded finished
 * (no poll); its id is ours (Ideogram gives none). Action and price: ideo_gen_<model> and
 * ideo_remix_<model> (model V_2 by default), the spec's Ideogram action kinds.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import { field, str } from './types.ts'
import { restRefuse, type RestPlatform } from './rest.ts'
import { callerOf, submitTask, taskHandler, TaskError } from './submit.ts'
import type { TaskChanges } from '../../db/tasks.ts'

const modelOf = (request: unknown) => str(field(request, 'model')) || 'V_2'
const generateModel = (b: Record<string, unknown>) => `ideo_gen_${modelOf(b.image_request)}`

function finished(json: unknown): TaskChanges {
  const first = (field(json, 'data') as unknown[])[0]
  const url = str(field(first, 'url'))
  return { status: 'SUCCESS', progress: '100%', image_url: url, url, finish_time: Date.now(), start_time: Date.now() }
}

const taskIdOf = (json: unknown) => (Array.isArray(field(json, 'data')) ? randomUUID() : '')

/** POST /ideogram/remix: the multipart body forwarded as received, priced by its image_request's model. */
async function remix(engine: RelayEngine, c: Context<Env>): Promise<Response> {
  const caller = await callerOf(engine, c)
  const contentType = c.req.header('content-type') ?? ''
  if (!contentType.startsWith('multipart/form-data')) throw new TaskError(400, 'invalid_request', 'the body must be multipart/form-data')
  const raw = new Uint8Array(await c.req.arrayBuffer())
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData().catch(() => null)
  const text = form?.get('image_request')
  if (!form?.get('image_file') || typeof text !== 'string')
    throw new TaskError(400, 'invalid_request', 'image_file and image_request are required')
  let request: unknown
  try {
    request = JSON.parse(text)
  } catch {
    throw new TaskError(400, 'invalid_request', 'image_request must be JSON')
  }
  const model = `ideo_remix_${modelOf(request)}`
  const r = await submitTask(engine, caller, {
    platform: 'ideogram',
    action: model,
    model,
    path: '/ideogram/remix',
    body: raw,
    contentType,
    auth: (ch: ChannelState) => ({ authorization: `Bearer ${ch.key}` }),
    prompt: str(field(request, 'prompt')),
    properties: JSON.stringify({ input: { image_request: request } }),
    accepted(_status, json) {
      const taskId = taskIdOf(json)
      return taskId ? { taskId, changes: { data: JSON.stringify(json), ...finished(json) } } : null
    },
  })
  return new Response(r.text, { status: r.status, headers: { 'content-type': 'application/json' } })
}

export const ideogramPlatform: RestPlatform = {
  platform: 'ideogram',
  channelTypes: [51],
  submits: [{ path: '/ideogram/generate', action: generateModel, model: generateModel }],
  fetches: [],
  taskIdOf,
  finishedAtSubmit: finished,
  fetchPath: () => '',
  read: () => ({ phase: 'success', changes: {} }),
  routes(app, engine) {
    app.post(
      '/ideogram/remix',
      taskHandler(restRefuse, (c) => remix(engine, c)),
    )
  },
}
