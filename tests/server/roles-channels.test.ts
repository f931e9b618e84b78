import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dialects, startServer, type Client, type TestServer, assertRefused } from './helpers.ts'
import { TASK_LISTS } from '../../server/routes/tasks.ts'

type Role = 'user' | 'admin'

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** built fresh for each call, so a delete always has something to delete */
  path: () => Promise<string> | string
  body?: () => Promise<unknown> | unknown
  role: Role
}

/** A fake OpenAI upstream on loopback answering GET /v1/models. */
async function modelsUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: HttpServer = createHttpServer((req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o' }] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

for (const dialect of dialects) {
  describe(`channel and task calls by role (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let upstream: Awaited<ReturnType<typeof modelsUpstream>>

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      upstream = await modelsUpstream()
    })
    after(async () => {
      await upstream.close()
      await s.close()
    })

    const newChannel = async (extra: Record<string, unknown> = {}) => {
      const r = await root.post('/api/channel/', { name: 'c', type: 1, key: 'sk-x', models: 'gpt-4o', base_url: upstream.url, ...extra })
      assert.equal(r.body.success, true, r.body.message)
      return r.body.data[0].id as number
    }
    const snapshot = async () => ({
      channels: await s.ctx.db.selectFrom('channels').selectAll().orderBy('id').execute(),
      abilities: await s.ctx.db.selectFrom('abilities').selectAll().orderBy('channel_id').orderBy('group').orderBy('model').execute(),
    })

    const routes: Route[] = [
      { method: 'GET', path: () => '/api/channel/?p=0&page_size=10&id_sort=true', role: 'admin' },
      { method: 'GET', path: () => '/api/channel/search?keyword=c&group=default&model=gpt-4o&status=1', role: 'admin' },
      { method: 'GET', path: () => '/api/channel/models', role: 'admin' },
      { method: 'GET', path: () => '/api/models', role: 'user' },
      { method: 'GET', path: async () => `/api/channel/${await newChannel()}`, role: 'admin' },
      { method: 'GET', path: async () => `/api/channel/fetch_models/${await newChannel()}`, role: 'admin' },
      { method: 'POST', path: () => '/api/channel/', body: () => ({ name: 'n', type: 1, key: 'sk-n', models: 'gpt-4o' }), role: 'admin' },
      { method: 'PUT', path: () => '/api/channel/', body: async () => ({ id: await newChannel(), priority: 3 }), role: 'admin' },
      { method: 'PUT', path: () => '/api/channel/', body: async () => ({ id: await newChannel(), status: 2 }), role: 'admin' },
      { method: 'PUT', path: () => '/api/channel/', body: async () => ({ id: await newChannel(), weight: 4 }), role: 'admin' },
      { method: 'DELETE', path: async () => `/api/channel/${await newChannel()}/`, role: 'admin' },
      { method: 'DELETE', path: async () => `/api/channel/${await newChannel()}`, role: 'admin' },
      { method: 'DELETE', path: () => '/api/channel/disabled', role: 'admin' },
      { method: 'POST', path: () => '/api/channel/batch', body: async () => ({ ids: [await newChannel()] }), role: 'admin' },
      { method: 'POST', path: () => '/api/channel/fix', role: 'admin' },
      { method: 'POST', path: () => '/api/channel/dooy', body: () => ({ act: 'check_viggle', type: 45, status: 1 }), role: 'admin' },
      { method: 'POST', path: () => '/api/channel/dooy', body: () => ({ act: 'check_suno', type: 41, status: 1 }), role: 'admin' },
      ...TASK_LISTS.flatMap((l): Route[] => [
        { method: 'GET', path: () => `/api${l.path}/?p=0&channel_id=1&mj_id=&start_timestamp=0&end_timestamp=9999999999`, role: 'admin' },
        { method: 'GET', path: () => `/api${l.path}`, role: 'admin' },
        { method: 'GET', path: () => `/api${l.path}/self/?p=0&mj_id=&start_timestamp=0&end_timestamp=9999999999`, role: 'user' },
        { method: 'GET', path: () => `/api${l.path}/self`, role: 'user' },
      ]),
    ]

    const call = async (c: Client, r: Route) => {
      const path = await r.path()
      const body = r.body ? await r.body() : r.method === 'POST' || r.method === 'PUT' ? {} : undefined
      return { path, reply: await c.call(r.method, path, body) }
    }

    it('answers 401 to anonymous callers on every call, writing nothing', async () => {
      for (const r of routes) {
        const path = await r.path()
        const body = r.body ? await r.body() : undefined
        const mid = await snapshot()
        const reply = await s.anon.call(r.method, path, body)
        assert.equal(reply.status, 401, `${r.method} ${path}`)
        assert.equal(reply.body.success, false)
        assert.deepEqual(await snapshot(), mid, `${r.method} ${path} wrote something`)
      }
    })

    it('answers 403 to ordinary users on admin calls and serves them the user calls', async () => {
      const user = await s.user()
      for (const r of routes) {
        const path = await r.path()
        const body = r.body ? await r.body() : undefined
        const mid = await snapshot()
        const reply = await user.call(r.method, path, body)
        if (r.role === 'admin') {
          assert.equal(reply.status, 403, `${r.method} ${path}`)
          assert.equal(reply.body.success, false)
          assert.deepEqual(await snapshot(), mid, `${r.method} ${path} wrote something`)
        } else {
          assert.deepEqual([reply.status, reply.body.success], [200, true], `${r.method} ${path}: ${reply.body.message}`)
        }
      }
    })

    it('serves administrators and root on every call', async () => {
      const admin = await s.user({ role: 10 })
      for (const c of [admin, root]) {
        for (const r of routes) {
          const { path, reply } = await call(c, r)
          assert.deepEqual([reply.status, reply.body.success], [200, true], `${r.method} ${path}: ${reply.body.message}`)
        }
      }
    })

    it('refuses a disabled administrator', async () => {
      const admin = await s.user({ role: 10 })
      await s.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', admin.id).execute()
      assert.equal((await admin.get('/api/channel/')).status, 403)
    })

    it('refuses, naming the field, malformed input, writing nothing', async () => {
      const id = await newChannel()
      const long = (n: number) => 'x'.repeat(n)
      const valid = { name: 'ok', type: 1, key: 'sk-ok', models: 'gpt-4o' }
      const cases: Array<[Route['method'], string, unknown, string]> = [
        ['POST', '/api/channel/', '{"name": "broken', 'body'],
        ['POST', '/api/channel/', '[1,2]', 'body'],
        ['POST', '/api/channel/', '"text"', 'body'],
        ['POST', '/api/channel/', 'null', 'body'],
        ['POST', '/api/channel/', { ...valid, name: 5 }, 'name'],
        ['POST', '/api/channel/', { ...valid, key: 123 }, 'key'],
        ['POST', '/api/channel/', { ...valid, models: ['gpt-4o'] }, 'models'],
        ['POST', '/api/channel/', { ...valid, group: ['default'] }, 'group'],
        ['POST', '/api/channel/', { ...valid, type: 'openai' }, 'type'],
        ['POST', '/api/channel/', { ...valid, type: 1e9 }, 'type'],
        ['POST', '/api/channel/', { ...valid, priority: 1e308 }, 'priority'],
        ['POST', '/api/channel/', { ...valid, weight: 1e12 }, 'weight'],
        ['POST', '/api/channel/', { ...valid, max_input_tokens: 1e20 }, 'max_input_tokens'],
        ['POST', '/api/channel/', { ...valid, status: '1' }, 'status'],
        ['POST', '/api/channel/', { ...valid, name: long(10_000) }, 'name'],
        ['POST', '/api/channel/', { ...valid, key: long(200_001) }, 'key'],
        ['POST', '/api/channel/', { ...valid, key: Array.from({ length: 1001 }, (_, i) => `k${i}`).join('\n') }, 'key'],
        ['POST', '/api/channel/', { ...valid, base_url: 'https://x.example/' + long(2100) }, 'base_url'],
        ['POST', '/api/channel/', { ...valid, other: long(5000) }, 'other'],
        ['POST', '/api/channel/', { ...valid, model_mapping: '{"a":"' + long(70_000) + '"}' }, 'model_mapping'],
        ['POST', '/api/channel/', { ...valid, test_model: long(256) }, 'test_model'],
        ['POST', '/api/channel/', { ...valid, openai_organization: long(256) }, 'openai_organization'],
        ['POST', '/api/channel/', { ...valid, models: Array.from({ length: 2001 }, (_, i) => `m${i}`).join(',') }, 'models'],
        ['PUT', '/api/channel/', '{oops', 'body'],
        ['PUT', '/api/channel/', { id: 1e20, status: 2 }, 'id'],
        ['PUT', '/api/channel/', { id: -1, status: 2 }, 'id'],
        ['PUT', '/api/channel/', { id: String(id), status: 2 }, 'id'],
        ['PUT', '/api/channel/', { id, status: 'off' }, 'status'],
        ['PUT', '/api/channel/', { id, weight: 'heavy' }, 'weight'],
        ['PUT', '/api/channel/', { id, name: long(500) }, 'name'],
        ['POST', '/api/channel/batch', '{', 'body'],
        ['POST', '/api/channel/batch', { ids: String(id) }, 'ids'],
        ['POST', '/api/channel/batch', { ids: [1.5] }, 'ids.0'],
        ['POST', '/api/channel/batch', { ids: [1e20] }, 'ids.0'],
        ['POST', '/api/channel/batch', { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ids'],
        ['POST', '/api/channel/batch', {}, 'ids'],
        ['POST', '/api/channel/dooy', '{', 'body'],
        ['POST', '/api/channel/dooy', { act: 5, type: 41, status: 1 }, 'act'],
        ['POST', '/api/channel/dooy', { act: 'check_suno', type: 41, status: 9 }, 'status'],
        ['POST', '/api/channel/dooy', { act: 'drop_all', type: 41, status: 1 }, 'act'],
        ['POST', '/api/channel/dooy', { act: 'check_suno', type: 1e30, status: 1 }, 'type'],
        ['GET', '/api/channel/99999999999999999999', undefined, 'id'],
        ['GET', '/api/channel/fetch_models/99999999999999999999', undefined, 'id'],
        ['DELETE', '/api/channel/99999999999999999999/', undefined, 'id'],
        ['GET', '/api/channel/?p=1e20', undefined, 'p'],
        ['GET', '/api/channel/?page_size=ten', undefined, 'page_size'],
        ['GET', '/api/channel/search?keyword=' + long(256), undefined, 'keyword'],
        ['GET', '/api/channel/search?model=' + long(256), undefined, 'model'],
        ['GET', '/api/channel/search?status=abc', undefined, 'status'],
      ]
      for (const [method, path, body, field] of cases) {
        const before = await snapshot()
        const r = await root.call(method, path, body)
        const what = `${method} ${path.slice(0, 60)} ${typeof body === 'string' ? body.slice(0, 40) : JSON.stringify(body)?.slice(0, 60)}`
        // a body that is not JSON at all is a 400; every other bad input is a refusal (HTTP 200)
        if (field === 'body') assert.equal(r.status, 400, what)
        else assertRefused(r, `${what} -> ${r.status} ${r.body.message}`)
        assert.equal(r.body.success, false)
        assert.equal(r.body.data?.field, field, `${what}: ${r.body.message}`)
        assert.ok(r.body.message.includes(field), `${what}: ${r.body.message}`)
        assert.deepEqual(await snapshot(), before, `${what} wrote something`)
      }
    })

    it('refuses business mistakes with success false, writing nothing', async () => {
      const before = await snapshot()
      for (const [method, path, body, message] of [
        ['POST', '/api/channel/', { name: '', type: 1, key: 'k', models: 'a' }, 'please fill in the channel name and key'],
        ['POST', '/api/channel/', { name: 'n', type: 1, key: '', models: 'a' }, 'please fill in the channel name and key'],
        ['POST', '/api/channel/', { name: 'n', type: 1, key: 'k', models: '' }, 'choose at least one model'],
        ['PUT', '/api/channel/', { id: 987654, status: 2 }, 'channel not found, refresh and retry'],
        ['DELETE', '/api/channel/987654/', undefined, 'channel not found, refresh and retry'],
        ['POST', '/api/channel/batch', { ids: [] }, 'select channels to delete first'],
      ] as const) {
        const r = await root.call(method, path, body)
        assert.deepEqual([r.status, r.body.success, r.body.message], [200, false, message], `${method} ${path}`)
      }
      assert.deepEqual(await snapshot(), before)
    })
  })
}
