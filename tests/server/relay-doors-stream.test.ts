import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chunkAt } from '../../server/relay/doors/index.ts'
import { forEachEvent } from '../../server/relay/sse.ts'
import { ResponsesPassthrough, channelOfResponse, rememberResponse } from '../../server/relay/adapters/native.ts'
import { ResponsesStream } from '../../server/relay/doors/responses-stream.ts'
import { functionItem, messageItem, responseObject } from '../../server/relay/doors/responses.ts'
import type { RelayCall } from '../../server/relay/adapters/types.ts'

/** Every JSON object the door's chunk reader finds in a segment. */
function chunks(text: string): unknown[] {
  const seg = Buffer.from(text)
  const out: unknown[] = []
  forEachEvent(seg, (s, e) => {
    const j = chunkAt(seg, s, e)
    if (j) out.push(j)
  })
  return out
}

describe('the front doors read chat chunks straight from the bytes', () => {
  it('reads one-line events with LF or CRLF, with or without the space after data:', () => {
    assert.deepEqual(chunks('data: {"a":1}\n\ndata:{"b":"é"}\r\n\r\ndata: {"c":[2]}\n\n'), [{ a: 1 }, { b: 'é' }, { c: [2] }])
  })

  it('joins an event of several data lines and skips names, comments, ids and [DONE]', () => {
    const text = 'event: chunk\ndata: {"a":\ndata: 1}\n\n: keep-alive\n\ndata: {"b":2}\nid: 7\n\ndata: [DONE]\n\n'
    assert.deepEqual(chunks(text), [{ a: 1 }, { b: 2 }])
  })

  it('reads the last event without its closing blank line, and drops broken JSON', () => {
    assert.deepEqual(chunks('data: {"a":\n\ndata: {"b":2}'), [{ b: 2 }])
    assert.deepEqual(chunks('data: {"b":2}\r'), [{ b: 2 }])
  })

  it('reads an event named on an event: line before its data line, LF or CRLF', () => {
    const text = 'event: response.created\ndata: {"a":1}\n\nevent: x\r\ndata:{"b":2}\r\n\r\nevent: y\n\nevent: z\ndata: [DONE]\n\n'
    assert.deepEqual(chunks(text), [{ a: 1 }, { b: 2 }])
  })
})

describe('the Responses passthrough reads only the events it needs', () => {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

  it('remembers the id of response.created and takes the usage of response.completed, whatever the segments', () => {
    const text =
      event('response.created', { response: { id: 'resp_seg1', usage: null } }) +
      event('response.in_progress', { response: { id: 'resp_seg1', usage: null } }) +
      event('response.output_text.delta', { delta: 'say "usage" and "response.completed"' }) +
      event('response.completed', { response: { id: 'resp_seg1', usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } } })
    const whole = new ResponsesPassthrough(41)
    const bytes = Buffer.from(text)
    assert.equal(whole.segment(bytes), bytes)
    assert.deepEqual(whole.usage, { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 })
    assert.equal(channelOfResponse('resp_seg1'), 41)
    const split = new ResponsesPassthrough(42)
    for (const part of text.split(/(?<=\n\n)/)) split.segment(Buffer.from(part))
    assert.deepEqual(split.usage, whole.usage)
    assert.equal(channelOfResponse('resp_seg1'), 42)
  })

  it('takes the usage of response.incomplete, and none of a completed response without it', () => {
    const t = new ResponsesPassthrough(1)
    t.segment(Buffer.from(event('response.incomplete', { response: { usage: { input_tokens: 2, output_tokens: 3 } } })))
    assert.deepEqual(t.usage, { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 })
    const u = new ResponsesPassthrough(1)
    u.segment(Buffer.from(event('response.completed', { response: { usage: null } })))
    assert.equal(u.usage, null)
  })

  it('keeps the channels of the last 10,000 responses', () => {
    for (let i = 0; i < 25_000; i++) rememberResponse(`resp_ring${i}`, 1 + (i % 3))
    rememberResponse('resp_ring24000', 9)
    assert.equal(channelOfResponse('resp_ring14999'), undefined)
    assert.equal(channelOfResponse('resp_ring15000'), 1)
    assert.equal(channelOfResponse('resp_ring24000'), 9)
    assert.equal(channelOfResponse('resp_ring24999'), 1)
    rememberResponse('resp_ring25000', 2)
    assert.equal(channelOfResponse('resp_ring15000'), undefined)
    assert.equal(channelOfResponse('resp_ring15001'), 2)
  })
})

describe('the Responses stream writes the response object as the plain answer has it', () => {
  const json = {
    model: 'm',
    instructions: 'be brief',
    max_output_tokens: 9,
    temperature: 0.2,
    user: 'u "1"',
    metadata: { k: 'v' },
    text: { format: { type: 'json_object' } },
    tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }],
    tool_choice: 'required',
    stream: true,
  }
  const call = { mode: 'responses', json, model: 'm-mapped', stream: true } as unknown as RelayCall
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  /** The events' data objects, each checked to be JSON. */
  const events = (text: string) =>
    text
      .split('\n\n')
      .filter(Boolean)
      .map((e) => JSON.parse(e.split('\n')[1]!.slice(6)) as Record<string, any>)
  const sameButTime = (got: Record<string, any>, want: Record<string, any>) =>
    assert.deepEqual({ ...got, created_at: 0 }, { ...want, created_at: 0 })

  it('in response.created, .in_progress and .incomplete, with every item and the usage', () => {
    const s = new ResponsesStream(call)
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }
    const text =
      s.chunk(chunk({ content: 'Hé "q"\n' })) +
      s.chunk(chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a"' } }] })) +
      s.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, 'length')) +
      s.end(usage)
    const all = events(text)
    const [created, progress] = all
    const id = created!.response.id as string
    sameButTime(created!.response, responseObject(id, call, 'in_progress', [], null))
    assert.deepEqual(progress!.response, created!.response)
    const last = all.at(-1)!
    assert.equal(last.type, 'response.incomplete')
    const [msg, fn] = last.response.output
    assert.deepEqual(msg, messageItem(msg.id, 'Hé "q"\n', 'completed'))
    assert.deepEqual(fn, functionItem(fn.id, 'call_1', 'f', '{"a":1}', 'completed'))
    sameButTime(last.response, responseObject(id, call, 'incomplete', [msg, fn], usage))
    assert.deepEqual(
      all.map((e) => e.sequence_number),
      all.map((_, i) => i),
    )
  })

  it('in response.failed, with the error and only the items finished before it', () => {
    // a call still open at output 0, the message at 1 finished when a second call opened
    const s = new ResponsesStream(call)
    s.chunk(chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{' } }] }))
    s.chunk(chunk({ content: 'part' }))
    const out = s.chunk(chunk({ tool_calls: [{ index: 1, id: 'call_2', function: { name: 'f', arguments: '{' } }] }))
    const failed = events(s.fail('upstream cut', 'upstream_error'))[0]!
    assert.equal(failed.type, 'response.failed')
    const item = events(out).find((e) => e.type === 'response.output_item.done')!.item
    sameButTime(failed.response, {
      ...responseObject(failed.response.id, call, 'failed', [item], null),
      error: { code: 'upstream_error', message: 'upstream cut' },
    })
  })
})
