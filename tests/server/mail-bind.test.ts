/**
 * Binding an e-mail address to a signed-in account with a mailed code: the bind itself, an address
 * another account holds, issue 10's attack 1 (an attacker's code followed through a link), and an
 * anonymous caller; on SQLite and PostgreSQL.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { assertRefused } from './helpers.ts'
import { describeMail, codeIn } from './mail-fixture.ts'

describeMail((fx, dialect) => {
  it('binds an e-mail address for a signed-in user with a mailed code', async () => {
    const { s, smtp, addr } = fx
    const u = await s.user()
    const email = addr('binder')
    const sent = await u.get(`/api/verification?email=${encodeURIComponent(email)}`)
    assert.equal(sent.body.success, true, sent.body.message)
    const code = codeIn(smtp.last(email))

    // a bind code is not a registration code
    await s.ctx.options.set('EmailVerificationEnabled', 'true')
    try {
      const reg = await s.anon.post('/api/user/register', {
        username: 'bindsteal',
        password: 'password123',
        email,
        verification_code: code,
      })
      assert.equal(reg.body.success, false)
    } finally {
      await s.ctx.options.set('EmailVerificationEnabled', 'false')
    }

    assert.equal((await s.anon.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)).status, 401)
    assertRefused(await u.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}`))
    const wrong = await u.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=ffffff`)
    assert.equal(wrong.body.success, false)
    const bound = await u.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)
    assert.equal(bound.body.success, true, bound.body.message)
    assert.equal((await u.get('/api/user/self')).body.data.email, email)
  })

  it('refuses to bind an address another account holds', async () => {
    const { s, smtp, addr } = fx
    const a = await s.user()
    const b = await s.user()
    const email = addr('contested')
    const sent = await a.get(`/api/verification?email=${encodeURIComponent(email)}`)
    assert.equal(sent.body.success, true)
    const code = codeIn(smtp.last(email))
    await s.ctx.db.updateTable('users').set({ email }).where('id', '=', b.id).execute()
    const r = await a.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)
    assert.equal(r.body.success, false)
    assert.match(r.body.message, /another account/)
    assert.equal((await a.get('/api/user/self')).body.data.email, '')
    // the refusal does not spend the code: once the address is free it still binds
    await s.ctx.db.updateTable('users').set({ email: '' }).where('id', '=', b.id).execute()
    const later = await a.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`)
    assert.equal(later.body.success, true, later.body.message)
  })

  it("refuses issue 10's attack 1: an attacker's bind code, followed by a signed-in admin through a link", async () => {
    const { s, smtp, addr } = fx
    const attacker = await s.user()
    const admin = await s.user({ role: 10 })
    const email = addr('attacker')
    assert.equal((await attacker.get(`/api/verification?email=${encodeURIComponent(email)}`)).body.success, true)
    const code = codeIn(smtp.last(email))
    const path = `/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`
    // the link (a top-level navigation: the Lax cookie goes, no console header, cross-site)
    admin.console = false
    const link = await admin.call('GET', path, undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })
    assert.equal(link.status, 403)
    // even were it sent from the console itself, the code belongs to the attacker, not the admin
    admin.console = true
    assertRefused(await admin.get(path), 'the attacker code in the admin session')
    assert.equal((await admin.get('/api/user/self')).body.data.email, '')
    // and it is still the attacker's own to use
    assert.equal((await attacker.get(path)).body.success, true)
  })

  it('asks an anonymous caller to sign in before mailing a bind code', async () => {
    const { s, addr } = fx
    const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('anonbind'))}&purpose=bind`)
    assert.equal(r.body.success, false)
    assert.match(r.body.message, /sign in/)
    assertRefused(await s.anon.get(`/api/verification?email=x.${dialect}@example.com&purpose=other`))
  })
})
