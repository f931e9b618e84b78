/** The fake upstream's Anthropic (POST /v1/messages) and Gemini (:generateContent and friends) answers (see fake-upstream.ts). */
import { EMBEDDING, sendJson, sleep, type Ask } from './fake-upstream-routes.ts'

/** A Messages answer, or its event sequence; a tool use when the scenario asks and the request has tools. */
export async function claudeAnswer({ res, body, s, parts, usage, withUsage }: Ask) {
  const model = String(body?.model ?? 'claude-3-5-sonnet-20241022')
  const wantsTool = s.toolCall && Array.isArray(body?.tools) && body.tools.length > 0
  const inTok = withUsage ? usage.prompt_tokens : 0
  const outTok = withUsage ? usage.completion_tokens : 0
  if (!body?.stream) {
    const content = wantsTool
      ? [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: body.tools[0].name, input: { city: 'Paris' } },
        ]
      : [{ type: 'text', text: parts.join('') }]
    return sendJson(res, {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: wantsTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inTok, output_tokens: outTok },
    })
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const ev = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  ev('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      usage: { input_tokens: inTok, output_tokens: withUsage ? 1 : 0 },
    },
  })
  ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  ev('ping', { type: 'ping' })
  for (const p of wantsTool ? ['Let me check.'] : parts) {
    if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
    ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: p } })
  }
  ev('content_block_stop', { type: 'content_block_stop', index: 0 })
  if (wantsTool) {
    ev('content_block_start', {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: body.tools[0].name, input: {} },
    })
    ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": ' } })
    ev('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } })
    ev('content_block_stop', { type: 'content_block_stop', index: 1 })
  }
  ev('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: wantsTool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: outTok },
  })
  ev('message_stop', { type: 'message_stop' })
  res.end()
}

/** Batch embeddings, a generateContent answer, or its SSE stream (a function call when asked and tools are sent). */
export async function geminiAnswer({ res, path, body, s, parts, usage, withUsage }: Ask) {
  if (path.includes(':batchEmbedContents')) {
    return sendJson(res, { embeddings: (body?.requests ?? []).map(() => ({ values: EMBEDDING })) })
  }
  const meta = withUsage
    ? {
        usageMetadata: {
          promptTokenCount: usage.prompt_tokens,
          candidatesTokenCount: usage.completion_tokens,
          totalTokenCount: usage.total_tokens,
        },
      }
    : {}
  const wantsTool = s.toolCall && Array.isArray(body?.tools)
  if (path.includes(':generateContent')) {
    const content = wantsTool
      ? { role: 'model', parts: [{ functionCall: { name: body.tools[0].functionDeclarations[0].name, args: { city: 'Paris' } } }] }
      : { role: 'model', parts: [{ text: parts.join('') }] }
    return sendJson(res, { candidates: [{ content, finishReason: 'STOP', index: 0 }], ...meta, modelVersion: 'fake' })
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  if (wantsTool) {
    const call = { functionCall: { name: body.tools[0].functionDeclarations[0].name, args: { city: 'Paris' } } }
    res.end(
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP', index: 0 }], ...meta })}\n\n`,
    )
    return
  }
  for (let i = 0; i < parts.length; i++) {
    if (s.chunkDelayMs) await sleep(s.chunkDelayMs)
    const last = i === parts.length - 1
    res.write(
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: parts[i] }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }], ...(last ? meta : {}) })}\n\n`,
    )
  }
  res.end()
}
