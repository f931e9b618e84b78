/**
 * Server-side sessions (issue 10 item 4, the session contract): logout and every account change
 * that must sign a user out end the session on the server, so a copy of the old cookie gets 401.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Client, dialects, type TestServer, rootServer } from './helpers.ts'
import { sha256 } from '../../server/middleware/session.ts'

for (const dialect of dialects) {
  describe(`sessions (${dialect})`, () => {
    let s: TestServer
    let root: Client
    rootServer(dialect, (server, client) => ([s, root] = [server, client]))

    /** A second client holding a copy of `c`'s cookie (what an attacker who stole it would have). */
    const copyOf = (c: Client) => Object.assign(new Client(s), { cookie: c.cookie })

    it('keeps sessions on the server: the cookie is <id>.<secret> and only the hash is stored', async () => {
      const u = await s.user()
      const m = /^tollgate_session=([0-9a-f]{32})\.([A-Za-z0-9_-]+)$/.exec(u.cookie)
      assert.ok(m, u.cookie)
      const row = await s.ctx.db.selectFrom('sessions').selectAll().where('id', '=', m[1]!).executeTakeFirstOrThrow()
      assert.equal(row.user_id, u.id)
      assert.equal(row.kind, 'cookie')
      assert.equal(row.secret_hash, sha256(m[2]!))
      assert.equal(row.expires_at - row.created_at, 30 * 24 * 3600)
      const forged = Object.assign(new Client(s), { cookie: `tollgate_session=${m[1]}.${'x'.repeat(43)}` })
      assert.equal((await forged.get('/api/user/self')).status, 401, 'a wrong secret for a real id')
    })

    it("drops a user's expired sessions at the next sign-in", async () => {
      const u = await s.user()
      await s.ctx.db.updateTable('sessions').set({ expires_at: 1 }).where('user_id', '=', u.id).execute()
      assert.equal((await u.get('/api/user/self')).status, 401, 'an expired session is refused')
      await u.post('/api/user/login', { username: u.username, password: 'password123' })
      const rows = await s.ctx.db.selectFrom('sessions').select('expires_at').where('user_id', '=', u.id).execute()
      assert.deepEqual(
        rows.map((r) => r.expires_at > 1),
        [true],
      )
    })

    it('logout ends the session: the old cookie gets 401', async () => {
      const u = await s.user()
      const stolen = copyOf(u)
      assert.equal((await u.call('GET', '/api/user/logout', undefined, { 'x-tollgate-client': '1' })).body.success, true)
      assert.equal((await stolen.get('/api/user/self')).status, 401)
    })

    it('an own password change ends every other session and keeps the current one', async () => {
      const u = await s.user()
      const other = new Client(s)
      await other.post('/api/user/login', { username: u.username, password: 'password123' })
      const r = await u.put('/api/user/self', { password: 'newpassword1' })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal((await other.get('/api/user/self')).status, 401)
      assert.equal((await u.get('/api/user/self')).status, 200)
    })

    it("an admin's password edit, role change, disable and delete end the user's sessions", async () => {
      for (const act of ['password', 'promote', 'disable', 'delete'] as const) {
        const u = await s.user()
        const stolen = copyOf(u)
        const r =
          act === 'password'
            ? await root.put('/api/user/', { id: u.id, password: 'resetpass99' })
            : await root.post('/api/user/manage', { id: u.id, action: act })
        assert.equal(r.body.success, true, `${act}: ${r.body.message}`)
        assert.equal((await stolen.get('/api/user/self')).status, 401, act)
      }
    })

    it('cancelling the own account ends its sessions', async () => {
      const u = await s.user()
      const stolen = copyOf(u)
      assert.equal((await u.del('/api/user/self')).body.success, true)
      assert.equal((await stolen.get('/api/user/self')).status, 401)
    })

    it('sets Secure on the cookie behind a TLS proxy (X-Forwarded-Proto: https), not on plain http', async () => {
      const login = (headers: Record<string, string>) =>
        new Client(s).call('POST', '/api/user/login', { username: 'root', password: s.ctx.config.rootPassword }, headers)
      const tls = (await login({ 'x-forwarded-proto': 'https' })).headers.get('set-cookie') ?? ''
      assert.match(tls, /; Secure/)
      assert.match(tls, /HttpOnly/)
      assert.match(tls, /SameSite=Lax/)
      assert.doesNotMatch((await login({})).headers.get('set-cookie') ?? '', /Secure/)
    })

    it('never answers the access token but from GET /api/user/token, and stores only its hash', async () => {
      const u = await s.user()
      const t = await u.call('GET', '/api/user/token', undefined, { 'x-tollgate-client': '1' })
      const token = t.body.data as string
      assert.match(token, /^[A-Za-z0-9]{32}$/)
      const stored = await s.ctx.db.selectFrom('users').select('access_token').where('id', '=', u.id).executeTakeFirstOrThrow()
      assert.equal(stored.access_token, sha256(token))
      const answers = [
        await new Client(s).post('/api/user/login', { username: u.username, password: 'password123' }),
        await u.get('/api/user/self'),
        await root.get('/api/user/'),
        await root.get(`/api/user/${u.id}`),
        await root.get(`/api/user/search?keyword=${u.username}`),
      ]
      for (const a of answers) assert.doesNotMatch(JSON.stringify(a.body), /access_token|[A-Za-z0-9]{32}"/, JSON.stringify(a.body))
      const family = Object.assign(new Client(s), { bearer: token })
      const self = await family.call('GET', '/api/user/self', undefined, { 'new-api-user': String(u.id) })
      assert.equal(self.body.data.id, u.id, 'the access token still works as a bearer for family clients')
      await u.call('GET', '/api/user/token', undefined, { 'x-tollgate-client': '1' })
      assert.equal((await family.get('/api/user/self')).status, 401, 'a new token replaces the old')
    })
  })
}
