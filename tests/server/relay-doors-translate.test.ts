import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, ApiError } from '@google/genai'
import { dialects } from './helpers.ts'
import { relayFixture, waitFor, type RelayFixture } from './relay-helpers.ts'

const PNG = 'iVBORw0KGgo='
const WEATHER = {
  name: 'get_weather',
  description: 'the weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
}

for (const dialect of dialects) {
  describe(`front doors: what reaches the channel, and the relay's rules behind a door (${dialect})`, () => {
    let f: RelayFixture
    let key: string
    let openai: OpenAI
    let anthropic: Anthropic
    let gemini: GoogleGenAI
    const sent = () => f.fake.requests.at(-1)!.body

    before(async () => {
      f = await relayFixture(dialect, { RetryTimes: '0' })
      const userId = await f.user({ quota: 10_000_000 })
      key = (await f.token(userId, { remain: 5_000_000 })).key
      await f.channel({ type: 8, key: 'tr-custom', models: 'custom-chat' })
      await f.channel({ type: 14, key: 'tr-claude', models: 'claude-sonnet-4' })
      await f.channel({ type: 24, key: 'tr-gemini', models: 'gemini-2.5-flash' })
      openai = new OpenAI({ apiKey: key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      anthropic = new Anthropic({ apiKey: key, baseURL: f.base, maxRetries: 0 })
      gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.base } })
    })
    after(() => f.close())

    it('carries the Responses instructions and an input image to a chat channel', async () => {
      await openai.responses.create({
        model: 'custom-chat',
        instructions: 'Be brief.',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
            ],
          },
        ],
      })
      assert.deepEqual(sent().messages, [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ])
    })

    it('carries an Anthropic system prompt and image to a Gemini channel', async () => {
      await anthropic.messages.create({
        model: 'gemini-2.5-flash',
        max_tokens: 64,
        system: 'Be brief.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
        ],
      })
      assert.deepEqual(sent().systemInstruction, { parts: [{ text: 'Be brief.' }] })
      assert.deepEqual(sent().contents, [
        { role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
      ])
      assert.equal(sent().generationConfig.maxOutputTokens, 64)
    })

    it('carries a Gemini system instruction and inline image to a Claude channel', async () => {
      await gemini.models.generateContent({
        model: 'claude-sonnet-4',
        contents: [{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] }],
        config: { systemInstruction: 'Be brief.', maxOutputTokens: 32 },
      })
      assert.equal(sent().system, 'Be brief.')
      assert.equal(sent().max_tokens, 32)
      assert.deepEqual(sent().messages, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ])
    })

    it('refuses previous_response_id on a channel that keeps no responses, rather than drop the conversation', async () => {
      const e = await openai.responses
        .create({ model: 'custom-chat', input: 'and then?', previous_response_id: 'resp_x' })
        .catch((err: unknown) => err)
      assert.ok(e instanceof OpenAI.APIError && e.status === 400, String(e))
      assert.match(e.message, /previous_response_id needs a channel that keeps responses/)
    })

    it('carries a Responses function call and its output to a Claude channel as tool_use and tool_result', async () => {
      await openai.responses.create({
        model: 'claude-sonnet-4',
        tools: [{ type: 'function', strict: false, ...WEATHER }],
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_9', output: 'sunny' },
        ],
      })
      assert.deepEqual(sent().messages, [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_9', content: 'sunny' }] },
      ])
      assert.deepEqual(sent().tools, [{ name: 'get_weather', description: 'the weather', input_schema: WEATHER.parameters }])
    })

    it("counts the usage when the upstream reports none, and reports it in the door's closing events", async () => {
      f.fake.scenario('tr-custom', { usage: false })
      try {
        const m = await anthropic.messages
          .stream({ model: 'custom-chat', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
          .finalMessage()
        assert.ok(m.usage.input_tokens > 0 && m.usage.output_tokens > 0, JSON.stringify(m.usage))
        await f.idle()
        const log = await f.s.ctx.db
          .selectFrom('logs')
          .select(['prompt_tokens', 'completion_tokens', 'is_stream'])
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
        assert.deepEqual(
          [Number(log.prompt_tokens), Number(log.completion_tokens), Number(log.is_stream)],
          [m.usage.input_tokens, m.usage.output_tokens, 1],
        )
      } finally {
        f.fake.scenario('tr-custom', {})
      }
    })

    it("ends a broken stream with an error event in the door's shape", async () => {
      f.fake.scenario('tr-custom', { breakAfterChunks: 2, chunks: 3, chunkDelayMs: 10 })
      try {
        await assert.rejects(
          anthropic.messages
            .stream({ model: 'custom-chat', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
            .finalMessage(),
          /the upstream stream broke off/,
        )
      } finally {
        f.fake.scenario('tr-custom', {})
      }
    })

    it("refuses a model outside the token's limits in the door's own shape", async () => {
      const limited = await f.token(await f.user(), { modelLimits: 'custom-chat' })
      const ai = new GoogleGenAI({ apiKey: limited.key, httpOptions: { baseUrl: f.base } })
      const e = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((err: unknown) => err)
      assert.ok(e instanceof ApiError && e.status === 403, String(e))
      assert.match(e.message, /PERMISSION_DENIED/)
      assert.match(e.message, /this API key may not use the model gemini-2.5-flash/)
      const ok = await ai.models.generateContent({ model: 'custom-chat', contents: 'x' })
      assert.equal(ok.text, 'Hello from the fake upstream, how can I help?')
    })

    it('retries the next channel behind a door as on chat completions', async () => {
      await f.channel({ type: 1, key: 'tr-first', models: 'retry-door', priority: 5 })
      await f.channel({ type: 14, key: 'tr-second', models: 'retry-door', priority: 0 })
      f.fake.scenario('tr-first', { status: 500 })
      await f.s.ctx.options.set('RetryTimes', '1')
      try {
        const r = await gemini.models.generateContent({ model: 'retry-door', contents: 'hi' })
        assert.equal(r.text, 'Hello from the fake upstream, how can I help?')
        assert.deepEqual([f.fake.hits.get('tr-first'), f.fake.hits.get('tr-second')], [1, 1])
      } finally {
        await f.s.ctx.options.set('RetryTimes', '0')
      }
    })

    it("maps the channel's status codes and disables a channel whose key the upstream refuses", async () => {
      await f.channel({ type: 1, key: 'tr-mapped', models: 'mapped-door', statusCodeMapping: '{"400":"422"}', autoBan: 0 })
      f.fake.scenario('tr-mapped', { status: 400 })
      const e = await anthropic.messages
        .create({ model: 'mapped-door', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err)
      assert.ok(e instanceof Anthropic.APIError && e.status === 422, String(e))
      await f.s.ctx.options.set('AutomaticDisableChannelEnabled', 'true')
      const dead = await f.channel({ type: 1, key: 'tr-dead', models: 'dead-door', autoBan: 1 })
      f.fake.scenario('tr-dead', {
        status: 401,
        error: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
      })
      const g = await gemini.models.generateContent({ model: 'dead-door', contents: 'x' }).catch((err: unknown) => err)
      assert.ok(g instanceof ApiError && g.status === 401, String(g))
      await waitFor(async () => {
        const row = await f.s.ctx.db.selectFrom('channels').select('status').where('id', '=', dead).executeTakeFirstOrThrow()
        return Number(row.status) === 3
      }, 'the channel disabled')
    })
  })
}
