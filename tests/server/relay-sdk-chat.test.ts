/**
 * Chat completions through the openai SDK: the charge by the ratio formula, bytes forwarded as they
 * are, streams and their usage chunk, tokens counted when the upstream reports none, tool calls and
 * an upstream 400; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { dialects } from './helpers.ts'
import { ledgerOf, type RelayFixture } from './relay-helpers.ts'
import { sdkFixture, count, type SdkFixture } from './relay-sdk-fixture.ts'

for (const dialect of dialects) {
  describe(`relay through the openai SDK (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: SdkFixture['token']
    let channelId: number
    let client: OpenAI

    before(async () => {
      ;({ f, userId, token, channelId, client } = await sdkFixture(dialect))
    })
    after(() => f.close())

    it('relays a chat completion and charges it by the ratio formula', async () => {
      const before = await ledgerOf(f, userId, token.id)
      const r = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })
      assert.equal(r.choices[0].message.content, 'Hello from the fake upstream, how can I help?')
      assert.deepEqual(r.usage, { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
      const after = await ledgerOf(f, userId, token.id)
      // gpt-3.5-turbo: ratio 0.25, completion ratio 3: round((12 + 3 * 3) * 0.25) = 5
      assert.equal(after.user.used - before.user.used, 5)
      assert.equal(before.user.quota - after.user.quota, 5)
      assert.equal(before.token.remain - after.token.remain, 5)
      assert.equal(after.user.count - before.user.count, 1)
      const log = await f.s.ctx.db
        .selectFrom('logs')
        .selectAll()
        .where('token_id', '=', token.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      assert.equal(log.type, 2)
      assert.equal(log.model_name, 'gpt-3.5-turbo')
      assert.equal(Number(log.quota), 5)
      assert.equal(Number(log.prompt_tokens), 12)
      assert.equal(Number(log.completion_tokens), 3)
      assert.equal(Number(log.channel), channelId)
      assert.equal(Number(log.is_stream), 0)
      assert.match(log.token_name, /^token /)
      assert.equal(log.content, 'model ratio 0.25, completion ratio 3, group ratio 1')
      assert.deepEqual(JSON.parse(log.other), {
        model_ratio: 0.25,
        model_price: -1,
        completion_ratio: 3,
        group_ratio: 1,
        admin_info: { use_channel: [channelId] },
      })
      const ch = await f.s.ctx.db.selectFrom('channels').select('used_quota').where('id', '=', channelId).executeTakeFirstOrThrow()
      assert.ok(Number(ch.used_quota) >= 5)
    })

    it('forwards the request bytes untouched when nothing needs rewriting', async () => {
      const body = '{"model":"gpt-3.5-turbo",  "messages":[{"role":"user","content":"spacing  kept"}],"temperature":0.5}'
      const res = await f.call(token.key, 'POST', '/v1/chat/completions', body)
      assert.equal(res.status, 200)
      assert.equal(f.fake.requests.at(-1)!.raw, body)
      assert.equal(
        f.fake.requests.at(-1)!.headers.authorization,
        `Bearer ${(await f.s.ctx.db.selectFrom('channels').select('key').where('id', '=', channelId).executeTakeFirstOrThrow()).key}`,
      )
    })

    it('streams chat chunks and charges the usage the upstream reported', async () => {
      const stream = await client.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      })
      let text = ''
      let usageChunks = 0
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? ''
        if (c.choices.length === 0) usageChunks++
      }
      assert.equal(text, 'Hello from the fake upstream, how can I help?')
      assert.equal(usageChunks, 0, 'the usage chunk we asked for is hidden from a client that did not')
      const sent = f.fake.requests.at(-1)!.body
      assert.deepEqual(sent.stream_options, { include_usage: true })
      await f.idle()
      const log = await f.s.ctx.db
        .selectFrom('logs')
        .selectAll()
        .where('token_id', '=', token.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      assert.equal(Number(log.is_stream), 1)
      assert.equal(Number(log.prompt_tokens), 12)
      assert.equal(Number(log.completion_tokens), 3)
      assert.equal(typeof JSON.parse(log.other).frt, 'number')
    })

    it('hands the usage chunk to a client that asked with stream_options', async () => {
      const stream = await client.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      let usage: unknown = null
      for await (const c of stream) if (c.usage) usage = c.usage
      assert.deepEqual(usage, { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
    })

    it('counts tokens with a tokenizer when the upstream streams no usage, and still sends the usage chunk asked for', async () => {
      const key = `nousage-${dialect}`
      f.fake.scenario(key, { usage: false, text: 'one two three four five six', chunks: 3 })
      const id = await f.channel({ key, models: 'gpt-3.5-turbo-0125' })
      const stream = await client.chat.completions.create({
        model: 'gpt-3.5-turbo-0125',
        messages: [{ role: 'user', content: 'count these words please' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      let usage: any = null
      let text = ''
      for await (const c of stream) {
        if (c.usage) usage = c.usage
        text += c.choices[0]?.delta?.content ?? ''
      }
      const prompt = 3 + count('user') + count('count these words please') + 3
      const completion = count('one two ') + count('three four ') + count('five six')
      assert.equal(text, 'one two three four five six')
      assert.deepEqual(usage, { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })
      await f.idle()
      const log = await f.s.ctx.db.selectFrom('logs').selectAll().where('channel', '=', id).executeTakeFirstOrThrow()
      assert.equal(Number(log.prompt_tokens), prompt)
      assert.equal(Number(log.completion_tokens), completion)
      assert.equal(Number(log.quota), Math.round((prompt + completion * 3) * 0.25))
    })

    it('counts a non-stream answer without usage', async () => {
      const key = `nousage2-${dialect}`
      f.fake.scenario(key, { usage: false, text: 'short answer' })
      const id = await f.channel({ key, models: 'gpt-4o-2024-08-06' })
      await client.chat.completions.create({
        model: 'gpt-4o-2024-08-06',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello' },
        ],
      })
      await f.idle()
      const { Tiktoken: T } = await import('js-tiktoken/lite')
      const o200k = new T((await import('js-tiktoken/ranks/o200k_base')).default)
      const c = (s: string) => o200k.encode(s).length
      const log = await f.s.ctx.db.selectFrom('logs').selectAll().where('channel', '=', id).executeTakeFirstOrThrow()
      assert.equal(Number(log.prompt_tokens), 3 + c('system') + c('be brief') + 3 + c('user') + c('hello') + 3)
      assert.equal(Number(log.completion_tokens), c('short answer'))
    })

    it('relays tool calls, streamed and not', async () => {
      const key = `tools-${dialect}`
      f.fake.scenario(key, { toolCall: true })
      await f.channel({ key, models: 'gpt-4o-mini' })
      const tools = [
        {
          type: 'function' as const,
          function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      ]
      const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather?' }], tools })
      assert.equal(r.choices[0].finish_reason, 'tool_calls')
      assert.equal(
        r.choices[0].message.tool_calls?.[0].type === 'function' && r.choices[0].message.tool_calls[0].function.name,
        'get_weather',
      )
      assert.deepEqual(f.fake.requests.at(-1)!.body.tools, tools)
      const stream = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'weather?' }],
        tools,
        stream: true,
      })
      let args = ''
      for await (const c of stream) args += c.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? ''
      assert.deepEqual(JSON.parse(args), { city: 'Paris' })
    })

    it('passes an upstream 400 through with its message and charges nothing', async () => {
      const key = `bad-request-${dialect}`
      f.fake.scenario(key, {
        status: 400,
        error: { error: { message: 'messages must not be empty', type: 'invalid_request_error', code: 'empty_messages' } },
      })
      await f.channel({ key, models: 'gpt-4-turbo' })
      const before = await ledgerOf(f, userId, token.id)
      await assert.rejects(
        client.chat.completions.create({ model: 'gpt-4-turbo', messages: [] }),
        (e: any) => e instanceof OpenAI.BadRequestError && /messages must not be empty/.test(e.message) && e.code === 'empty_messages',
      )
      const after = await ledgerOf(f, userId, token.id)
      assert.deepEqual(after.user, before.user)
      assert.equal(after.logCount, before.logCount)
    })
  })
}
