/**
 * bfl.ai, Black Forest Labs (type 65), in BFL's own API (base https://api.bfl.ai, key in `x-key`):
 * - POST /bfl/v1/{model} (flux-pro-1.1, flux-kontext-pro, …) → upstream POST /v1/{model}, answer
 *   `{id, polling_url}`, passed on with polling_url pointed at the gateway. Model `bfl_<model>`.
 * - The poller asks the answer's polling_url when it is on the channel's own origin or an https
 *   bfl.ai host (the regional endpoints: a task of the global endpoint is only found there), else
 *   GET {base}/v1/get_result?id=…; the key is sent nowhere else. The answer
 *   `{id, status, result:{sample}, progress}`: Ready ends it (the sample image is the result);
 *   Request Moderated, Content Moderated, Error and Task not found fail it (refunded); Pending and
 *   anything else run.
 * - The client's GET /bfl/v1/get_result?id=… answers from the table (`{id, status: "Pending"}`
 *   until the first poll).
 */
import { field, phaseOf, str, upstreamJson } from './types.ts'
import { answerOf, lastAnswer, percent, restRefuse, type RestPlatform } from './rest.ts'
import { findTask } from '../../db/tasks.ts'
import { callerOf, taskHandler, TaskError } from './submit.ts'
import { modelSegment, resultColumns, storedUpstream, trustedUrl } from './model-apis.ts'

const SUBMIT = /^\/bfl\/v1\/([^/]+)$/
const BFL_HOSTS = /(^|\.)bfl\.ai$/i
const FAILURE = ['request moderated', 'content moderated', 'error', 'task not found']

export function bflModel(_b: unknown, _o: unknown, path: string): string {
  const model = SUBMIT.exec(path)?.[1] ?? ''
  if (model === 'get_result') throw new TaskError(405, 'invalid_request', 'get_result is read with GET')
  return `bfl_${modelSegment(model, 'the path')}`
}

const auth = (ch: { key: string }) => ({ 'x-key': ch.key })

export const bflPlatform: RestPlatform = {
  platform: 'bfl',
  channelTypes: [65],
  submits: [{ path: '/bfl/v1/:model', action: (b, path) => bflModel(b, null, path), model: bflModel }],
  fetches: [],
  auth,
  upstreamPath: (path) => path.slice('/bfl'.length),
  taskIdOf: (json) => str(field(json, 'id')),
  moreProperties: (json) => ({ upstream: { polling_url: str(field(json, 'polling_url')) } }),
  fetchPath: (row) => `/v1/get_result?id=${encodeURIComponent(row.task_id)}`,
  ask(ch, at, row, signal) {
    const url =
      trustedUrl(storedUpstream(row).polling_url, at.base, BFL_HOSTS) || `${at.base}/v1/get_result?id=${encodeURIComponent(row.task_id)}`
    return upstreamJson(url, { headers: auth(ch) }, signal, at)
  },
  read(json) {
    const status = str(field(json, 'status'))
    const phase = phaseOf(status, ['ready'], FAILURE)
    return {
      phase,
      changes: {
        status,
        progress: phase === 'running' ? percent(field(json, 'progress')) : '100%',
        data: JSON.stringify(json),
        ...resultColumns(phase === 'success' ? str(field(json, 'result', 'sample')) : '', true),
        ...(phase === 'failure' ? { fail_reason: status } : {}),
      },
    }
  },
  present(json, row, gateway) {
    const id = encodeURIComponent(row.task_id)
    if (field(json, 'polling_url') !== undefined) return { id: row.task_id, polling_url: `${gateway}/bfl/v1/get_result?id=${id}` }
    return json
  },
  routes(app, engine) {
    app.get(
      '/bfl/v1/get_result',
      taskHandler(restRefuse, async (c) => {
        const caller = await callerOf(engine, c)
        const id = c.req.query('id') ?? ''
        if (!id) throw new TaskError(400, 'invalid_request', 'the query parameter id is required')
        const row = await findTask(engine.ctx.db, 'bfl', id, caller.user.id)
        if (!row) throw new TaskError(404, 'task_not_found', 'task not found')
        // until the first poll the table holds the submit's answer: the task is pending
        if (field(lastAnswer(row), 'status') === undefined)
          return Response.json({ id: row.task_id, status: 'Pending', result: null, progress: null })
        return answerOf(c, engine, bflPlatform, row)
      }),
    )
  },
}
