/**
 * Password reset by mail: the mailed link resets once, and is built on ServerAddress when it is set;
 * on SQLite and PostgreSQL.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { Client, assertRefused } from './helpers.ts'
import { describeMail, resetLinkIn } from './mail-fixture.ts'

describeMail((fx) => {
  it('resets a password through the mailed link, once', async () => {
    const { s, smtp, addr } = fx
    const u = await s.user()
    const email = addr('forgetful')
    await s.ctx.db.updateTable('users').set({ email }).where('id', '=', u.id).execute()

    const unknown = await s.anon.get(`/api/reset_password?email=${encodeURIComponent(addr('stranger'))}`)
    assert.equal(unknown.body.success, false)
    assert.match(unknown.body.message, /no account uses/)

    const sent = await s.anon.get(`/api/reset_password?email=${encodeURIComponent(email)}`)
    assert.equal(sent.body.success, true, sent.body.message)
    const link = resetLinkIn(smtp.last(email))
    assert.equal(link.origin, 'http://localhost')
    assert.equal(link.pathname, '/user/reset')
    assert.equal(link.searchParams.get('email'), email)
    const token = link.searchParams.get('token')!
    assert.match(token, /^[0-9a-f]{32}$/)

    const wrong = await s.anon.post('/api/user/reset', { email, token: '0'.repeat(32) })
    assert.equal(wrong.body.success, false)
    const done = await s.anon.post('/api/user/reset', { email, token })
    assert.equal(done.body.success, true, done.body.message)
    const password = done.body.data as string
    assert.match(password, /^[A-Za-z0-9]{12}$/)
    assert.equal((await new Client(s).post('/api/user/login', { username: u.username, password })).body.success, true)
    assert.equal((await new Client(s).post('/api/user/login', { username: u.username, password: 'password123' })).body.success, false)
    const reused = await s.anon.post('/api/user/reset', { email, token })
    assert.equal(reused.body.success, false)
    assert.match(reused.body.message, /wrong or has expired/)

    assertRefused(await s.anon.post('/api/user/reset', { email }))
  })

  it('builds the reset link on ServerAddress when it is set', async () => {
    const { s, smtp, addr } = fx
    const u = await s.user()
    const email = addr('linked')
    await s.ctx.db.updateTable('users').set({ email }).where('id', '=', u.id).execute()
    await s.ctx.options.set('ServerAddress', 'https://gate.example.com/')
    try {
      assert.equal((await s.anon.get(`/api/reset_password?email=${encodeURIComponent(email)}`)).body.success, true)
      const link = resetLinkIn(smtp.last(email))
      assert.equal(`${link.origin}${link.pathname}`, 'https://gate.example.com/user/reset')
    } finally {
      await s.ctx.options.set('ServerAddress', '')
    }
  })
})
