import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import { dialects } from './helpers.ts'
import { relayFixture, waitFor, type RelayFixture } from './relay-helpers.ts'

const enc = new Tiktoken(cl100k)
const count = (s: string) => enc.encode(s).length
const words = Array.from({ length: 20 }, (_, i) => `word${i} `).join('')

for (const dialect of dialects) {
  describe(`relay streaming (${dialect})`, () => {
    let f: RelayFixture
    let userId: number
    let token: { id: number; key: string }

    before(async () => {
      f = await relayFixture(dialect)
      userId = await f.user({ quota: 10_000_000 })
      token = await f.token(userId, { unlimited: true })
      await f.engine.tokenizer.warm()
    })
    after(() => f.close())

    const logOf = async (channel: number) => {
      await f.idle()
      return f.s.ctx.db.selectFrom('logs').selectAll().where('channel', '=', channel).orderBy('id', 'desc').executeTakeFirstOrThrow()
    }

    it('passes the upstream SSE bytes through unchanged when the client asked for usage itself', async () => {
      const id = await f.channel({ key: 'bytes', models: 'gpt-3.5-turbo' })
      const body = {
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }
      const direct = await fetch(`${f.fake.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer bytes', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const relayed = await fetch(`${f.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      assert.equal(relayed.headers.get('content-type'), 'text/event-stream; charset=utf-8')
      const norm = (s: string) => s.replace(/"created":\d+/g, '"created":0')
      assert.equal(norm(await relayed.text()), norm(await direct.text()))
      assert.equal(f.fake.requests.at(-1)!.raw, JSON.stringify(body), 'request bytes forwarded as sent')
      assert.equal(Number((await logOf(id)).completion_tokens), 3)
    })

    it('answers over the socket directly with the request id, sized or streamed', async () => {
      await f.channel({ key: 'direct', models: 'gpt-4o-mini-2024-07-18' })
      const ask = (stream: boolean) =>
        fetch(`${f.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json', 'x-request-id': 'req-42' },
          body: JSON.stringify({ model: 'gpt-4o-mini-2024-07-18', messages: [{ role: 'user', content: 'hi' }], stream }),
        })
      const plain = await ask(false)
      const text = await plain.text()
      assert.equal(plain.headers.get('x-request-id'), 'req-42')
      assert.equal(plain.headers.get('content-length'), String(Buffer.byteLength(text)))
      assert.equal(plain.headers.get('content-type'), 'application/json')
      const streamed = await ask(true)
      assert.equal(streamed.headers.get('x-request-id'), 'req-42')
      assert.equal(streamed.headers.get('content-type'), 'text/event-stream; charset=utf-8')
      assert.match(await streamed.text(), /data: \[DONE\]\n\n$/)
    })

    it('charges a client that disconnects mid-stream for what was produced and aborts the upstream', async () => {
      f.fake.scenario('slow', { usage: true, text: words, chunks: 20, chunkDelayMs: 25 })
      const id = await f.channel({ key: 'slow', models: 'gpt-4-0613' })
      const ac = new AbortController()
      const res = await fetch(`${f.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4-0613', messages: [{ role: 'user', content: 'count to twenty' }], stream: true }),
        signal: ac.signal,
      })
      const reader = res.body!.getReader()
      let got = ''
      while ((got.match(/word/g) ?? []).length < 4) {
        const { value } = await reader.read()
        got += Buffer.from(value!).toString()
      }
      ac.abort()
      await waitFor(() => f.fake.aborted >= 1, 'the upstream request to be aborted')
      const log = await logOf(id)
      const produced = Number(log.completion_tokens)
      assert.ok(produced >= count('word0 ') * 4 && produced < count(words), `charged ${produced} tokens of what was produced`)
      assert.equal(Number(log.prompt_tokens), 3 + count('user') + count('count to twenty') + 3)
      assert.equal(Number(log.quota), Math.round((Number(log.prompt_tokens) + produced * 2) * 15))
      assert.match(log.content, /the client disconnected/)
    })

    it('charges what arrived when the upstream breaks off mid-stream, and ends the client stream with an error event', async () => {
      f.fake.scenario('breaks', { text: words, chunks: 20, chunkDelayMs: 5, breakAfterChunks: 5 })
      const id = await f.channel({ key: 'breaks', models: 'gpt-4-0314' })
      const res = await fetch(`${f.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4-0314', messages: [{ role: 'user', content: 'go' }], stream: true }),
      })
      assert.equal(res.status, 200)
      const text = await res.text()
      assert.match(text, /word4/)
      assert.match(text.trimEnd().split('\n\n').at(-1)!, /^data: \{"error":\{"message":"the upstream stream broke off/)
      const log = await logOf(id)
      const first5 = ['word0 ', 'word1 ', 'word2 ', 'word3 ', 'word4 '].reduce((n, w) => n + count(w), 0)
      assert.equal(Number(log.completion_tokens), first5)
      // the official SDK raises it
      const client = new OpenAI({ apiKey: token.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
      const stream = await client.chat.completions.create({
        model: 'gpt-4-0314',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      })
      await assert.rejects(
        (async () => {
          for await (const _ of stream) void _
        })(),
        /the upstream stream broke off/,
      )
      assert.match(log.content, /broke off/)
    })

    it('streams legacy completions and counts them when the upstream has no usage', async () => {
      f.fake.scenario('legacy', { usage: false, text: 'alpha beta gamma', chunks: 3 })
      const id = await f.channel({ key: 'legacy', models: 'gpt-3.5-turbo-instruct' })
      const res = await f.call(token.key, 'POST', '/v1/completions', {
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Say three words',
        stream: true,
      })
      const text = await res.text()
      assert.match(text, /alpha/)
      assert.match(text, /data: \[DONE\]/)
      const log = await logOf(id)
      assert.equal(Number(log.prompt_tokens), count('Say three words'))
      assert.equal(Number(log.completion_tokens), count('alpha ') + count('beta ') + count('gamma'))
    })
  })
}
