import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { dialects } from './helpers.ts'
import { relayFixture, ledgerOf, type RelayFixture } from './relay-helpers.ts'
import { geminiClient, messagesClient, responsesClient, type DoorClient } from './relay-doors-clients.ts'

const TEXT = 'Hello from the fake upstream, how can I help?'

/** One channel of each format (and an OpenAI-compatible one without a Responses API), each serving its own model. */
const CHANNELS = [
  { format: 'openai', type: 1, key: 'door-openai', model: 'gpt-4o', path: '/v1/chat/completions' },
  { format: 'azure', type: 3, key: 'door-azure', model: 'gpt-4o-azure', path: '/openai/deployments/gpt-4o-azure/chat/completions' },
  { format: 'anthropic', type: 14, key: 'door-claude', model: 'claude-sonnet-4', path: '/v1/messages' },
  { format: 'gemini', type: 24, key: 'door-gemini', model: 'gemini-2.5-flash', path: '/v1beta/models/gemini-2.5-flash:' },
  { format: 'openai-compatible', type: 8, key: 'door-custom', model: 'custom-chat', path: '/v1/chat/completions' },
]

/** The upstream path a door reaches on a channel: its own API when the channel speaks it. */
function expectedPath(door: string, ch: (typeof CHANNELS)[number]): string {
  if (door === 'responses' && ch.type === 1) return '/v1/responses'
  return ch.path
}

const STOP: Record<string, string> = { responses: 'completed', messages: 'end_turn', gemini: 'STOP' }
const FIRST_EVENT: Record<string, string> = { responses: 'response.created', messages: 'message_start', gemini: 'chunk' }
const LAST_EVENT: Record<string, string> = { responses: 'response.completed', messages: 'message_stop', gemini: 'finish' }

