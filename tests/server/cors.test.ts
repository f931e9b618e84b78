import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Hono } from 'hono'
import { apiCors } from '../../server/middleware/cors.ts'

const cors = () => apiCors({ allowHeaders: ['Authorization', 'Content-Type'], exposeHeaders: ['Content-Disposition'], maxAge: 600 })

describe("the console API's CORS", () => {
  it("adds its headers to the route's own answer, which it never copies", async () => {
    const app = new Hono()
    app.use('*', cors())
    let answer: Response | undefined
    app.get('/x', (c) => (answer = c.body('{"a":1}', 200, { 'content-type': 'application/json' })))
    const res = await app.request('/x', { headers: { origin: 'https://shop.example' } })
    // a copy would be read back by the node server as a stream: two copies of a large answer
    assert.equal(res, answer, 'the very Response the route returned')
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example')
    assert.equal(res.headers.get('access-control-expose-headers'), 'Content-Disposition')
    assert.equal(res.headers.get('access-control-allow-credentials'), null)
    assert.equal(res.headers.get('vary'), 'Origin')
    assert.equal(await res.text(), '{"a":1}')
  })

  it('names no origin for a request without one, and keeps a refusal the route threw', async () => {
    const app = new Hono()
    app.use('*', cors())
    app.get('/x', () => {
      throw new Error('refused')
    })
    app.onError((_err, c) => c.json({ success: false }, 403))
    const res = await app.request('/x')
    assert.equal(res.status, 403)
    assert.equal(res.headers.get('access-control-allow-origin'), null)
    assert.equal(res.headers.get('access-control-expose-headers'), 'Content-Disposition')
  })

  it('answers a preflight itself, without reaching the route', async () => {
    const app = new Hono()
    app.use('*', cors())
    let reached = false
    app.on('OPTIONS', '/x', (c) => ((reached = true), c.text('no')))
    const res = await app.request('/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    })
    assert.equal(reached, false)
    assert.equal(res.status, 204)
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example')
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET,HEAD,PUT,POST,DELETE,PATCH')
    assert.equal(res.headers.get('access-control-allow-headers'), 'Authorization,Content-Type')
    assert.equal(res.headers.get('access-control-max-age'), '600')
    assert.equal(res.headers.get('access-control-allow-credentials'), null)
    assert.match(res.headers.get('vary') ?? '', /^Origin, Access-Control-Request-Headers$/)
  })
})
