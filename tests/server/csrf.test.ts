/**
 * The CSRF rules of the session contract and CORS on /api (issue 10 item 3): what a page of
 * another site (or of the same site on another port) can make a signed-in browser send is
 * refused and changes nothing; the console's own calls and non-browser clients keep working.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Client, dialects, type TestServer, rootServer } from './helpers.ts'

const SIBLING = 'http://localhost:8080'

for (const dialect of dialects) {
  describe(`CSRF and CORS (${dialect})`, () => {
    let s: TestServer
    let root: Client
    rootServer(dialect, (server, client) => ([s, root] = [server, client]))

    const roleOf = async (id: number) =>
      (await s.ctx.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role
    const channels = async () => (await s.ctx.db.selectFrom('channels').select('id').execute()).length

    it("refuses issue 10's attack 3: a text/plain form posted by a sibling page promotes nobody (415)", async () => {
      const attacker = await s.user()
      root.console = false
      try {
        const body = JSON.stringify({ id: attacker.id, action: 'promote' })
        const headers = { 'content-type': 'text/plain', origin: SIBLING, 'sec-fetch-site': 'same-site' }
        const r = await root.call('POST', '/api/user/manage', body, headers)
        assert.equal(r.status, 415)
        // a form's other encodings, and no type at all
        for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
          const h: Record<string, string> = { origin: SIBLING, 'sec-fetch-site': 'same-site', 'content-type': type }
          assert.equal((await root.call('POST', '/api/user/manage', body, h)).status, 415, type || 'no type')
        }
        // a no-cors fetch creating a channel
        const made = await root.call('POST', '/api/channel/', JSON.stringify({ name: 'x', type: 1, key: 'k', models: 'm' }), {
          'content-type': 'text/plain;charset=UTF-8',
          'sec-fetch-site': 'same-site',
          'sec-fetch-mode': 'no-cors',
        })
        assert.equal(made.status, 415)
      } finally {
        root.console = true
      }
      assert.equal(await roleOf(attacker.id), 1)
      assert.equal(await channels(), 0)
    })

    it('refuses a JSON write with the cookie from another origin, same-site or cross-site (403)', async () => {
      const attacker = await s.user()
      const tries: Array<Record<string, string>> = [
        { origin: SIBLING, 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
      ]
      for (const h of tries) {
        const r = await root.call('POST', '/api/user/manage', { id: attacker.id, action: 'promote' }, h)
        assert.equal(r.status, 403, JSON.stringify(h))
      }
      assert.equal(await roleOf(attacker.id), 1)
    })

    it("passes the console's own writes, an allowed site's, and clients that are not browsers", async () => {
      const u = await s.user()
      const own = await u.call(
        'PUT',
        '/api/user/self',
        { display_name: 'own' },
        { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      )
      assert.equal(own.body.success, true, own.body.message)
      const proxied = await u.call(
        'PUT',
        '/api/user/self',
        { display_name: 'proxied' },
        { origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'same-origin' },
      )
      assert.equal(proxied.body.success, true, 'Sec-Fetch-Site same-origin (a dev proxy rewrote Host)')
      const script = await u.put('/api/user/self', { display_name: 'script' })
      assert.equal(script.body.success, true, 'no Origin and no Sec-Fetch-Site: not a browser')
      await s.ctx.options.set('EmbedOrigins', SIBLING)
      try {
        const allowed = await u.call(
          'PUT',
          '/api/user/self',
          { display_name: 'allowed' },
          { origin: SIBLING, 'sec-fetch-site': 'same-site' },
        )
        assert.equal(allowed.body.success, true)
      } finally {
        await s.ctx.options.set('EmbedOrigins', '')
      }
    })

    it('refuses a state-changing GET reached by a link: no console header (403), nothing changed', async () => {
      const u = await s.user()
      u.console = false
      const before = await s.ctx.db.selectFrom('users').select('access_token').where('id', '=', u.id).executeTakeFirstOrThrow()
      for (const path of ['/api/user/token', '/api/user/logout', '/api/user/aff', '/api/oauth/email/bind?email=a@b.example&code=abc123']) {
        const r = await u.call('GET', path, undefined, { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' })
        assert.equal(r.status, 403, path)
      }
      const after = await s.ctx.db.selectFrom('users').select(['access_token', 'aff_code']).where('id', '=', u.id).executeTakeFirstOrThrow()
      assert.equal(after.access_token, before.access_token)
      assert.equal(after.aff_code, null)
      assert.equal((await u.get('/api/user/self')).status, 200, 'still signed in: the logout link did nothing')
      const cross = await root.call('GET', '/api/channel/test', undefined, { 'sec-fetch-site': 'cross-site' })
      assert.equal(cross.status, 403, 'a cross-site request with the header is refused too')
      u.console = true
      assert.equal((await u.call('GET', '/api/user/token', undefined, { 'sec-fetch-site': 'same-origin' })).body.success, true)
      const family = await u.call('GET', '/api/user/aff', undefined, { 'new-api-user': String(u.id) })
      assert.equal(family.body.success, true, 'New-API-User counts as the header')
    })

    it('answers CORS preflights for any origin, reflecting it, without credentials', async () => {
      const res = await s.app.request('http://localhost/api/user/login', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      })
      assert.equal(res.status, 204)
      assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example')
      assert.equal(res.headers.get('access-control-allow-credentials'), null)
      assert.equal(res.headers.get('access-control-max-age'), '600')
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase()
      for (const h of ['authorization', 'content-type', 'accept-language', 'new-api-user', 'x-tollgate-client'])
        assert.ok(allowed.includes(h), h)
      assert.match(res.headers.get('vary') ?? '', /Origin/)
      const status = await s.app.request('http://localhost/api/status', { headers: { origin: 'https://anyone.example' } })
      assert.equal(status.headers.get('access-control-allow-origin'), 'https://anyone.example')
      assert.equal(status.headers.get('access-control-allow-credentials'), null)
      assert.equal(((await status.json()) as { success: boolean }).success, true, 'public reads work from any origin')
    })
  })
}
