import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dialects } from './helpers.ts'
import { relayFixture, ledgerOf, waitFor, type RelayFixture } from './relay-helpers.ts'
import { usageOf } from '../../server/relay/adapters/types.ts'

const words = Array.from({ length: 20 }, (_, i) => `word${i} `).join('')

/**
 * A tiny upstream of our own for the answers the fake upstream never gives: a plain answer whose
 * body breaks off after its headers, and a 200 whose body is not JSON.
 */
async function brokenUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.url?.includes('/v1/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('this is not JSON')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      res.write('{"id":"chatcmpl-cut","choices":[')
      setTimeout(() => res.socket?.destroy(), 5)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

for (const dialect of dialects) {
  describe(`relay requests in flight end exactly once (${dialect})`, () => {
    let f: RelayFixture
    let broken: Awaited<ReturnType<typeof brokenUpstream>>
    let userId: number
    let token: { id: number; key: string }

    before(async () => {
      f = await relayFixture(dialect)
      broken = await brokenUpstream()
      userId = await f.user({ quota: 50_000_000 })
      token = await f.token(userId, { unlimited: true })
      await f.engine.tokenizer.warm()
    })
    after(async () => {
      await f.close()
      await broken.close()
    })

    /**
     * Runs one request to its end and reports how its flight ended: the engine's settle and
     * release counts, the ledger's charges and log rows, and what is still held or in flight.
     */
    const ends = async (run: () => Promise<unknown>) => {
      const flights = f.engine.flights
      const before = { settled: flights.settled, released: flights.released, ledger: await ledgerOf(f, userId, token.id) }
      await run()
      await waitFor(() => f.engine.inflight === 0, 'the request to end')
      const l = await ledgerOf(f, userId, token.id)
      return {
        settled: flights.settled - before.settled,
        released: flights.released - before.released,
        charges: l.user.count - before.ledger.user.count,
        logs: l.logCount - before.ledger.logCount,
        inflight: f.engine.inflight,
        userHeld: f.engine.state.users.get(userId)!.reserved,
        tokenHeld: f.engine.state.tokensById.get(token.id)!.reserved,
      }
    }
    const settledOnce = { settled: 1, released: 0, charges: 1, logs: 1, inflight: 0, userHeld: 0, tokenHeld: 0 }
    const releasedOnce = { settled: 0, released: 1, charges: 0, logs: 0, inflight: 0, userHeld: 0, tokenHeld: 0 }

    const chat = (model: string, extra: Record<string, unknown> = {}, signal?: AbortSignal) =>
      fetch(`${f.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
        signal,
      })

    it('settles a non-stream success with the usage the upstream reported', async () => {
      await f.channel({ key: 'exit-ok', models: 'exit-ok' })
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-ok')).status)), settledOnce)
      assert.equal(status, 200)
    })

    it('settles a non-stream answer without usage once its usage is counted', async () => {
      f.fake.scenario('exit-counted', { usage: false })
      await f.channel({ key: 'exit-counted', models: 'exit-counted' })
      assert.deepEqual(await ends(async () => (await chat('exit-counted')).text()), settledOnce)
      const log = await f.s.ctx.db.selectFrom('logs').selectAll().where('model_name', '=', 'exit-counted').executeTakeFirstOrThrow()
      assert.ok(Number(log.completion_tokens) > 0, 'the answer was counted')
    })

    it('releases the hold when the upstream answers 500 and no retry is allowed', async () => {
      await f.s.ctx.options.set('RetryTimes', '0')
      f.fake.scenario('exit-500', { status: 500 })
      await f.channel({ key: 'exit-500', models: 'exit-500', autoBan: 0 })
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-500')).status)), releasedOnce)
      assert.equal(status, 500)
    })

    it('releases the hold once after every retry failed', async () => {
      await f.s.ctx.options.set('RetryTimes', '2')
      for (const key of ['exit-retry-a', 'exit-retry-b', 'exit-retry-c']) {
        f.fake.scenario(key, { status: 503 })
        await f.channel({ key, models: 'exit-retry', autoBan: 0 })
      }
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-retry')).status)), releasedOnce)
      assert.equal(status, 503)
      const hits = ['exit-retry-a', 'exit-retry-b', 'exit-retry-c'].reduce((n, k) => n + (f.fake.hits.get(k) ?? 0), 0)
      assert.equal(hits, 3, 'three attempts')
      await f.s.ctx.options.set('RetryTimes', '0')
    })

    it('releases the hold on a network error: a dropped connection, or nobody listening', async () => {
      f.fake.scenario('exit-drop', { destroy: true })
      await f.channel({ key: 'exit-drop', models: 'exit-drop', autoBan: 0 })
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-drop')).status)), releasedOnce)
      assert.equal(status, 502)
      await f.channel({ key: 'exit-closed', models: 'exit-closed', baseUrl: 'http://127.0.0.1:1', autoBan: 0 })
      assert.deepEqual(await ends(async () => (status = (await chat('exit-closed')).status)), releasedOnce)
      assert.equal(status, 502)
    })

    it('releases the hold when the channel cannot take the call (before any upstream call)', async () => {
      await f.channel({ key: 'exit-proxy', type: 2, models: 'exit-unsupported' })
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-unsupported')).status)), releasedOnce)
      assert.equal(status, 400)
      await f.channel({ key: 'exit-no-base', type: 8, models: 'exit-misconfigured', baseUrl: '' })
      assert.deepEqual(await ends(async () => (status = (await chat('exit-misconfigured')).status)), releasedOnce)
      assert.equal(status, 500)
    })

    it('releases the hold when a plain answer breaks off or cannot be read', async () => {
      await f.channel({ key: 'exit-cut', models: 'exit-cut', baseUrl: broken.url })
      let status = 0
      assert.deepEqual(await ends(async () => (status = (await chat('exit-cut')).status)), releasedOnce)
      assert.equal(status, 502)
      await f.channel({ key: 'exit-garbage', type: 14, models: 'exit-garbage', baseUrl: broken.url })
      const messages = () =>
        fetch(`${f.base}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': token.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'exit-garbage', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
        })
      assert.deepEqual(await ends(async () => (status = (await messages()).status)), releasedOnce)
      assert.equal(status, 502)
    })

    it('releases the hold when the client leaves before the upstream answers', async () => {
      f.fake.scenario('exit-slow', { latencyMs: 300 })
      await f.channel({ key: 'exit-slow', models: 'exit-slow' })
      const ac = new AbortController()
      const r = await ends(async () => {
        const pending = chat('exit-slow', {}, ac.signal).catch(() => null)
        await waitFor(() => f.engine.inflight === 1, 'the request to be in flight')
        ac.abort()
        await pending
      })
      assert.deepEqual(r, releasedOnce)
    })

    it('settles once when the client leaves mid-stream', async () => {
      f.fake.scenario('exit-leave', { usage: true, text: words, chunks: 20, chunkDelayMs: 20 })
      await f.channel({ key: 'exit-leave', models: 'exit-leave' })
      const ac = new AbortController()
      const r = await ends(async () => {
        const res = await chat('exit-leave', { stream: true }, ac.signal)
        const reader = res.body!.getReader()
        let got = ''
        while ((got.match(/word/g) ?? []).length < 3) got += Buffer.from((await reader.read()).value!).toString()
        ac.abort()
        await waitFor(() => f.fake.aborted >= 1, 'the upstream request to be aborted')
      })
      assert.deepEqual(r, settledOnce)
    })

    it('settles once when the upstream breaks the stream off', async () => {
      f.fake.scenario('exit-break', { text: words, chunks: 20, chunkDelayMs: 2, breakAfterChunks: 4 })
      await f.channel({ key: 'exit-break', models: 'exit-break' })
      let text = ''
      assert.deepEqual(await ends(async () => (text = await (await chat('exit-break', { stream: true })).text())), settledOnce)
      assert.match(text, /the upstream stream broke off/)
    })

    it('settles once a stream without usage is counted, and with no tokens when counting fails', async () => {
      f.fake.scenario('exit-stream-count', { usage: false, text: words, chunks: 4 })
      await f.channel({ key: 'exit-stream-count', models: 'exit-stream-count' })
      const streamed = () => chat('exit-stream-count', { stream: true, stream_options: { include_usage: true } }).then((r) => r.text())
      let text = ''
      assert.deepEqual(await ends(async () => (text = await streamed())), settledOnce)
      assert.match(text, /"usage":\{"prompt_tokens":\d+,"completion_tokens":[1-9]/)
      const tokenizer = f.engine.tokenizer
      const total = tokenizer.total
      tokenizer.total = () => Promise.reject(new Error('tokenizer down'))
      try {
        assert.deepEqual(await ends(async () => (text = await streamed())), settledOnce)
      } finally {
        tokenizer.total = total
      }
      assert.match(text, /data: \[DONE\]\n\n$/, 'the client stream still ends')
      const log = await f.s.ctx.db
        .selectFrom('logs')
        .selectAll()
        .where('model_name', '=', 'exit-stream-count')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      assert.equal(Number(log.quota), 0)
      assert.match(log.content, /the upstream may have timed out/)
    })

    it('ends a flight once, whatever is called after its first end', async () => {
      const { engine } = f
      const user = engine.state.users.get(userId)!
      const tok = engine.state.tokensById.get(token.id)!
      const start = async (amount: number) => {
        const hold = engine.ledger.reserve(user, tok, amount)
        assert.ok(!('refused' in hold))
        const caller = { user, token: tok, group: 'default', pinned: 0 }
        const call = { mode: 'chat', path: '/chat/completions', raw: Buffer.from('{}'), json: {}, contentType: 'application/json' } as const
        const price = engine.pricing.price('gpt-3.5-turbo', 'default')
        const relayCall = { ...call, model: 'gpt-3.5-turbo', stream: false, wantUsage: false }
        return engine.flights.begin({ caller, call: relayCall, price, hold, t0: performance.now() })
      }
      const settledTwice = await ends(async () => {
        const flight = await start(1000)
        assert.equal(engine.inflight, 1)
        assert.equal(user.reserved, 1000)
        flight.settle(usageOf(40, 0))
        flight.settle(usageOf(40, 0))
        flight.release()
        flight.settleCounted(Promise.resolve(usageOf(40, 0)))
      })
      assert.deepEqual(settledTwice, settledOnce)
      const countedThenReleased = await ends(async () => {
        const flight = await start(1000)
        let count!: (u: ReturnType<typeof usageOf>) => void
        flight.settleCounted(new Promise((resolve) => (count = resolve)))
        flight.release()
        assert.equal(engine.inflight, 1, 'in flight until counted')
        count(usageOf(40, 0))
      })
      assert.deepEqual(countedThenReleased, settledOnce)
      const releasedTwice = await ends(async () => {
        const flight = await start(1000)
        flight.release()
        flight.release()
        flight.settle(usageOf(40, 0))
      })
      assert.deepEqual(releasedTwice, releasedOnce)
    })
  })
}
