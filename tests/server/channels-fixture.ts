/**
 * The fixture of the channel route tests (channels-*.test.ts): a server with its root admin, a fake
 * upstream for the model list and the account checks, the 'channels' events the bus sends, and the
 * channels and abilities tables emptied before each test.
 */
import assert from 'node:assert/strict'
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer, suiteFixture, type Dialect } from './helpers.ts'

interface Seen {
  method: string
  path: string
  auth: string
}

/**
 * A fake upstream on loopback: OpenAI's GET /v1/models, a Viggle listing and a Suno credits call.
 * The bearer key decides the answer: 'sk-good…' passes, 'sk-empty' has no credits, anything else
 * is refused with 401.
 */
async function fakeUpstream(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = []
  const server: HttpServer = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization ?? ''
    seen.push({ method: req.method ?? '', path: req.url ?? '', auth })
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const good = auth.startsWith('Bearer sk-good')
    if (req.url === '/v1/models') {
      if (!good) return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })
      return send(200, {
        object: 'list',
        data: [{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4o-mini', object: 'model' }, { id: 'gpt-4o' }],
      })
    }
    if (req.url === '/broken/v1/models') return send(200, { object: 'list' })
    if (req.url === '/viggle/template2/tag') return good ? send(200, { code: 0, data: [] }) : send(401, { message: 'invalid token' })
    if (req.url === '/api/get_limit') {
      if (auth === 'Bearer sk-empty') return send(200, { credits_left: 0 })
      return good ? send(200, { credits_left: 40 }) : send(403, { message: 'account banned' })
    }
    send(404, { message: 'no such path' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const s = createHttpServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

export const base = { name: 'main', type: 1, key: 'sk-one', models: 'gpt-4o,gpt-4o-mini', group: 'default' }

/** Starts the server and the fake upstream; call reset() before each test and close() after the suite. */
export async function channelsFixture(dialect: Dialect) {
  const s = await startServer(dialect)
  const admin = await s.root()
  const upstream = await fakeUpstream()
  const fx = {
    s,
    admin,
    upstream,
    /** the channel ids of the 'channels' events since the test began (undefined: all channels) */
    events: [] as Array<number | undefined>,
    /** the abilities of one channel, or of all, in a stable order */
    abilities(channelId?: number) {
      let q = s.ctx.db.selectFrom('abilities').selectAll().orderBy('channel_id').orderBy('group').orderBy('model')
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId)
      return q.execute()
    },
    /** creates `base` with `body` over it, and answers the first channel created */
    async create(body: Record<string, unknown>) {
      const r = await admin.post('/api/channel/', { ...base, ...body })
      assert.equal(r.body.success, true, r.body.message)
      return r.body.data[0] as { id: number } & Record<string, unknown>
    },
    /** no channels, no abilities, no events */
    async reset() {
      await s.ctx.db.deleteFrom('abilities').execute()
      await s.ctx.db.deleteFrom('channels').execute()
      fx.events.length = 0
    },
    async close() {
      await upstream.close()
      await s.close()
    },
  }
  s.ctx.bus.on((kind, id) => {
    if (kind === 'channels') fx.events.push(id)
  })
  return fx
}

export type ChannelsFixture = Awaited<ReturnType<typeof channelsFixture>>

/** The fixture of a channels suite (see suiteFixture), the tables emptied before each test. */
export const channelsSuite = (dialect: Dialect) =>
  suiteFixture(
    () => channelsFixture(dialect),
    (fx) => fx.reset(),
  )
