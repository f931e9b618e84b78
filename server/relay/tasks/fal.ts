/**
 * fal.ai (type 66) in fal's queue API (base https://queue.fal.run, `Authorization: Key <key>`):
 * - POST /fal/{model id} (fal-ai/flux/dev, …) → upstream POST {base}/{model id}, answer
 *   `{request_id, status, status_url, response_url, cancel_url}`, passed on with its links pointed
 *   at the gateway (cancel is not relayed: dropped). Model `fal_<model id, / → _>`.
 * - The poller asks the answer's status_url when it is on the channel's origin or an https fal.run
 *   host, else {base}/{owner}/{app}/requests/{id}/status (fal reads a request without the model's
 *   subpath: fal-ai/flux/dev → fal-ai/flux). IN_QUEUE and IN_PROGRESS run; at COMPLETED it reads
 *   the result (response_url, or …/requests/{id}): a 2xx answer ends it, its first URL the result;
 *   a 4xx or 500 answer (the model's error, `{detail}`), an `error` in the status, or a status
 *   FAILED or CANCELED fail it (refunded). The task's data: `{status: <last status>, response:
 *   <result or null>, error}` (ours).
 * - The client's GET /fal/{model id}/requests/{id}/status and GET /fal/{model id}/requests/{id}
 *   answer from the table; the result before it is there: 400 `{detail}` as fal; after a failure:
 *   422 `{detail: <reason>}`.
 */
