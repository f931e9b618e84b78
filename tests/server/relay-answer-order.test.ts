import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ServerResponse } from 'node:http'
import { dialects } from './helpers.ts'
import { relayFixture, waitFor, type RelayFixture } from './relay-helpers.ts'

/**
 * Issue 10: no answered request goes unbilled after a crash. The charge of a request goes into the
 * ledger's journal (on disk before the next statement runs) when the ledger settles it, so it must
 * be settled before the last byte of its answer is handed to the socket: a SIGKILL between the two
 * would otherwise leave an answer the client saw complete and no charge anywhere. The crash test
 * (crash-journal.test.ts) finds that window only now and then; this test checks the order of the
 * two on every way an answer ends.
 */
for (const dialect of dialects) {
  describe(`the charge is settled before the answer completes (${dialect})`, () => {
    let f: RelayFixture
    let key = ''
    const events: string[] = []
    const originalEnd = ServerResponse.prototype.end

    before(async () => {
      f = await relayFixture(dialect)
      const userId = await f.user({ quota: 50_000_000 })
      key = (await f.token(userId, { unlimited: true })).key
      await f.engine.tokenizer.warm()
      f.fake.scenario('order-counted', { usage: false })
      await f.channel({ key: 'order-usage', models: 'order-usage' })
      await f.channel({ key: 'order-counted', models: 'order-counted' })
      const ledger = f.engine.ledger
      const settle = ledger.settle.bind(ledger)
      ledger.settle = (...args: Parameters<typeof settle>) => {
        events.push('charged')
        return settle(...args)
      }
      ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
        // our relay's answers only (the fake upstream answers in this process too, with the channel's key)
        if (this.req?.headers.authorization === `Bearer ${key}`) events.push('answered')
        return (originalEnd as (...a: unknown[]) => ServerResponse).apply(this, args)
      } as typeof originalEnd
    })
    after(async () => {
      ServerResponse.prototype.end = originalEnd
      await f.close()
    })

    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['plain, usage reported', 'order-usage', {}],
      ['plain, usage counted', 'order-counted', {}],
      ['streamed, usage reported', 'order-usage', { stream: true, stream_options: { include_usage: true } }],
      ['streamed, usage counted and sent', 'order-counted', { stream: true, stream_options: { include_usage: true } }],
      ['streamed, usage counted and not asked for', 'order-counted', { stream: true }],
    ]
    for (const [name, model, extra] of cases) {
      it(name, async () => {
        events.length = 0
        const r = await fetch(`${f.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }], ...extra }),
        })
        assert.equal(r.status, 200)
        await r.text()
        await waitFor(() => f.engine.inflight === 0, 'the request to end')
        assert.deepEqual(events, ['charged', 'answered'])
      })
    }
  })
}
