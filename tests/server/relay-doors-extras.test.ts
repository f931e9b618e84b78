/**
 * The front doors' side endpoints through the official clients: token counting (Anthropic's
 * /v1/messages/count_tokens, Gemini's :countTokens), model listing in each family's shape, and
 * Gemini's streamGenerateContent without alt=sse (a JSON array; Google's SDK always asks for SSE,
 * so that one is read as a plain HTTP client would).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, ApiError } from '@google/genai'
import { dialects } from './helpers.ts'
import { relayFixture, ledgerOf, type RelayFixture } from './relay-helpers.ts'

const TEXT = 'Hello from the fake upstream, how can I help?'
const MODELS = { openai: 'gpt-4o', gemini: 'gemini-2.5-flash', claude: 'claude-sonnet-4' }

for (const dialect of dialects) {
  describe(`front doors: counting, model lists and Gemini's JSON array stream (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: { id: number; key: string }
    /** a token limited to two models, one of which no channel serves */
    let limited: { id: number; key: string }
    const initial = { user: 10_000_000, token: 5_000_000 }

    before(async () => {
      f = await relayFixture(dialect)
      userId = await f.user({ quota: initial.user })
      token = await f.token(userId, { remain: initial.token })
      limited = await f.token(userId, { modelLimits: `${MODELS.gemini},not-served` })
      await f.channel({ type: 1, key: 'x-openai', models: MODELS.openai })
      await f.channel({ type: 24, key: 'x-gemini', models: MODELS.gemini })
      await f.channel({ type: 14, key: 'x-claude', models: MODELS.claude })
    })
    after(() => f.close())

    const anthropic = (key: string) => new Anthropic({ apiKey: key, baseURL: f.base, maxRetries: 0 })
    const google = (key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.base } })

    it("counts a Messages request's tokens for Anthropic's client, without reaching a channel or charging", async () => {
      const before = f.fake.requests.length
      const short = await anthropic(token.key).messages.countTokens({ model: MODELS.openai, messages: [{ role: 'user', content: 'hi' }] })
      const long = await anthropic(token.key).messages.countTokens({
        model: MODELS.claude,
        system: 'You are a careful assistant who answers in full sentences.',
        messages: [{ role: 'user', content: 'Tell me, in a few words, what the weather is like in Paris today.' }],
      })
      assert.ok(short.input_tokens > 0, JSON.stringify(short))
      assert.ok(long.input_tokens > short.input_tokens + 10, `${long.input_tokens} vs ${short.input_tokens}`)
      assert.equal(f.fake.requests.length, before)
      await assert.rejects(
        anthropic(limited.key).messages.countTokens({ model: MODELS.openai, messages: [{ role: 'user', content: 'hi' }] }),
        (e: InstanceType<typeof Anthropic.APIError>) => e.status === 403 && (e.error as { type?: string }).type === 'error',
      )
    })

    it("counts a Gemini request's tokens for Google's client", async () => {
      const ai = google(token.key)
      const short = await ai.models.countTokens({ model: MODELS.gemini, contents: 'hi' })
      const long = await ai.models.countTokens({
        model: MODELS.openai,
        contents: [{ role: 'user', parts: [{ text: 'Tell me, in a few words, what the weather is like in Paris today.' }] }],
      })
      assert.ok((short.totalTokens ?? 0) > 0, JSON.stringify(short))
      assert.ok((long.totalTokens ?? 0) > (short.totalTokens ?? 0) + 10)
      await assert.rejects(
        google(limited.key).models.countTokens({ model: MODELS.openai, contents: 'hi' }),
        (e: unknown) => e instanceof ApiError && e.status === 403 && /PERMISSION_DENIED/.test(e.message),
      )
    })

    it("lists the models a token may use in Anthropic's shape, paged, and retrieves one", async () => {
      const client = anthropic(token.key)
      const all: string[] = []
      for await (const m of client.models.list({ limit: 2 })) {
        assert.equal(m.type, 'model')
        assert.match(m.created_at, /^\d{4}-\d\d-\d\dT/)
        all.push(m.id)
      }
      assert.deepEqual(all, Object.values(MODELS).sort())
      const page = await client.models.list({ limit: 2 })
      assert.deepEqual([page.data.length, page.has_more, page.last_id], [2, true, all[1]])
      assert.equal((await client.models.retrieve(MODELS.claude)).display_name, MODELS.claude)
      // the limited token: only its served model
      const mine: string[] = []
      for await (const m of anthropic(limited.key).models.list()) mine.push(m.id)
      assert.deepEqual(mine, [MODELS.gemini])
      await assert.rejects(
        anthropic(limited.key).models.retrieve(MODELS.openai),
        (e: InstanceType<typeof Anthropic.APIError>) => e.status === 404,
      )
    })

    it("lists the models a token may use in Gemini's shape, by header or key=, and gets one", async () => {
      const names: string[] = []
      for await (const m of await google(token.key).models.list({ config: { pageSize: 2 } })) names.push(m.name ?? '')
      assert.deepEqual(
        names,
        Object.values(MODELS)
          .sort()
          .map((m) => `models/${m}`),
      )
      const one = await google(token.key).models.get({ model: MODELS.gemini })
      assert.equal(one.name, `models/${MODELS.gemini}`)
      assert.ok(one.supportedActions?.includes('generateContent'))
      const byKey = await f.s.app.request(`http://localhost/v1beta/models?key=${limited.key}`)
      assert.deepEqual(
        ((await byKey.json()) as { models: Array<{ name: string }> }).models.map((m) => m.name),
        [`models/${MODELS.gemini}`],
      )
      const v1 = await f.s.app.request('http://localhost/v1/models', { headers: { 'x-goog-api-key': limited.key } })
      assert.deepEqual(
        ((await v1.json()) as { models: Array<{ name: string }> }).models.map((m) => m.name),
        [`models/${MODELS.gemini}`],
      )
      await assert.rejects(
        google(limited.key).models.get({ model: MODELS.openai }),
        (e: unknown) => e instanceof ApiError && e.status === 404,
      )
    })

    for (const model of [MODELS.openai, MODELS.gemini, MODELS.claude]) {
      it(`streams :streamGenerateContent without alt=sse as one JSON array (${model} channel)`, async () => {
        const res = await fetch(`${f.base}/v1beta/models/${model}:streamGenerateContent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': token.key },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
        })
        assert.equal(res.status, 200)
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/)
        const body = await res.text()
        assert.ok(body.startsWith('[{') && body.endsWith('}]'), body)
        const chunks = JSON.parse(body) as Array<{
          candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>
          usageMetadata?: Record<string, number>
        }>
        assert.ok(chunks.length >= 2, body)
        assert.equal(chunks.map((c) => c.candidates?.[0]?.content?.parts?.map((p) => p.text ?? '').join('') ?? '').join(''), TEXT)
        const last = chunks.at(-1)!
        assert.equal(last.candidates?.[0]?.finishReason, 'STOP')
        assert.deepEqual([last.usageMetadata?.promptTokenCount, last.usageMetadata?.candidatesTokenCount], [12, 3])
        // the upstream was asked for server-sent events all the same
        if (model === MODELS.gemini) assert.match(f.fake.requests.at(-1)!.path, /:streamGenerateContent\?alt=sse$/)
      })
    }

    it('keeps the ledger exact after the run: quota + used = initial, logs sum to used', async () => {
      const l = await ledgerOf(f, userId, token.id)
      assert.equal(l.logCount, 3)
      assert.equal(l.user.quota + l.user.used, initial.user)
      assert.equal(l.token.remain + l.token.used, initial.token)
      assert.equal(l.logSum, l.token.used)
    })
  })
}
