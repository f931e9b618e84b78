import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dialects, startServer, type Client, type TestServer, assertRefused } from './helpers.ts'
import { CHANNEL_TYPES, channelTypeName } from '../../domain/channel-types.ts'
import { abilitiesOf } from '../../server/db/abilities.ts'

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
async function closedPort(): Promise<number> {
  const s = createHttpServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

const base = { name: 'main', type: 1, key: 'sk-one', models: 'gpt-4o,gpt-4o-mini', group: 'default' }

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    let s: TestServer
    let admin: Client
    let upstream: Awaited<ReturnType<typeof fakeUpstream>>
    let events: Array<number | undefined>

    before(async () => {
      s = await startServer(dialect)
      admin = await s.root()
      upstream = await fakeUpstream()
      s.ctx.bus.on((kind, id) => {
        if (kind === 'channels') events.push(id)
      })
    })
    after(async () => {
      await upstream.close()
      await s.close()
    })
    beforeEach(async () => {
      await s.ctx.db.deleteFrom('abilities').execute()
      await s.ctx.db.deleteFrom('channels').execute()
      events = []
    })

    const abilities = (channelId?: number) => {
      let q = s.ctx.db.selectFrom('abilities').selectAll().orderBy('channel_id').orderBy('group').orderBy('model')
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId)
      return q.execute()
    }
    const create = async (body: Record<string, unknown>) => {
      const r = await admin.post('/api/channel/', { ...base, ...body })
      assert.equal(r.body.success, true, r.body.message)
      return r.body.data[0] as { id: number } & Record<string, unknown>
    }

    it('creates a channel with its abilities, without sending the key back', async () => {
      const r = await admin.post('/api/channel/', { ...base, group: 'default, vip', models: 'gpt-4o, gpt-4o-mini,,gpt-4o' })
      assert.equal(r.status, 200)
      assert.equal(r.body.success, true)
      assert.equal(r.body.message, 'channel created')
      assert.equal(r.body.data.length, 1)
      const ch = r.body.data[0]
      assert.equal(ch.key, undefined)
      assert.equal(ch.name, 'main')
      assert.equal(ch.models, 'gpt-4o,gpt-4o-mini')
      assert.equal(ch.group, 'default,vip')
      assert.equal(ch.status, 1)
      assert.equal(ch.auto_ban, 1)
      assert.ok(ch.created_time > 0)
      const stored = await s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.equal(stored.key, 'sk-one')
      const rows = await abilities(ch.id)
      assert.deepEqual(
        rows.map((a) => [a.group, a.model, a.enabled]),
        [
          ['default', 'gpt-4o', 1],
          ['default', 'gpt-4o-mini', 1],
          ['vip', 'gpt-4o', 1],
          ['vip', 'gpt-4o-mini', 1],
        ],
      )
      assert.deepEqual(events, [ch.id])
    })

    it('refuses a new channel without name, key or models, writing nothing', async () => {
      for (const body of [{ name: '' }, { key: '' }, { key: ' \n \n' }, { name: '   ' }]) {
        const r = await admin.post('/api/channel/', { ...base, ...body })
        assert.deepEqual([r.status, r.body.success, r.body.message], [200, false, 'please fill in the channel name and key'])
      }
      for (const body of [{ models: '' }, { models: ' , ,' }, { models: undefined }]) {
        const r = await admin.post('/api/channel/', { ...base, ...body })
        assert.deepEqual([r.status, r.body.success, r.body.message], [200, false, 'choose at least one model'])
      }
      assert.equal((await s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await abilities()).length, 0)
      assert.deepEqual(events, [])
    })

    it('creates one channel per key line, skipping blank lines', async () => {
      const r = await admin.post('/api/channel/', { ...base, key: 'sk-a\n\n  sk-b  \r\n\nsk-c\n' })
      assert.equal(r.body.success, true)
      assert.equal(r.body.data.length, 3)
      const rows = await s.ctx.db.selectFrom('channels').select(['id', 'key', 'name']).orderBy('id').execute()
      assert.deepEqual(
        rows.map((x) => x.key),
        ['sk-a', 'sk-b', 'sk-c'],
      )
      assert.ok(rows.every((x) => x.name === 'main'))
      assert.equal((await abilities()).length, 6)
      assert.deepEqual(events.sort(), rows.map((x) => x.id).sort())
    })

    it('normalises base_url, other, weight and the JSON mappings', async () => {
      const a = await create({ base_url: 'https://example.com/api//', weight: -5, priority: -999 })
      assert.equal(a.base_url, 'https://example.com/api')
      assert.equal(a.weight, 0)
      assert.equal(a.priority, -999)
      const azure = await create({ type: 3, other: '' })
      assert.equal(azure.other, '2023-06-01-preview')
      const azureSet = await create({ type: 3, other: '2024-02-01' })
      assert.equal(azureSet.other, '2024-02-01')
      const spark = await create({ type: 18 })
      assert.equal(spark.other, 'v2.1')
      const plain = await create({ type: 1, other: '' })
      assert.equal(plain.other, '')
      const mapped = await create({
        model_mapping: '{"gpt-4o-2024":"gpt-4o"}',
        status_code_mapping: '{"400":"500"}',
        priority: '',
        weight: null,
      })
      assert.equal(mapped.model_mapping, '{"gpt-4o-2024":"gpt-4o"}')
      assert.equal(mapped.status_code_mapping, '{"400":"500"}')
      assert.equal(mapped.priority, 0)
      assert.equal(mapped.weight, 0)
    })

    it('refuses, naming the field, bad mappings, priority and base_url, writing nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ model_mapping: '{not json' }, 'model_mapping'],
        [{ model_mapping: '["a"]' }, 'model_mapping'],
        [{ model_mapping: '{"a":1}' }, 'model_mapping'],
        [{ status_code_mapping: '{"400":"abc"}' }, 'status_code_mapping'],
        [{ status_code_mapping: 'null' }, 'status_code_mapping'],
        [{ priority: -1000 }, 'priority'],
        [{ priority: 1e30 }, 'priority'],
        [{ type: '1' }, 'type'],
        [{ type: 1.5 }, 'type'],
        [{ base_url: 'ftp://example.com' }, 'base_url'],
        [{ base_url: 'not a url' }, 'base_url'],
        [{ models: 'x'.repeat(256) }, 'models'],
        [{ group: 'g'.repeat(65) }, 'group'],
        [{ status: 7 }, 'status'],
        [{ auto_ban: 2 }, 'auto_ban'],
        [{ name: 'n'.repeat(129) }, 'name'],
      ]
      for (const [body, field] of cases) {
        const r = await admin.post('/api/channel/', { ...base, ...body })
        assertRefused(r, `${JSON.stringify(body)} -> ${r.status} ${r.body.message}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, new RegExp(`^${field}\\b`), r.body.message)
        assert.equal(r.body.data?.field, field)
      }
      assert.equal((await s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await abilities()).length, 0)
    })

    it('accepts auto_ban as a boolean and stores it as 0/1', async () => {
      const ch = await create({ auto_ban: false })
      assert.equal(ch.auto_ban, 0)
      const r = await admin.put('/api/channel/', { id: ch.id, auto_ban: true })
      assert.equal(r.body.data.auto_ban, 1)
    })

    it('lists by priority then id, or by id, without keys, paged from 0', async () => {
      const low = await create({ name: 'low', priority: 0 })
      const high = await create({ name: 'high', priority: 5 })
      const mid = await create({ name: 'mid', priority: 2 })
      const low2 = await create({ name: 'low2', priority: 0 })
      const r = await admin.get('/api/channel/?p=0')
      assert.equal(r.body.success, true)
      assert.deepEqual(
        r.body.data.map((c: { id: number }) => c.id),
        [high.id, mid.id, low2.id, low.id],
      )
      assert.ok(r.body.data.every((c: Record<string, unknown>) => !('key' in c)))
      const byId = await admin.get('/api/channel/?p=0&id_sort=true')
      assert.deepEqual(
        byId.body.data.map((c: { id: number }) => c.id),
        [low2.id, mid.id, high.id, low.id],
      )
      const page1 = await admin.get('/api/channel/?p=1&page_size=3')
      assert.deepEqual(
        page1.body.data.map((c: { id: number }) => c.id),
        [low.id],
      )
      const page0 = await admin.get('/api/channel/?p=0&page_size=3')
      assert.equal(page0.body.data.length, 3)
    })

    it('uses 10 a page by default and at most 100', async () => {
      await admin.post('/api/channel/', { ...base, key: Array.from({ length: 105 }, (_, i) => `sk-${i}`).join('\n') })
      assert.equal((await admin.get('/api/channel/')).body.data.length, 10)
      assert.equal((await admin.get('/api/channel/?page_size=500')).body.data.length, 100)
      assert.equal((await admin.get('/api/channel/?page_size=100&p=1')).body.data.length, 5)
      assert.equal((await admin.get('/api/channel/?page_size=-1')).body.data.length, 10)
      assertRefused(await admin.get('/api/channel/?p=-1'))
      assertRefused(await admin.get('/api/channel/?p=abc'))
    })

    it('searches by id, name, exact key, group, model and status', async () => {
      const a = await create({ name: 'Alpha 50%', key: 'sk-alpha-secret', group: 'default,vip', models: 'gpt-4o' })
      const b = await create({ name: 'beta', key: 'sk-beta', group: 'svip', models: 'gpt-4o-mini,claude-3-haiku-20240307', status: 2 })
      const ids = async (query: string) => {
        const r = await admin.get(`/api/channel/search?${query}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.ok(r.body.data.every((c: Record<string, unknown>) => !('key' in c)))
        return r.body.data.map((c: { id: number }) => c.id).sort()
      }
      assert.deepEqual(await ids(`keyword=${a.id}`), [a.id])
      assert.deepEqual(await ids('keyword=alp'), [a.id], 'name contains, any case')
      assert.deepEqual(await ids('keyword=50%25'), [a.id], 'a literal percent sign')
      assert.deepEqual(await ids('keyword=%25'), [a.id], 'percent is not a wildcard')
      assert.deepEqual(await ids('keyword=_'), [], 'underscore is not a wildcard')
      assert.deepEqual(await ids('keyword=sk-alpha-secret'), [a.id], 'exact key')
      assert.deepEqual(await ids('keyword=sk-alpha'), [], 'no partial key match')
      assert.deepEqual(await ids('group=vip'), [a.id])
      assert.deepEqual(await ids('group=svip'), [b.id])
      assert.deepEqual(await ids('model=gpt-4o'), [a.id], 'gpt-4o does not match gpt-4o-mini')
      assert.deepEqual(await ids('model=claude-3-haiku-20240307'), [b.id])
      assert.deepEqual(await ids('status=2'), [b.id])
      assert.deepEqual(await ids('status=1'), [a.id])
      assert.deepEqual(await ids('status='), [a.id, b.id].sort())
      assert.deepEqual(await ids(''), [a.id, b.id].sort())
      assert.deepEqual(await ids('keyword=beta&status=1'), [])
      assertRefused(await admin.get('/api/channel/search?status=9'))
    })

    it('returns one channel whole, key included', async () => {
      const ch = await create({ key: 'sk-full', model_mapping: '{"a":"b"}' })
      const r = await admin.get(`/api/channel/${ch.id}`)
      assert.equal(r.body.success, true)
      assert.equal(r.body.data.key, 'sk-full')
      assert.equal(r.body.data.model_mapping, '{"a":"b"}')
      for (const f of [
        'id',
        'name',
        'type',
        'key',
        'openai_organization',
        'max_input_tokens',
        'base_url',
        'other',
        'model_mapping',
        'status_code_mapping',
        'models',
        'group',
        'auto_ban',
        'test_model',
        'status',
        'response_time',
        'balance',
        'used_quota',
        'priority',
        'weight',
        'created_time',
        'test_time',
        'balance_updated_time',
      ]) {
        assert.ok(f in r.body.data, `channel lacks ${f}`)
      }
      const missing = await admin.get('/api/channel/999999')
      assert.deepEqual([missing.status, missing.body.success], [200, false])
      assert.notEqual((await admin.get('/api/channel/abc')).status, 200)
    })

    it('updates partially and rebuilds abilities in step', async () => {
      const ch = await create({ group: 'default,vip' })
      events = []
      let r = await admin.put('/api/channel/', { id: ch.id, status: 2 })
      assert.equal(r.body.success, true)
      assert.equal(r.body.message, 'channel updated')
      assert.equal(r.body.data.status, 2)
      assert.equal(r.body.data.key, undefined)
      assert.ok((await abilities(ch.id)).every((a) => a.enabled === 0))
      r = await admin.put('/api/channel/', { id: ch.id, status: 1 })
      assert.ok((await abilities(ch.id)).every((a) => a.enabled === 1))
      r = await admin.put('/api/channel/', { id: ch.id, priority: 7 })
      assert.equal(r.body.data.priority, 7)
      assert.ok((await abilities(ch.id)).every((a) => a.priority === 7))
      r = await admin.put('/api/channel/', { id: ch.id, weight: 3 })
      assert.ok((await abilities(ch.id)).every((a) => a.weight === 3 && a.priority === 7))
      r = await admin.put('/api/channel/', { id: ch.id, weight: -3 })
      assert.equal(r.body.data.weight, 0)
      r = await admin.put('/api/channel/', { id: ch.id, priority: '', weight: '' })
      assert.equal(r.body.data.priority, 7, 'an empty priority is ignored')
      r = await admin.put('/api/channel/', { id: ch.id, models: 'o1', group: 'svip' })
      assert.deepEqual(
        (await abilities(ch.id)).map((a) => [a.group, a.model]),
        [['svip', 'o1']],
      )
      r = await admin.put('/api/channel/', { id: ch.id, group: '' })
      assert.equal(r.body.data.group, 'default')
      assert.equal(events.length, 8)
      assert.ok(events.every((e) => e === ch.id))
    })

    it('keeps the old key when the update leaves it empty or out', async () => {
      const ch = await create({ key: 'sk-original' })
      const key = async () => (await s.ctx.db.selectFrom('channels').select('key').where('id', '=', ch.id).executeTakeFirstOrThrow()).key
      await admin.put('/api/channel/', { id: ch.id, key: '', name: 'renamed' })
      assert.equal(await key(), 'sk-original')
      await admin.put('/api/channel/', { id: ch.id, name: 'renamed again' })
      assert.equal(await key(), 'sk-original')
      await admin.put('/api/channel/', { id: ch.id, key: '  sk-new  ' })
      assert.equal(await key(), 'sk-new')
    })

    it('validates the fields an update carries', async () => {
      const ch = await create({ type: 1 })
      const before = await s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.equal((await admin.put('/api/channel/', { id: ch.id, models: ' , ' })).body.message, 'choose at least one model')
      assert.equal((await admin.put('/api/channel/', { id: ch.id, name: '' })).body.message, 'please fill in the channel name and key')
      assertRefused(await admin.put('/api/channel/', { id: ch.id, model_mapping: '{' }))
      assertRefused(await admin.put('/api/channel/', { id: ch.id, priority: -1000 }))
      assertRefused(await admin.put('/api/channel/', { id: 'x', status: 1 }))
      assertRefused(await admin.put('/api/channel/', { status: 1 }))
      const after = await s.ctx.db.selectFrom('channels').selectAll().where('id', '=', ch.id).executeTakeFirstOrThrow()
      assert.deepEqual(after, before)
      const missing = await admin.put('/api/channel/', { id: 999999, status: 2 })
      assert.deepEqual([missing.body.success, missing.body.message], [false, 'channel not found, refresh and retry'])
      const azure = await admin.put('/api/channel/', { id: ch.id, type: 3 })
      assert.equal(azure.body.data.other, '2023-06-01-preview')
      const base2 = await admin.put('/api/channel/', { id: ch.id, base_url: 'http://127.0.0.1:9/' })
      assert.equal(base2.body.data.base_url, 'http://127.0.0.1:9')
    })

    it('keeps abilities equal to the channels under concurrent updates and deletes', async () => {
      const chans = []
      for (let i = 0; i < 6; i++) chans.push(await create({ group: 'default,vip' }))
      const calls = []
      for (let i = 0; i < 48; i++) {
        const ch = chans[i % 6]!
        calls.push(admin.put('/api/channel/', { id: ch.id, models: `m${i},shared`, status: i % 3 ? 1 : 2, priority: i }))
        if (i === 10) calls.push(admin.del(`/api/channel/${chans[3]!.id}/`))
        if (i === 20) calls.push(admin.del(`/api/channel/${chans[4]!.id}`))
        if (i === 30) calls.push(admin.post('/api/channel/batch', { ids: [chans[5]!.id] }))
        if (i === 15) calls.push(admin.post('/api/channel/fix'))
      }
      const replies = await Promise.all(calls)
      for (const r of replies) assert.equal(r.status, 200, r.body.message)
      const key = (a: { group: string; model: string; channel_id: number }) => `${a.channel_id}/${a.group}/${a.model}`
      const channels = await s.ctx.db.selectFrom('channels').selectAll().execute()
      const want = channels.flatMap(abilitiesOf).sort((a, b) => key(a).localeCompare(key(b)))
      const got = (await abilities()).map((a) => ({ ...a })).sort((a, b) => key(a).localeCompare(key(b)))
      assert.deepEqual(got, want)
      assert.deepEqual(
        channels.map((c) => c.id).sort(),
        chans
          .slice(0, 3)
          .map((c) => c.id)
          .sort(),
      )
    })

    it('deletes one channel (with or without the slash) and its abilities', async () => {
      const a = await create({})
      const b = await create({})
      events = []
      assert.equal((await admin.del(`/api/channel/${a.id}/`)).body.success, true)
      assert.equal((await admin.del(`/api/channel/${b.id}`)).body.success, true)
      assert.equal((await s.ctx.db.selectFrom('channels').select('id').execute()).length, 0)
      assert.equal((await abilities()).length, 0)
      assert.deepEqual(events, [a.id, b.id])
      const again = await admin.del(`/api/channel/${a.id}/`)
      assert.deepEqual([again.status, again.body.success], [200, false])
    })

    it('deletes disabled channels and a batch, answering counts', async () => {
      const on = await create({ status: 1 })
      const off = await create({ status: 2 })
      const auto = await create({ status: 3 })
      const r = await admin.del('/api/channel/disabled')
      assert.deepEqual([r.body.success, r.body.data], [true, 2])
      assert.deepEqual(
        (await s.ctx.db.selectFrom('channels').select('id').execute()).map((x) => x.id),
        [on.id],
      )
      assert.deepEqual([...new Set((await abilities()).map((a) => a.channel_id))], [on.id])
      assert.ok(events.includes(off.id) && events.includes(auto.id))
      const x = await create({})
      const y = await create({})
      const batch = await admin.post('/api/channel/batch', { ids: [x.id, y.id, x.id, 999999] })
      assert.deepEqual([batch.body.success, batch.body.data], [true, 2])
      assert.deepEqual(
        (await s.ctx.db.selectFrom('channels').select('id').execute()).map((c) => c.id),
        [on.id],
      )
      assert.deepEqual([...new Set((await abilities()).map((a) => a.channel_id))], [on.id])
      const none = await admin.post('/api/channel/batch', { ids: [] })
      assert.deepEqual([none.body.success, none.body.message], [false, 'select channels to delete first'])
    })

    it('fixes abilities of every channel from the channels table', async () => {
      const a = await create({ group: 'default,vip' })
      const b = await create({ status: 2 })
      await s.ctx.db.deleteFrom('abilities').where('channel_id', '=', a.id).execute()
      await s.ctx.db
        .insertInto('abilities')
        .values({ group: 'stale', model: 'gone', channel_id: 424242, enabled: 1, priority: 0, weight: 0 })
        .execute()
      await s.ctx.db.updateTable('abilities').set({ enabled: 1 }).where('channel_id', '=', b.id).execute()
      events = []
      const r = await admin.post('/api/channel/fix')
      assert.deepEqual([r.body.success, r.body.data], [true, 2])
      const rows = await abilities()
      assert.equal(rows.filter((x) => x.channel_id === a.id).length, 4)
      assert.ok(rows.filter((x) => x.channel_id === b.id).every((x) => x.enabled === 0))
      assert.equal(rows.filter((x) => x.channel_id === 424242).length, 0)
      assert.deepEqual(events, [undefined])
    })

    it('fetches the model list of an OpenAI channel from its upstream', async () => {
      const ch = await create({ type: 1, key: 'sk-good-1\nsk-second', base_url: upstream.url + '/' })
      upstream.seen.length = 0
      const r = await admin.get(`/api/channel/fetch_models/${ch.id}`)
      assert.deepEqual([r.body.success, r.body.data], [true, ['gpt-4o', 'gpt-4o-mini']])
      assert.deepEqual(upstream.seen, [{ method: 'GET', path: '/v1/models', auth: 'Bearer sk-good-1' }])
    })

    it('refuses fetch_models for other types and reports upstream failures', async () => {
      const claude = await create({ type: 14, base_url: upstream.url })
      const r = await admin.get(`/api/channel/fetch_models/${claude.id}`)
      assert.deepEqual([r.body.success, r.body.message], [false, 'only the OpenAI interface format is supported'])
      const badKey = await create({ type: 1, key: 'sk-bad', base_url: upstream.url })
      const denied = await admin.get(`/api/channel/fetch_models/${badKey.id}`)
      assert.equal(denied.body.success, false)
      assert.match(denied.body.message, /^fetching model list failed: HTTP 401 Incorrect API key provided/)
      const broken = await create({ type: 1, key: 'sk-good', base_url: upstream.url + '/broken' })
      assert.match((await admin.get(`/api/channel/fetch_models/${broken.id}`)).body.message, /^fetching model list failed: .*no model list/)
      const down = await create({ type: 1, key: 'sk-good', base_url: `http://127.0.0.1:${await closedPort()}` })
      const r2 = await admin.get(`/api/channel/fetch_models/${down.id}`)
      assert.equal(r2.body.success, false)
      assert.match(r2.body.message, /^fetching model list failed: the upstream could not be reached \(ECONNREFUSED\)$/)
      assert.equal((await admin.get('/api/channel/fetch_models/999999')).body.success, false)
    })

    it('lists built-in models as OpenAI model objects and per channel type', async () => {
      const r = await admin.get('/api/channel/models')
      assert.equal(r.body.success, true)
      const ids = r.body.data.map((m: { id: string }) => m.id)
      assert.equal(new Set(ids).size, ids.length, 'each model once')
      for (const id of ['gpt-4o', 'claude-3-5-sonnet-20241022', 'mj_imagine', 'suno_music', 'gemini-1.5-pro'])
        assert.ok(ids.includes(id), id)
      const gpt = r.body.data.find((m: { id: string }) => m.id === 'gpt-4o')
      assert.deepEqual(gpt, { id: 'gpt-4o', object: 'model', created: 1626777600, owned_by: 'openai' })
      const u = await s.user()
      const byType = await u.get('/api/models')
      assert.equal(byType.body.success, true)
      assert.ok(byType.body.data['1'].includes('gpt-4o'))
      assert.ok(byType.body.data['14'].includes('claude-3-5-sonnet-20241022'))
      assert.ok(byType.body.data['2'].includes('mj_imagine'))
      assert.deepEqual(byType.body.data['8'], [])
      assert.equal(Object.keys(byType.body.data).length, CHANNEL_TYPES.length)
    })

    it('knows every channel type number of the spec', () => {
      const numbers = [
        1, 2, 5, 4, 14, 33, 3, 24, 34, 15, 17, 18, 16, 26, 11, 25, 19, 23, 31, 35, 8, 22, 21, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59,
        61, 63, 64, 65, 66,
      ]
      assert.deepEqual(
        CHANNEL_TYPES.map((t) => t.type).sort((a, b) => a - b),
        [...numbers].sort((a, b) => a - b),
      )
      assert.equal(channelTypeName(41), 'Suno')
      assert.equal(channelTypeName(3), 'Azure OpenAI')
      assert.equal(channelTypeName(999), 'unknown')
    })

    it('checks Suno accounts: disables failing ones (auto_ban 1), keeps others, answers counts', async () => {
      await s.ctx.options.set('SunoServer', upstream.url)
      const good = await create({ type: 41, key: 'sk-good-s', base_url: upstream.url, models: 'suno_music' })
      const bad = await create({ type: 41, key: 'sk-bad', base_url: upstream.url, models: 'suno_music' })
      const empty = await create({ type: 41, key: 'sk-empty', base_url: upstream.url, models: 'suno_music' })
      const noBan = await create({ type: 41, key: 'sk-bad', base_url: upstream.url, models: 'suno_music', auto_ban: 0 })
      const viaOption = await create({ type: 41, key: 'sk-good-o', models: 'suno_music' })
      const viggle = await create({ type: 45, key: 'sk-bad', base_url: upstream.url, models: 'vg_generate' })
      events = []
      upstream.seen.length = 0
      const r = await admin.post('/api/channel/dooy', { act: 'check_suno', type: 41, status: 1 })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(r.body.data.checked, 5)
      assert.equal(r.body.data.disabled, 2)
      assert.equal(r.body.data.enabled, 0)
      assert.deepEqual(r.body.data.failed.map((f: { id: number }) => f.id).sort(), [bad.id, empty.id, noBan.id].sort())
      assert.ok(upstream.seen.every((x) => x.path === '/api/get_limit'))
      const status = async (id: number) =>
        (await s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(good.id), 1)
      assert.equal(await status(bad.id), 3)
      assert.equal(await status(empty.id), 3)
      assert.equal(await status(noBan.id), 1, 'auto_ban 0 is never disabled')
      assert.equal(await status(viaOption.id), 1, 'an empty base_url uses the SunoServer option')
      assert.equal(await status(viggle.id), 1, 'other types are not checked')
      assert.ok((await abilities(bad.id)).every((a) => a.enabled === 0))
      const info = await s.ctx.db.selectFrom('channels').select('other_info').where('id', '=', bad.id).executeTakeFirstOrThrow()
      assert.match(JSON.parse(info.other_info).status_reason, /Suno account check failed: HTTP 403 account banned/)
      // read back in the reader's language: the check's own failure, nested in the reason, too
      const reason = async (id: number, lang: string) =>
        JSON.parse((await admin.call('GET', `/api/channel/${id}`, undefined, { 'accept-language': lang })).body.data.other_info)
          .status_reason
      assert.equal(await reason(bad.id, 'zh-CN'), 'Suno 账号检查未通过：HTTP 403 account banned')
      assert.equal(await reason(empty.id, 'zh-CN'), 'Suno 账号检查未通过：已没有剩余点数')
      assert.equal(await reason(empty.id, 'en'), 'Suno account check failed: no credits left')
      assert.deepEqual(events.sort(), [bad.id, empty.id].sort())
    })

    it('checks Viggle accounts and re-enables auto-disabled ones that pass', async () => {
      const back = await create({ type: 45, key: 'sk-good-v', base_url: upstream.url, models: 'vg_generate', status: 3 })
      const still = await create({ type: 45, key: 'sk-bad', base_url: upstream.url, models: 'vg_generate', status: 3 })
      const manual = await create({ type: 45, key: 'sk-good-v', base_url: upstream.url, models: 'vg_generate', status: 2 })
      upstream.seen.length = 0
      const r = await admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 3 })
      assert.equal(r.body.success, true, r.body.message)
      assert.deepEqual([r.body.data.checked, r.body.data.enabled, r.body.data.disabled], [2, 1, 0])
      assert.ok(upstream.seen.every((x) => x.path === '/viggle/template2/tag'))
      const status = async (id: number) =>
        (await s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(back.id), 1)
      assert.equal(await status(still.id), 3)
      assert.equal(await status(manual.id), 2)
      assert.ok((await abilities(back.id)).every((a) => a.enabled === 1))
      const enabledOnly = await admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 1 })
      assert.deepEqual([enabledOnly.body.data.checked, enabledOnly.body.data.disabled], [2, 0])
    })

    it("checks, on the console's own request (status 1), enabled and automatically disabled channels alike", async () => {
      await s.ctx.db.updateTable('channels').set({ status: 2 }).where('type', '=', 45).execute()
      const back = await create({ type: 45, key: 'sk-good-v', base_url: upstream.url, models: 'vg_generate', status: 3 })
      const failing = await create({ type: 45, key: 'sk-bad', base_url: upstream.url, models: 'vg_generate' })
      const manual = await create({ type: 45, key: 'sk-good-v', base_url: upstream.url, models: 'vg_generate', status: 2 })
      // the body the console's "check Viggle" button sends (src/api/channels.ts)
      const r = await admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 1 })
      assert.equal(r.body.success, true, r.body.message)
      assert.deepEqual([r.body.data.checked, r.body.data.enabled, r.body.data.disabled], [2, 1, 1])
      const status = async (id: number) =>
        (await s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(back.id), 1)
      assert.equal(await status(failing.id), 3)
      assert.equal(await status(manual.id), 2, 'a manual disable stands')
    })

    it('refuses an unknown act or a type that does not fit it', async () => {
      const unknown = await admin.post('/api/channel/dooy', { act: 'check_luma', type: 43, status: 1 })
      assertRefused(unknown)
      assert.match(unknown.body.message, /^act /)
      const wrongType = await admin.post('/api/channel/dooy', { act: 'check_suno', type: 45, status: 1 })
      assertRefused(wrongType)
      assert.match(wrongType.body.message, /^type must be 41/)
      assertRefused(await admin.post('/api/channel/dooy', { type: 41 }))
    })

    it('reads null as absent on every optional field of create, update and the account checks', async () => {
      const optional = [
        'type',
        'openai_organization',
        'max_input_tokens',
        'base_url',
        'other',
        'model_mapping',
        'status_code_mapping',
        'group',
        'auto_ban',
        'test_model',
        'status',
        'priority',
        'weight',
      ]
      const nulls = Object.fromEntries(optional.map((f) => [f, null]))
      const created = await admin.post('/api/channel/', { name: 'nulls', key: 'sk-null', models: 'gpt-4o', ...nulls })
      assert.equal(created.body.success, true, created.body.message)
      const row = await s.ctx.db.selectFrom('channels').selectAll().where('id', '=', created.body.data[0].id).executeTakeFirstOrThrow()
      assert.deepEqual(
        [row.type, row.group, row.status, row.priority, row.weight, row.auto_ban, row.base_url],
        [1, 'default', 1, 0, 0, 1, ''],
      )
      await admin.put('/api/channel/', { id: row.id, name: 'kept', priority: 7, base_url: upstream.url, test_model: 'gpt-4o' })
      const update = await admin.put('/api/channel/', { id: row.id, name: null, key: null, models: null, ...nulls })
      assert.equal(update.body.success, true, update.body.message)
      const after = await s.ctx.db.selectFrom('channels').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
      assert.deepEqual(
        [after.name, after.key, after.models, after.priority, after.base_url, after.test_model],
        ['kept', 'sk-null', 'gpt-4o', 7, upstream.url, 'gpt-4o'],
      )
      const checks = await admin.post('/api/channel/dooy', { act: 'check_viggle', type: null, status: null })
      assert.equal(checks.body.success, true, checks.body.message)
      // a missing name is still refused: null is "not given", and a new channel needs one
      assertRefused(await admin.post('/api/channel/', { name: null, key: 'sk-x', models: 'gpt-4o' }))
    })

    it("answers in the caller's language, the spec's English otherwise", async () => {
      const zh = { 'accept-language': 'zh-CN' }
      const missing = await admin.call('GET', '/api/channel/999999', undefined, zh)
      assert.deepEqual([missing.body.success, missing.body.message], [false, '渠道不存在，请刷新后重试'])
      const none = await admin.call('POST', '/api/channel/batch', { ids: [] }, zh)
      assert.equal(none.body.message, '请先选择要删除的渠道')
      const created = await admin.call('POST', '/api/channel/', { ...base, key: 'sk-a\nsk-b\nsk-c' }, zh)
      assert.equal(created.body.message, '已创建 3 个渠道')
      assert.equal((await admin.post('/api/channel/', { ...base, key: 'sk-a\nsk-b' })).body.message, '2 channels created')
      const claude = await create({ type: 14, base_url: upstream.url })
      assert.equal(
        (await admin.call('GET', `/api/channel/fetch_models/${claude.id}`, undefined, zh)).body.message,
        '仅支持 OpenAI 接口格式',
      )
      const down = await create({ type: 1, key: 'sk-good', base_url: `http://127.0.0.1:${await closedPort()}` })
      const r = await admin.call('GET', `/api/channel/fetch_models/${down.id}`, undefined, zh)
      assert.equal(r.body.message, '获取模型列表失败：无法连接上游（ECONNREFUSED）')
      const act = await admin.call('POST', '/api/channel/dooy', { act: 'check_luma' }, zh)
      assert.deepEqual([act.body.message, act.body.data.field], ['act 必须是以下之一：check_viggle, check_suno', 'act'])
    })
  })
}
