/**
 * Replicate (type 59) in Replicate's own HTTP API (base https://api.replicate.com, bearer key):
 * - POST /replicate/v1/predictions `{version, input}` → upstream POST /v1/predictions; `version`
 *   a version id, or `owner/name` or `owner/name:<version id>` (Replicate takes all three).
 * - POST /replicate/v1/models/{owner}/{name}/predictions `{input}` → upstream the same path.
 * Both answer a prediction `{id, status, output, error, urls, …}` (HTTP 201), passed on with
 * `urls.get` pointed at the gateway (cancel and stream are not relayed: dropped). Model (ours):
 * `replicate_<owner>/<name>`, or `replicate_<first 8 characters of the version id>` for a bare
 * version id (Replicate's short form). The poller asks GET /v1/predictions/{id}: starting and
 * processing run; succeeded ends it; failed, canceled and aborted fail it (refunded). The first
 * URL of `output` is the result. GET /replicate/v1/predictions/{id} answers from the table.
 */
import type { OptionStore } from '../../options.ts'
import { TaskError } from './submit.ts'
import { field, phaseOf, str } from './types.ts'
import type { Body, RestPlatform } from './rest.ts'
import { firstUrl, modelSegment, resultColumns } from './model-apis.ts'

const MODEL_PATH = /^\/replicate\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/

/** replicate_<owner>/<name> or replicate_<version prefix>, from the path or the body's version. */
export function replicateModel(body: Body, _o?: OptionStore, path = ''): string {
  const m = MODEL_PATH.exec(path)
  if (m) return `replicate_${modelSegment(m[1]!, 'the owner')}/${modelSegment(m[2]!, 'the model')}`
  const version = str(body.version).trim()
  if (!version) throw new TaskError(400, 'invalid_request', 'version is required: a version id, or owner/name[:version id]')
  const [name = '', id = ''] = version.includes('/') ? version.split(':') : ['', version]
  if (name) {
    const [owner = '', model = '', ...rest] = name.split('/')
    if (rest.length) throw new TaskError(400, 'invalid_request', 'version must be a version id, or owner/name[:version id]')
    return `replicate_${modelSegment(owner, 'the owner')}/${modelSegment(model, 'the model')}`
  }
  return `replicate_${modelSegment(id, 'the version id').slice(0, 8).toLowerCase()}`
}

const errorText = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v))

export const replicatePlatform: RestPlatform = {
  platform: 'replicate',
  channelTypes: [59],
  submits: [
    { path: '/replicate/v1/predictions', action: (b, path) => replicateModel(b, undefined, path), model: replicateModel },
    {
      path: '/replicate/v1/models/:owner/:name/predictions',
      action: (b, path) => replicateModel(b, undefined, path),
      model: replicateModel,
    },
  ],
  fetches: ['/replicate/v1/predictions/:id'],
  upstreamPath: (path) => path.slice('/replicate'.length),
  taskIdOf: (json) => str(field(json, 'id')),
  fetchPath: (row) => `/v1/predictions/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const status = str(field(json, 'status'))
    const phase = phaseOf(status, ['succeeded'], ['failed', 'canceled', 'aborted'])
    const reason = errorText(field(json, 'error'))
    return {
      phase,
      changes: {
        status,
        progress: phase === 'running' ? (status === 'processing' ? '50%' : '0%') : '100%',
        data: JSON.stringify(json),
        ...resultColumns(phase === 'success' ? firstUrl(field(json, 'output')) : ''),
        ...(phase === 'failure' ? { fail_reason: reason || `the prediction ended ${status}` } : {}),
      },
    }
  },
  present(json, row, gateway) {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return json
    return { ...json, urls: { get: `${gateway}/replicate/v1/predictions/${encodeURIComponent(row.task_id)}` } }
  },
}
