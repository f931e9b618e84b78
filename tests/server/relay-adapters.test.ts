import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { dialects } from './helpers.ts'
import { relayFixture, type RelayFixture } from './relay-helpers.ts'

const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
]

for (const dialect of dialects) {
  describe(`relay adapters for Anthropic Claude and Google Gemini (${dialect})`, () => {
    let f: RelayFixture
    let client: OpenAI
    let claude: number
    let gemini: number
    let apiKey: string

    before(async () => {
      f = await relayFixture(dialect)
      const userId = await f.user({ quota: 1e9 })
      const token = await f.token(userId, { unlimited: true })
      apiKey = token.key
      client = new OpenAI({ apiKey, baseURL: `${f.base}/v1`, maxRetries: 0 })
      f.fake.scenario('claude-key', { text: 'Bonjour from Claude', chunks: 3, promptTokens: 20, completionTokens: 7 })
      f.fake.scenario('claude-tools', { toolCall: true, promptTokens: 30, completionTokens: 9 })
      f.fake.scenario('gemini-key', { text: 'Hello from Gemini', chunks: 3, promptTokens: 8, completionTokens: 5 })
      f.fake.scenario('gemini-tools', { toolCall: true, promptTokens: 8, completionTokens: 5 })
      claude = await f.channel({
        type: 14,
        key: 'claude-key',
        models: 'claude-3-5-sonnet-20241022',
        modelMapping: '{"claude-3-5-sonnet-20241022":"claude-3-5-sonnet-latest"}',
      })
      await f.channel({ type: 14, key: 'claude-tools', models: 'claude-3-haiku-20240307' })
      gemini = await f.channel({ type: 24, key: 'gemini-key', models: 'gemini-1.5-flash,text-embedding-004' })
      await f.channel({ type: 24, key: 'gemini-tools', models: 'gemini-2.0-flash' })
    })
    after(() => f.close())

    const lastLog = async () => {
      await f.idle()
      return f.s.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    }

    it('translates a chat request to the messages API and the answer back', async () => {
      const r = await client.chat.completions.create({
        model: 'claude-3-5-sonnet-20241022',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Salut' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Again' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
        ],
        temperature: 0.3,
        stop: 'END',
      })
      assert.equal(r.object, 'chat.completion')
      assert.equal(r.choices[0].message.content, 'Bonjour from Claude')
      assert.equal(r.choices[0].finish_reason, 'stop')
      assert.deepEqual(r.usage, { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 })
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.path, '/v1/messages')
      assert.equal(sent.headers['x-api-key'], 'claude-key')
      assert.equal(sent.headers['anthropic-version'], '2023-06-01')
      assert.deepEqual(sent.body, {
        model: 'claude-3-5-sonnet-latest',
        system: 'Answer in French.',
        max_tokens: 4096,
        temperature: 0.3,
        stop_sequences: ['END'],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Salut' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Again' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
      })
      const log = await lastLog()
      assert.equal(Number(log.channel), claude)
      assert.equal(Number(log.prompt_tokens), 20)
      assert.equal(Number(log.completion_tokens), 7)
      // claude-3-5-sonnet: ratio 1.5, completion ratio 5: (20 + 35) * 1.5 = 82.5 -> 83
      assert.equal(Number(log.quota), 83)
    })

    it('translates a Claude event stream into OpenAI chunks, with usage when asked', async () => {
      const stream = await client.chat.completions.create({
        model: 'claude-3-5-sonnet-20241022',
        messages: [{ role: 'user', content: 'Hello' }],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 100,
      })
      let text = ''
      let usage: unknown = null
      let finish: string | null = null
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? ''
        finish = c.choices[0]?.finish_reason ?? finish
        if (c.usage) usage = c.usage
      }
      assert.equal(text, 'Bonjour from Claude')
      assert.equal(finish, 'stop')
      assert.deepEqual(usage, { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 })
      assert.equal(f.fake.requests.at(-1)!.body.max_tokens, 100)
      assert.equal(f.fake.requests.at(-1)!.body.stream, true)
      const log = await lastLog()
      assert.equal(Number(log.is_stream), 1)
      assert.equal(Number(log.completion_tokens), 7)
    })

    it('carries tool definitions, tool calls and tool results both ways with Claude', async () => {
      const r = await client.chat.completions.create({
        model: 'claude-3-haiku-20240307',
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'toolu_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }],
          },
          { role: 'tool', tool_call_id: 'toolu_0', content: 'sunny' },
        ],
        tools,
        tool_choice: 'required',
      })
      const call = r.choices[0].message.tool_calls![0]
      assert.equal(r.choices[0].finish_reason, 'tool_calls')
      assert.equal(call.type === 'function' && call.function.name, 'get_weather')
      assert.deepEqual(call.type === 'function' && JSON.parse(call.function.arguments), { city: 'Paris' })
      const sent = f.fake.requests.at(-1)!.body
      assert.deepEqual(sent.tools, [{ name: 'get_weather', description: 'Weather of a city', input_schema: tools[0].function.parameters }])
      assert.deepEqual(sent.tool_choice, { type: 'any' })
      assert.deepEqual(sent.messages[1], {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_0', name: 'get_weather', input: { city: 'Lyon' } }],
      })
      assert.deepEqual(sent.messages[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0', content: 'sunny' }] })

      const stream = await client.chat.completions.create({
        model: 'claude-3-haiku-20240307',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools,
        stream: true,
      })
      let args = ''
      let name = ''
      for await (const c of stream) {
        const tc = c.choices[0]?.delta?.tool_calls?.[0]
        if (tc?.function?.name) name = tc.function.name
        args += tc?.function?.arguments ?? ''
      }
      assert.equal(name, 'get_weather')
      assert.deepEqual(JSON.parse(args), { city: 'Paris' })
    })

    it('turns a Claude error into the OpenAI error shape with its status', async () => {
      f.fake.scenario('claude-dead', {
        status: 401,
        error: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      })
      await f.channel({ type: 14, key: 'claude-dead', models: 'claude-3-opus-20240229' })
      await assert.rejects(
        client.chat.completions.create({ model: 'claude-3-opus-20240229', messages: [{ role: 'user', content: 'x' }] }),
        (e: any) => e.status === 401 && /invalid x-api-key/.test(e.message) && e.type === 'authentication_error',
      )
    })

    it('passes the Anthropic messages API through to Claude channels, streamed and not', async () => {
      const body = {
        model: 'claude-3-5-sonnet-20241022',
        max_tokens: 256,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello' }],
      }
      const res = await fetch(`${f.base}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': apiKey,
          'anthropic-version': '2023-06-01',
          'anthropic-beta': 'tools-2024-05-16',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
      assert.equal(res.status, 200)
      const msg = (await res.json()) as any
      assert.equal(msg.type, 'message')
      assert.equal(msg.content[0].text, 'Bonjour from Claude')
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.path, '/v1/messages')
      assert.equal(sent.headers['anthropic-beta'], 'tools-2024-05-16')
      assert.deepEqual(sent.body, { ...body, model: 'claude-3-5-sonnet-latest' })
      let log = await lastLog()
      assert.deepEqual([Number(log.prompt_tokens), Number(log.completion_tokens), Number(log.channel)], [20, 7, claude])

      const streamed = await fetch(`${f.base}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, stream: true }),
      })
      const text = await streamed.text()
      assert.match(text, /^event: message_start\n/)
      assert.match(text, /event: message_stop/)
      log = await lastLog()
      assert.deepEqual([Number(log.prompt_tokens), Number(log.completion_tokens), Number(log.is_stream)], [20, 7, 1])
    })

    it("answers /v1/messages errors in Anthropic's shape", async () => {
      const bad = await fetch(`${f.base}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-nope', 'content-type': 'application/json' },
        body: '{"model":"x","max_tokens":1,"messages":[]}',
      })
      assert.equal(bad.status, 401)
      const e = (await bad.json()) as any
      assert.equal(e.type, 'error')
      assert.equal(e.error.type, 'authentication_error')
      assert.match(e.error.message, /invalid API key/)
      await f.channel({ key: 'openai-only', models: 'gpt-4o' })
      const wrong = await fetch(`${f.base}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      })
      // an OpenAI channel answers the messages API through the chat completions shape (issue 16)
      assert.equal(wrong.status, 200)
      assert.equal(((await wrong.json()) as any).type, 'message')
      const none = await fetch(`${f.base}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'no-such-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      })
      assert.equal(none.status, 503)
      const w = (await none.json()) as any
      assert.equal(w.type, 'error')
      assert.equal(w.error.type, 'api_error')
      assert.match(w.error.message, /no channel available for the model no-such-model/)
    })

    it('translates to Gemini generateContent and back', async () => {
      const r = await client.chat.completions.create({
        model: 'gemini-1.5-flash',
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Hi' },
        ],
        max_tokens: 64,
        temperature: 0.1,
      })
      assert.equal(r.choices[0].message.content, 'Hello from Gemini')
      assert.deepEqual(r.usage, { prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 })
      const sent = f.fake.requests.at(-1)!
      assert.equal(sent.path, '/v1beta/models/gemini-1.5-flash:generateContent')
      assert.equal(sent.headers['x-goog-api-key'], 'gemini-key')
      assert.deepEqual(sent.body, {
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
        systemInstruction: { parts: [{ text: 'Be terse.' }] },
        generationConfig: { temperature: 0.1, maxOutputTokens: 64 },
      })
      const log = await lastLog()
      assert.equal(Number(log.channel), gemini)
      assert.equal(Number(log.completion_tokens), 5)
    })

    it('translates a Gemini SSE stream and a Gemini function call', async () => {
      const stream = await client.chat.completions.create({
        model: 'gemini-1.5-flash',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      let text = ''
      let usage: unknown = null
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? ''
        if (c.usage) usage = c.usage
      }
      assert.equal(text, 'Hello from Gemini')
      assert.deepEqual(usage, { prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 })
      assert.equal(f.fake.requests.at(-1)!.path, '/v1beta/models/gemini-1.5-flash:streamGenerateContent?alt=sse')

      const r = await client.chat.completions.create({
        model: 'gemini-2.0-flash',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools,
      })
      const call = r.choices[0].message.tool_calls![0]
      assert.equal(r.choices[0].finish_reason, 'tool_calls')
      assert.deepEqual(call.type === 'function' && JSON.parse(call.function.arguments), { city: 'Paris' })
      assert.deepEqual(f.fake.requests.at(-1)!.body.tools, [
        { functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parameters: tools[0].function.parameters }] },
      ])
    })

    it('embeds through Gemini batchEmbedContents and counts the input', async () => {
      const e = await client.embeddings.create({ model: 'text-embedding-004', input: ['one', 'two'] })
      assert.equal(e.data.length, 2)
      assert.equal(f.fake.requests.at(-1)!.path, '/v1beta/models/text-embedding-004:batchEmbedContents')
      const log = await lastLog()
      assert.equal(Number(log.prompt_tokens), 2)
    })
  })
}