import type { Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { TaskRow } from '../../db/tasks.ts'
import { field, str, upstreamFetch, upstreamJson, type Phase, type Reach } from './types.ts'
import { gatewayOf, lastAnswer, restRefuse, type RestPlatform } from './rest.ts'
import { findTask } from '../../db/tasks.ts'
import { callerOf, taskHandler, TaskError } from './submit.ts'
import { firstUrl, modelSegment, resultColumns, storedUpstream, trustedUrl } from './model-apis.ts'

const FAL_HOSTS = /(^|\.)(fal\.run|falrun\.com)$/i
/** fal's namespaces before owner/app (its client's list) */
const NAMESPACES = ['workflows', 'comfy']

/** The model id of a submit path `/fal/{model id}`: 2 to 8 name segments, no `requests`. */
export function falModelId(path: string): string {
  const segments = path.replace(/^\/fal\//, '').split('/')
  if (segments.length < 2 || segments.length > 8 || segments.includes('requests'))
    throw new TaskError(400, 'invalid_request', 'POST /fal/{owner}/{app}[/{subpath}] submits to a model')
  return segments.map((s) => modelSegment(s, 'the model id')).join('/')
}

const falModel = (_b: unknown, _o: unknown, path: string) => `fal_${falModelId(path).replaceAll('/', '_')}`

/** owner/app (with its namespace) of a model id: where fal reads its requests. */
function appOf(modelId: string): string {
  const s = modelId.split('/')
  return s.slice(0, NAMESPACES.includes(s[0]!) ? 3 : 2).join('/')
}

const auth = (ch: { key: string }) => ({ authorization: `Key ${ch.key}` })

/** What the table holds about a request: its last status, its result, the model's error. */
function stateOf(row: TaskRow): { status: unknown; response: unknown; error: string } {
  const data = lastAnswer(row)
  if (field(data, 'status') !== null && typeof field(data, 'status') === 'object')
    return { status: field(data, 'status'), response: field(data, 'response') ?? null, error: str(field(data, 'error')) }
  return { status: data, response: null, error: '' }
}

async function ask(ch: { key: string }, at: Reach, row: TaskRow, signal: AbortSignal) {
  const up = storedUpstream(row)
  const requests = `${at.base}/${appOf(str(up.model_id))}/requests/${encodeURIComponent(row.task_id)}`
  const status = await upstreamJson(
    trustedUrl(up.status_url, at.base, FAL_HOSTS) || `${requests}/status`,
    { headers: auth(ch) },
    signal,
    at,
  )
  if (str(field(status, 'status')) !== 'COMPLETED' || field(status, 'error')) return { status, response: null, error: '' }
  const res = await upstreamFetch(trustedUrl(up.response_url, at.base, FAL_HOSTS) || requests, { headers: auth(ch), signal }, at)
  const text = await res.text()
  if (res.ok) return { status, response: JSON.parse(text), error: '' }
  // a gateway or timeout error is asked again; the model's own error ends the request
  if (res.status > 500) throw new Error(`fal answered ${res.status} for the result: ${text.slice(0, 200)}`)
  let detail: unknown = text
  try {
    detail = field(JSON.parse(text), 'detail') ?? text
  } catch {
    // not JSON: the text is the reason
  }
  return {
    status,
    response: null,
    error: (typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 1000) || `HTTP ${res.status}`,
  }
}

function read(json: unknown) {
  const status = str(field(json, 'status', 'status'))
  const error = str(field(json, 'error')) || str(field(json, 'status', 'error'))
  const response = field(json, 'response')
  const phase: Phase =
    error || status === 'FAILED' || status === 'CANCELED' ? 'failure' : status === 'COMPLETED' && response ? 'success' : 'running'
  return {
    phase,
    changes: {
      status,
      progress: phase === 'running' ? (status === 'IN_PROGRESS' ? '50%' : '0%') : '100%',
      data: JSON.stringify(json),
      ...resultColumns(phase === 'success' ? firstUrl(response) : ''),
      ...(phase === 'failure' ? { fail_reason: error || `the request ended ${status}` } : {}),
    },
  }
}

/** A status answer with its links pointed at the gateway. */
function present(json: unknown, row: TaskRow, gateway: string): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json
  const { cancel_url: _cancel, ...rest } = json as Record<string, unknown>
  const requests = `${gateway}/fal/${str(storedUpstream(row).model_id)}/requests/${encodeURIComponent(row.task_id)}`
  return { ...rest, request_id: row.task_id, status_url: `${requests}/status`, response_url: requests }
}

const READ = /^\/fal\/(.+)\/requests\/([^/]+?)(\/status)?$/

async function fetchRoute(engine: RelayEngine, c: Context<Env>): Promise<Response> {
  const caller = await callerOf(engine, c)
  const m = READ.exec(c.req.path)
  if (!m) throw new TaskError(404, 'not_found', 'GET /fal/{model id}/requests/{id}[/status] reads a request')
  const row = await findTask(engine.ctx.db, 'fal', decodeURIComponent(m[2]!), caller.user.id)
  if (!row) throw new TaskError(404, 'task_not_found', 'task not found')
  const state = stateOf(row)
  if (m[3]) return Response.json(present(state.status, row, gatewayOf(c, engine.ctx.options)))
  if (row.progress !== '100%') return Response.json({ detail: 'Request is still in progress' }, { status: 400 })
  if (!state.response) return Response.json({ detail: row.fail_reason || 'the request failed' }, { status: 422 })
  return Response.json(state.response)
}

export const falPlatform: RestPlatform = {
  platform: 'fal',
  channelTypes: [66],
  submits: [{ path: '/fal/*', action: (b, path) => falModel(b, null, path), model: falModel }],
  fetches: [],
  auth,
  upstreamPath: (path) => `/${falModelId(path)}`,
  taskIdOf: (json) => str(field(json, 'request_id')),
  moreProperties: (json, path) => ({
    upstream: { model_id: falModelId(path), status_url: str(field(json, 'status_url')), response_url: str(field(json, 'response_url')) },
  }),
  fetchPath: (row) => `/${appOf(str(storedUpstream(row).model_id))}/requests/${encodeURIComponent(row.task_id)}/status`,
  ask,
  read,
  present,
  routes(app, engine) {
    app.get(
      '/fal/*',
      taskHandler(restRefuse, (c) => fetchRoute(engine, c)),
    )
  },
}