for (const dialect of dialects) {
  describe(`front doors through the official clients (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: { id: number; key: string }
    let doors: DoorClient[]
    const initial = { user: 10_000_000, token: 5_000_000 }

    before(async () => {
      f = await relayFixture(dialect)
      userId = await f.user({ quota: initial.user })
      token = await f.token(userId, { remain: initial.token })
      for (const ch of CHANNELS)
        await f.channel({ type: ch.type, key: ch.key, models: ch.model, other: ch.type === 3 ? '2024-10-21' : '', autoBan: 0 })
      doors = [responsesClient(f.base, token.key), messagesClient(f.base, token.key), geminiClient(f.base, token.key)]
    })
    after(() => f.close())

    for (const ch of CHANNELS) {
      for (const name of ['responses', 'messages', 'gemini']) {
        const door = () => doors.find((d) => d.name === name)!
        const upstream = () => f.fake.requests.at(-1)!

        it(`${name} door -> ${ch.format} channel: a plain answer with the upstream's usage`, async () => {
          const a = await door().plain(ch.model)
          assert.equal(a.text, TEXT)
          assert.deepEqual([a.input, a.output, a.stop], [12, 3, STOP[name]])
          assert.equal(upstream().key, ch.key)
          assert.ok(upstream().path.startsWith(expectedPath(name, ch)), upstream().path)
        })

        it(`${name} door -> ${ch.format} channel: a streamed answer in the door's event sequence`, async () => {
          const a = await door().stream(ch.model)
          assert.equal(a.text, TEXT)
          assert.deepEqual([a.input, a.output, a.stop], [12, 3, STOP[name]])
          assert.equal(a.events[0], FIRST_EVENT[name])
          assert.equal(a.events.at(-1), LAST_EVENT[name])
          assert.ok(upstream().path.startsWith(expectedPath(name, ch)), upstream().path)
        })

        for (const stream of [false, true]) {
          it(`${name} door -> ${ch.format} channel: a tool call${stream ? ', streamed' : ''}`, async () => {
            f.fake.scenario(ch.key, { toolCall: true })
            try {
              assert.deepEqual(await door().tool(ch.model, stream), { name: 'get_weather', args: { city: 'Paris' } })
            } finally {
              f.fake.scenario(ch.key, {})
            }
          })
        }

        it(`${name} door -> ${ch.format} channel: an upstream refusal in the client's own error shape`, async () => {
          f.fake.scenario(ch.key, { status: 400 })
          try {
            const e = await door().error(ch.model)
            assert.equal(e.status, 400)
            assert.match(e.message, /fake failure 400/)
            if (name === 'gemini') assert.equal(e.type, 'INVALID_ARGUMENT')
          } finally {
            f.fake.scenario(ch.key, {})
          }
        })
      }
    }

    it('keeps the ledger exact after the mixed run: quota + used = initial, logs sum to used', async () => {
      const l = await ledgerOf(f, userId, token.id)
      assert.ok(l.logCount >= 60, `logs: ${l.logCount}`)
      assert.equal(l.user.quota + l.user.used, initial.user)
      assert.equal(l.token.remain + l.token.used, initial.token)
      assert.equal(l.logSum, l.user.used)
      assert.equal(l.logSum, l.token.used)
      const models = await f.s.ctx.db.selectFrom('logs').select('model_name').where('token_id', '=', token.id).distinct().execute()
      assert.deepEqual(models.map((m) => m.model_name).sort(), CHANNELS.map((c) => c.model).sort())
    })

    it("passes a door's bytes to a channel of the same format untouched", async () => {
      const cases = [
        { path: '/v1/responses', body: '{"model":"gpt-4o",  "input":"kept  as sent"}' },
        { path: '/v1/messages', body: '{"model":"claude-sonnet-4",  "max_tokens":9,"messages":[{"role":"user","content":"kept"}]}' },
        { path: '/v1beta/models/gemini-2.5-flash:generateContent', body: '{"contents":[{"parts":[{"text":"kept  as sent"}]}]}' },
      ]
      for (const c of cases) {
        const res = await f.call(token.key, 'POST', c.path, c.body)
        assert.equal(res.status, 200, await res.clone().text())
        assert.equal(f.fake.requests.at(-1)!.raw, c.body)
      }
    })

    it('retrieves a response kept by the OpenAI channel, and finds none for a translated one', async () => {
      const client = new OpenAI({ apiKey: token.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      const created = await client.responses.create({ model: 'gpt-4o', input: 'keep this' })
      const got = await client.responses.retrieve(created.id)
      assert.equal(got.id, created.id)
      assert.equal(got.output_text, TEXT)
      const streamed = await client.responses.stream({ model: 'gpt-4o', input: 'keep this too' }).finalResponse()
      assert.equal((await client.responses.retrieve(streamed.id)).id, streamed.id)
      const translated = await client.responses.create({ model: 'claude-sonnet-4', input: 'not kept' })
      await assert.rejects(client.responses.retrieve(translated.id), (e: InstanceType<typeof OpenAI.APIError>) => e.status === 404)
    })

    it("takes Gemini's key from the x-goog-api-key header or the key query parameter", async () => {
      const body = JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] })
      const path = '/v1beta/models/gemini-2.5-flash:generateContent'
      const byQuery = await f.s.app.request(`http://localhost${path}?key=${token.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      assert.equal(byQuery.status, 200)
      const bad = await f.s.app.request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'sk-wrong' },
        body,
      })
      assert.equal(bad.status, 401)
      assert.equal(((await bad.json()) as { error: { status: string } }).error.status, 'UNAUTHENTICATED')
    })

    it('applies the channel model mapping behind a door', async () => {
      const id = await f.channel({
        type: 24,
        key: 'door-mapped',
        models: 'gemini-alias',
        modelMapping: '{"gemini-alias":"gemini-2.5-pro"}',
      })
      const res = await f.call(token.key, 'POST', '/v1beta/models/gemini-alias:generateContent', {
        contents: [{ parts: [{ text: 'hi' }] }],
      })
      assert.equal(res.status, 200)
      assert.match(f.fake.requests.at(-1)!.path, /\/models\/gemini-2\.5-pro:generateContent$/)
      await f.idle()
      const log = await f.s.ctx.db.selectFrom('logs').select(['model_name', 'channel']).orderBy('id', 'desc').executeTakeFirstOrThrow()
      assert.deepEqual([log.model_name, Number(log.channel)], ['gemini-alias', id])
    })
  })
}
