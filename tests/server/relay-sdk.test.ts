import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI, { toFile } from 'openai'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import { dialects } from './helpers.ts'
import { relayFixture, ledgerOf, waitFor, type RelayFixture } from './relay-helpers.ts'
import { randomKey } from '../../server/lib/users.ts'

const enc = new Tiktoken(cl100k)
const count = (s: string) => enc.encode(s).length

for (const dialect of dialects) {
  describe(`relay through the openai SDK (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: { id: number; key: string }
    let channelId: number
    let client: OpenAI

    before(async () => {
      f = await relayFixture(dialect)
      userId = await f.user({ quota: 10_000_000 })
      token = await f.token(userId, { remain: 5_000_000 })
      channelId = await f.channel({
        models: 'gpt-3.5-turbo,gpt-4o,text-embedding-3-small,gpt-3.5-turbo-instruct,dall-e-3,text-moderation-stable,tts-1,whisper-1',
      })
      client = new OpenAI({ apiKey: token.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
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

    it('relays embeddings, completions, images, moderations, speech and transcriptions', async () => {
      const e = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] })
      assert.equal(e.data.length, 2)
      const comp = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' })
      assert.equal(comp.choices[0].text, 'Hello from the fake upstream, how can I help?')
      const img = await client.images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1024x1024' })
      assert.equal(img.data?.[0].url, 'https://images.example/0.png')
      const mod = await client.moderations.create({ input: 'hello', model: 'text-moderation-stable' })
      assert.equal(mod.results[0].flagged, false)
      const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello world' })
      assert.equal(Buffer.from(await speech.arrayBuffer()).toString(), 'ID3fake-mp3-bytes:Hello world')
      const tr = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('RIFFfakewav'), 'a.wav') })
      assert.equal(tr.text, 'Hello from the fake upstream, how can I help?')
      await f.idle()
      const logs = await f.s.ctx.db.selectFrom('logs').selectAll().where('token_id', '=', token.id).orderBy('id', 'desc').limit(6).execute()
      const by = Object.fromEntries(logs.map((l) => [l.model_name, l]))
      // dall-e-3: ratio 20 -> 0.05 USD per 1024 image -> 25000 quota
      assert.equal(Number(by['dall-e-3'].quota), 25000)
      // tts-1: characters are the prompt tokens: 11 * 7.5 = 82.5 -> 83
      assert.equal(Number(by['tts-1'].prompt_tokens), 11)
      assert.equal(Number(by['tts-1'].quota), 83)
      assert.equal(Number(by['whisper-1'].completion_tokens), count('Hello from the fake upstream, how can I help?'))
      assert.equal(Number(by['text-moderation-stable'].prompt_tokens), count('hello'))
      assert.equal(
        f.fake.requests
          .find((r) => r.path === '/v1/audio/transcriptions')
          ?.headers['content-type']?.toString()
          .startsWith('multipart/form-data'),
        true,
      )
    })

    it("lists the models of the group, or the token's model limits", async () => {
      const all = (await client.models.list()).data.map((m) => m.id)
      assert.ok(all.includes('gpt-3.5-turbo') && all.includes('gpt-4o') && all.includes('whisper-1'))
      assert.ok(!all.includes('claude-3-haiku-20240307'))
      const limited = await f.token(userId, { modelLimits: 'gpt-4o,text-embedding-3-small' })
      const c2 = new OpenAI({ apiKey: limited.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      assert.deepEqual(
        (await c2.models.list()).data.map((m) => m.id),
        ['gpt-4o', 'text-embedding-3-small'],
      )
      assert.equal((await c2.models.retrieve('gpt-4o')).id, 'gpt-4o')
      await assert.rejects(c2.models.retrieve('gpt-3.5-turbo'), (e: any) => e.status === 404)
      await assert.rejects(
        c2.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'x' }] }),
        (e: any) => e.status === 403 && /may not use the model gpt-3.5-turbo/.test(e.message),
      )
    })

    it('refuses bad, disabled, expired and exhausted keys with 401 and a clear message', async () => {
      const msg = [{ role: 'user' as const, content: 'x' }]
      const bad = new OpenAI({ apiKey: 'sk-notakey', baseURL: `${f.base}/v1`, maxRetries: 0 })
      await assert.rejects(
        bad.chat.completions.create({ model: 'gpt-4o', messages: msg }),
        (e: any) => e instanceof OpenAI.AuthenticationError && /invalid API key/.test(e.message),
      )
      const res = await fetch(`${f.base}/v1/chat/completions`, { method: 'POST', body: '{}' })
      assert.equal(res.status, 401)
      const body = (await res.json()) as any
      assert.match(body.error.message, /no API key provided/)
      assert.equal(body.error.type, 'tollgate_error')
      assert.equal(body.error.code, 'missing_api_key')

      const disabled = await f.token(userId, { status: 2 })
      await assert.rejects(
        new OpenAI({ apiKey: disabled.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /disabled/.test(e.message),
      )
      const expired = await f.token(userId, { expired: Math.floor(Date.now() / 1000) - 10 })
      await assert.rejects(
        new OpenAI({ apiKey: expired.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /expired/.test(e.message),
      )
      const exhausted = await f.token(userId, { remain: 0 })
      await assert.rejects(
        new OpenAI({ apiKey: exhausted.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: msg,
        }),
        (e: any) => e.status === 401 && /used up its quota/.test(e.message),
      )
      await f.idle()
      const statuses = await f.s.ctx.db
        .selectFrom('tokens')
        .select(['id', 'status'])
        .where('id', 'in', [expired.id, exhausted.id])
        .execute()
      assert.deepEqual(Object.fromEntries(statuses.map((t) => [Number(t.id), Number(t.status)])), { [expired.id]: 3, [exhausted.id]: 4 })
      // an unlimited token ignores its remaining quota
      const unlimited = await f.token(userId, { remain: 0, unlimited: true })
      const ok = await new OpenAI({ apiKey: unlimited.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: msg,
      })
      assert.equal(ok.object, 'chat.completion')
    })

    it('allows a key only from its allowed addresses', async () => {
      const elsewhere = await f.token(userId, { allowIps: '10.1.2.3' })
      await assert.rejects(
        new OpenAI({ apiKey: elsewhere.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && /may not be used from 127.0.0.1/.test(e.message),
      )
      const here = await f.token(userId, { allowIps: '10.1.2.3\n127.0.0.1' })
      const ok = await new OpenAI({ apiKey: here.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      })
      assert.equal(ok.object, 'chat.completion')
    })

    it('follows token and user changes announced on the bus', async () => {
      const t = await f.token(userId)
      const c2 = new OpenAI({ apiKey: t.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      await c2.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      await f.s.ctx.db.updateTable('tokens').set({ status: 2 }).where('id', '=', t.id).execute()
      f.s.ctx.bus.emit('tokens', t.id)
      await waitFor(() => f.engine.state.tokensById.get(t.id)?.status === 2, 'the token reload')
      await assert.rejects(
        c2.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
        (e: any) => e.status === 401,
      )
      // a key created after start (no bus event) is found in the database on first use
      const late = randomKey(48)
      await f.s.ctx.db.insertInto('tokens').values({ user_id: userId, key: late, name: 'late', remain_quota: 100_000, group: '' }).execute()
      const r = await f.call(`sk-${late}`, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      assert.equal(r.status, 200)
      // a banned owner
      const owner = await f.user({ quota: 1_000_000 })
      const ot = await f.token(owner)
      await f.s.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', owner).execute()
      f.s.ctx.bus.emit('users', owner)
      await waitFor(() => f.engine.state.users.get(owner)?.status === 2, 'the user reload')
      const banned = await f.call(ot.key, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      assert.equal(banned.status, 403)
    })

    it('refuses a user without quota, and a key above its remaining quota', async () => {
      const poor = await f.user({ quota: 0 })
      const t = await f.token(poor)
      await assert.rejects(
        new OpenAI({ apiKey: t.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && e.code === 'insufficient_user_quota',
      )
      const t2 = await f.token(userId, { remain: 10 })
      // gpt-4o without max_tokens holds PreConsumedQuota (500) x 1.25 = 625 > 10
      await assert.rejects(
        new OpenAI({ apiKey: t2.key, baseURL: `${f.base}/v1`, maxRetries: 0 }).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
        (e: any) => e.status === 403 && e.code === 'insufficient_token_quota',
      )
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

    it('answers unknown and unimplemented paths in the OpenAI error shape', async () => {
      const r = await f.call(token.key, 'POST', '/v1/nothing/here', {})
      assert.equal(r.status, 404)
      assert.match(((await r.json()) as any).error.message, /Invalid URL \(POST \/v1\/nothing\/here\)/)
      const r2 = await f.call(token.key, 'POST', '/v1/images/edits', {})
      assert.equal(r2.status, 501)
      assert.equal(((await r2.json()) as any).error.code, 'api_not_implemented')
      const r3 = await f.call(token.key, 'POST', '/v1/chat/completions', 'not json')
      assert.equal(r3.status, 400)
      const r4 = await f.call(token.key, 'POST', '/v1/chat/completions', { messages: [] })
      assert.equal(r4.status, 400)
      assert.equal(((await r4.json()) as any).error.code, 'model_required')
    })

    it('shows the balance on the OpenAI billing endpoints', async () => {
      const t = await f.token(userId, { remain: 1_000_000 })
      const sub = (await (await f.call(t.key, 'GET', '/v1/dashboard/billing/subscription')).json()) as any
      assert.equal(sub.object, 'billing_subscription')
      assert.equal(sub.hard_limit_usd, 2)
      const usage = (await (await f.call(t.key, 'GET', '/dashboard/billing/usage')).json()) as any
      assert.equal(usage.total_usage, 0)
    })
  })
}
