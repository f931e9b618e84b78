/**
 * Sign-in and binding with GitHub: the state handshake (no replay, no planted state), registering
 * github_<n>, binding to the signed-in user, and the refusals; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, Client, assertRefused } from './helpers.ts'
import { oauthSuite, startState } from './oauth-fixture.ts'

for (const dialect of dialects) {
  describe(`oauth sign-in and binding (${dialect})`, () => {
    const fx = oauthSuite(dialect)

    describe('GitHub', () => {
      it('hands out a 12-character state in an HttpOnly SameSite=Lax cookie', async () => {
        const r = await fx.s.anon.get('/api/oauth/state')
        assert.equal(r.body.success, true)
        assert.match(r.body.data, /^[A-Za-z0-9]{12}$/)
        const cookie = r.headers.get('set-cookie') ?? ''
        assert.match(cookie, /tollgate_oauth_state=/)
        assert.match(cookie, /HttpOnly/i)
        assert.match(cookie, /SameSite=Lax/i)
        assert.notEqual((await fx.s.anon.get('/api/oauth/state')).body.data, r.body.data)
      })

      it('registers github_<n> for a new GitHub account, signs it in, and signs the same user in again', async () => {
        await fx.s.ctx.options.set('QuotaForNewUser', '250')
        try {
          const c = new Client(fx.s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-4242&state=${state}`)
          assert.equal(r.body.success, true, r.body.message)
          assert.notEqual(r.body.message, 'bind')
          assert.match(r.body.data.username, /^github_\d+$/)
          assert.equal(r.body.data.github_id, '4242')
          assert.equal(r.body.data.display_name, 'Octo Cat 4242')
          assert.equal(r.body.data.quota, 250)
          assert.equal(r.body.data.password, undefined)
          const me = await c.get('/api/user/self')
          assert.equal(me.body.data.id, r.body.data.id)
          const lastId = (await fx.s.ctx.db.selectFrom('users').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
          assert.equal(r.body.data.username, `github_${lastId}`)

          const again = new Client(fx.s)
          const st = await startState(again)
          const r2 = await st.call(`/api/oauth/github?code=code-4242&state=${st.state}`)
          assert.equal(r2.body.data.id, r.body.data.id)
          assert.equal((await fx.userBy('github_id', '4242')).length, 1)
        } finally {
          await fx.s.ctx.options.set('QuotaForNewUser', '0')
        }
      })

      it('takes the GitHub e-mail for a new user unless an account already uses it', async () => {
        const c = new Client(fx.s)
        const { state, call } = await startState(c)
        const r = await call(`/api/oauth/github?code=code-777&state=${state}`)
        assert.equal(r.body.data.email, 'octo777@example.com')
        const holder = await fx.s.user()
        await fx.s.ctx.db.updateTable('users').set({ email: 'OCTO778@example.com' }).where('id', '=', holder.id).execute()
        const st = await startState(new Client(fx.s))
        const r2 = await st.call(`/api/oauth/github?code=code-778&state=${st.state}`)
        assert.equal(r2.body.success, true)
        assert.equal(r2.body.data.email, '')
      })

      it('is 403 when the state is missing, wrong, forged, or already used', async () => {
        const c = new Client(fx.s)
        assert.equal((await c.get('/api/oauth/github?code=code-1&state=abc')).status, 403)
        const { state, call } = await startState(c)
        const wrong = await call('/api/oauth/github?code=code-1&state=AAAAAAAAAAAA')
        assert.equal(wrong.status, 403)
        assert.match(wrong.body.message, /state/)
        assert.equal((await call('/api/oauth/github?code=code-1')).status, 403)
        const forged = await c.call('GET', `/api/oauth/github?code=code-1&state=${state}`, undefined, {
          cookie: `tollgate_oauth_state=${state}.9999999999.AAAA`,
        })
        assert.equal(forged.status, 403)
        assert.equal(fx.github.seen.filter((x) => x.body.includes('"code-1"')).length, 0, 'GitHub is not asked without a matching state')
        const fresh = await startState(c)
        const done = await fresh.call(`/api/oauth/github?code=code-1&state=${fresh.state}`)
        assert.equal(done.body.success, true)
        assert.match(done.headers.get('set-cookie') ?? '', /tollgate_oauth_state=;[^,]*Max-Age=0/i, 'the state cookie is dropped once used')
      })

      it('takes a state once, and only in the session that asked for it (no replay, no planted state)', async () => {
        const ask = async () => {
          const r = await new Client(fx.s).get('/api/oauth/state')
          return { state: r.body.data as string, cookie: r.headers.get('set-cookie')!.split(';')[0]! }
        }
        const st = await ask()
        const use = (c: Client, cookie: string, code: string) =>
          c.call('GET', `/api/oauth/github?code=${code}&state=${st.state}`, undefined, { cookie })
        assert.equal((await use(new Client(fx.s), st.cookie, 'code-7001')).body.success, true)
        assert.equal((await use(new Client(fx.s), st.cookie, 'code-7001')).status, 403, 'the same state and cookie again')
        // a state made signed out (its cookie planted into a signed-in victim's browser) binds nothing
        const planted = await ask()
        const victim = await fx.s.user()
        const r = await victim.call('GET', `/api/oauth/github?code=code-7002&state=${planted.state}`, undefined, {
          cookie: `${victim.cookie}; ${planted.cookie}`,
        })
        assert.equal(r.status, 403)
        assert.equal((await victim.get('/api/user/self')).body.data.github_id, '')
      })

      it('binds to the signed-in user and answers message bind', async () => {
        const u = await fx.s.user()
        const { state, call } = await startState(u)
        const r = await call(`/api/oauth/github?code=code-5151&state=${state}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.equal(r.body.message, 'bind')
        assert.equal((await u.get('/api/user/self')).body.data.github_id, '5151')

        const other = await fx.s.user()
        const st = await startState(other)
        const taken = await st.call(`/api/oauth/github?code=code-5151&state=${st.state}`)
        assert.equal(taken.body.success, false)
        assert.match(taken.body.message, /already bound to another user/)
        assert.equal((await other.get('/api/user/self')).body.data.github_id, '')
      })

      it('refuses a banned user', async () => {
        const u = await fx.s.user()
        await fx.s.ctx.db.updateTable('users').set({ github_id: '6060', status: 2 }).where('id', '=', u.id).execute()
        const c = new Client(fx.s)
        const { state, call } = await startState(c)
        const r = await call(`/api/oauth/github?code=code-6060&state=${state}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /banned/)
        assert.equal(c.cookie, '')
      })

      it('creates nobody while registration is closed', async () => {
        await fx.s.ctx.options.set('RegisterEnabled', 'false')
        try {
          const c = new Client(fx.s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-9090&state=${state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /registrations are closed/)
          assert.equal((await fx.userBy('github_id', '9090')).length, 0)
        } finally {
          await fx.s.ctx.options.set('RegisterEnabled', 'true')
        }
      })

      it("passes on GitHub's refusal, and says so when GitHub cannot be reached", async () => {
        const c = new Client(fx.s)
        let st = await startState(c)
        const bad = await st.call(`/api/oauth/github?code=nonsense&state=${st.state}`)
        assert.equal(bad.body.success, false)
        assert.match(bad.body.message, /GitHub refused the sign-in: The code passed is incorrect/)

        await fx.s.ctx.options.set('GitHubClientSecret', 'other')
        try {
          st = await startState(c)
          const r = await st.call(`/api/oauth/github?code=code-1&state=${st.state}`)
          assert.match(r.body.message, /incorrect_client_credentials/)
        } finally {
          await fx.s.ctx.options.set('GitHubClientSecret', 'gh-secret')
        }

        process.env.GITHUB_OAUTH_URL = 'http://127.0.0.1:1'
        try {
          st = await startState(c)
          const r = await st.call(`/api/oauth/github?code=code-1&state=${st.state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /could not reach GitHub/)
        } finally {
          process.env.GITHUB_OAUTH_URL = fx.github.base
        }
        st = await startState(c)
        assertRefused(await st.call(`/api/oauth/github?state=${st.state}`))
      })

      it('is refused while GitHub sign-in is off', async () => {
        await fx.s.ctx.options.set('GitHubOAuthEnabled', 'false')
        try {
          const c = new Client(fx.s)
          const { state, call } = await startState(c)
          const r = await call(`/api/oauth/github?code=code-3131&state=${state}`)
          assert.equal(r.body.success, false)
          assert.match(r.body.message, /not enabled sign-in with GitHub/)
          assert.equal((await fx.userBy('github_id', '3131')).length, 0)
        } finally {
          await fx.s.ctx.options.set('GitHubOAuthEnabled', 'true')
        }
      })
    })
  })
}
