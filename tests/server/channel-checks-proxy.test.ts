/**
 * Issue 14: the Suno account check of POST /api/channel/dooy reaches Suno as the relay does,
 * through SunoProxy when that option is set (a stand-in HTTP proxy on loopback records it).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer, type Client, type TestServer } from './helpers.ts'

describe('the Suno account check goes through SunoProxy', () => {
  let s: TestServer
  let admin: Client
  let suno: HttpServer
  let proxy: HttpServer
  const proxied: string[] = []

  before(async () => {
    s = await startServer('sqlite')
    admin = await s.root()
    suno = createHttpServer((req, res) => {
      res.writeHead(req.url === '/api/get_limit' ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ credits_left: 40 }))
    })
    // a plain forwarding proxy: absolute-form requests in, the same request out
    proxy = createHttpServer((req, res) => {
      proxied.push(req.url ?? '')
      const u = new URL(req.url ?? '')
      const up = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers)
        r.pipe(res)
      })
      req.pipe(up)
    })
    await Promise.all([suno, proxy].map((x) => new Promise<void>((done) => x.listen(0, '127.0.0.1', done))))
  })
  after(async () => {
    suno.close()
    proxy.close()
    await s.close()
  })

  it('passes through a working proxy, and fails (disabling the channel) through one that is down', async () => {
    const sunoUrl = `http://127.0.0.1:${(suno.address() as AddressInfo).port}`
    const created = await admin.post('/api/channel/', { type: 41, name: 'suno', key: 'sk-suno', base_url: sunoUrl, models: 'suno_music' })
    assert.equal(created.body.success, true, created.body.message)
    const id = created.body.data[0].id

    await s.ctx.options.set('SunoProxy', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)
    const ok = await admin.post('/api/channel/dooy', { act: 'check_suno', type: 41, status: 1 })
    assert.equal(ok.body.success, true, ok.body.message)
    assert.equal(ok.body.data.disabled, 0)
    assert.deepEqual(proxied, [`${sunoUrl}/api/get_limit`], 'the check went through the proxy')

    await s.ctx.options.set('SunoProxy', 'http://127.0.0.1:1')
    const down = await admin.post('/api/channel/dooy', { act: 'check_suno', type: 41, status: 1 })
    assert.equal(down.body.data.disabled, 1, 'a proxy that is down fails the check')
    const row = await s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()
    assert.equal(row.status, 3)
  })
})
