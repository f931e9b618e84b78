/** The fake upstream's OpenAI Responses API (POST /v1/responses, GET /v1/responses/{id}), plain and streamed (see fake-upstream.ts). */
import type { ServerResponse } from 'node:http'
import type { Scenario } from './fake-upstream.ts'

let count = 0
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface ResponsesAsk {
  body: any
  s: Scenario
  parts: string[]
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
  withUsage: boolean
  /** answers by id, for GET /v1/responses/{id} */
  kept: Map<string, unknown>
}

/** A response object, or its event sequence; the answer is kept for GET /v1/responses/{id}. */
export async function responsesAnswer(res: ServerResponse, { body, s, parts, usage, withUsage, kept }: ResponsesAsk): Promise<void> {
  const id = `resp_fake${++count}`
  const text = parts.join('')
  const item = s.toolCall
    ? { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }
    : { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
  const u = withUsage
    ? { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, total_tokens: usage.total_tokens }
    : null
  const response = (status: string, output: unknown[]) => ({
    id,
    object: 'response',
    created_at: 1700000000,
    status,
    model: String(body?.model ?? ''),
    output,
    usage: status === 'completed' ? u : null,
    error: null,
    incomplete_details: null,
  })
  const done = response('completed', [item])
  if (kept.size >= 1000) kept.clear()
  kept.set(id, done)
  if (!body?.stream) {
    const out = Buffer.from(JSON.stringify(done))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
    res.end(out)
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  let seq = 0
  const ev = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`)
  ev('response.created', { response: response('in_progress', []) })
  ev('response.in_progress', { response: response('in_progress', []) })
  if (item.type === 'function_call') {
    ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } })
    ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: item.arguments })
    ev('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 0, arguments: item.arguments })
  } else {
    ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } })
    const part = { type: 'output_text', text: '', annotations: [] }
    ev('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part })
    for (const p of parts) {
      if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
      ev('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: p, logprobs: [] })
    }
    ev('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text, logprobs: [] })
    ev('response.content_part.done', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { ...part, text } })
  }
  ev('response.output_item.done', { output_index: 0, item })
  ev('response.completed', { response: done })
  res.end()
}

/** GET /v1/responses/{id}: an answer kept by responsesAnswer, or OpenAI's 404. */
export function storedResponse(res: ServerResponse, id: string, kept: Map<string, unknown>): void {
  const answer = kept.get(id)
  if (answer) {
    const out = Buffer.from(JSON.stringify(answer))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length })
    res.end(out)
    return
  }
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { message: `No response found with id '${id}'.`, type: 'invalid_request_error', code: null } }))
}
