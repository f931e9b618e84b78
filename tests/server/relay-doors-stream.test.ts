import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chunkAt } from '../../server/relay/doors/index.ts'
import { forEachEvent } from '../../server/relay/sse.ts'
import { channelOfResponse, rememberResponse } from '../../server/relay/adapters/native.ts'

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
})

describe('the Responses passthrough', () => {
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
