import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chunkAt } from '../../server/relay/doors/index.ts'
import { forEachEvent } from '../../server/relay/sse.ts'
import { ResponsesPassthrough, channelOfResponse, rememberResponse } from '../../server/relay/adapters/native.ts'

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
