/**
 * The other OpenAI endpoints through the openai SDK: embeddings, completions, images, moderations,
 * speech and transcriptions with their charges, the model list, unknown paths and the billing
 * endpoints; on SQLite and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI, { toFile } from 'openai'
import { dialects } from './helpers.ts'
import type { RelayFixture } from './relay-helpers.ts'
import { sdkFixture, count, type SdkFixture } from './relay-sdk-fixture.ts'

for (const dialect of dialects) {
  describe(`relay through the openai SDK (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: SdkFixture['token']
    let client: OpenAI

    before(async () => {
      ;({ f, userId, token, client } = await sdkFixture(dialect))
    })
    after(() => f.close())

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
