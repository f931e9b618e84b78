/**
 * Registration codes by mail: registering with a mailed code, and the addresses refused (malformed,
 * outside the domain whitelist, aliases, already used) or not mailed while registration is closed;
 * on SQLite and PostgreSQL.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { assertRefused, type Dialect } from './helpers.ts'
import { describeMail, codeIn, type MailFixture } from './mail-fixture.ts'

/** A mailed code registers once: not without it, not a wrong one, and not a second time. */
async function registersWithMailedCode(fx: MailFixture) {
  const { s, smtp, addr } = fx
  await s.ctx.options.set('EmailVerificationEnabled', 'true')
  try {
    const email = addr('newbie')
    const sent = await s.anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
    assert.deepEqual([sent.status, sent.body.success], [200, true], sent.body.message)
    const mail = smtp.last(email)
    assert.equal(mail.from, 'noreply@example.com')
    assert.match(mail.raw, /Subject: Gate e-mail verification/)
    const code = codeIn(mail)

    // the password is the same for every attempt; without a code the field is left out
    const register = (username: string, code?: string) =>
      s.anon.post('/api/user/register', {
        username,
        password: 'password123',
        email,
        ...(code === undefined ? {} : { verification_code: code }),
      })
    const noCode = await register('mailnew')
    assert.equal(noCode.body.success, false)
    const wrong = await register('mailnew', 'zzzzzz')
    assert.equal(wrong.body.success, false)
    const good = await register('mailnew', code)
    assert.equal(good.body.success, true, good.body.message)
    const row = await s.ctx.db.selectFrom('users').select('email').where('username', '=', 'mailnew').executeTakeFirstOrThrow()
    assert.equal(row.email, email)

    const again = await register('mailnew2', code)
    assert.equal(again.body.success, false)
  } finally {
    await s.ctx.options.set('EmailVerificationEnabled', 'false')
  }
}

/** A malformed address is refused on the code and reset requests, naming the field. */
async function refusesMalformed(fx: MailFixture) {
  const { s } = fx
  for (const bad of ['', 'not-an-address', 'a@', `${'x'.repeat(50)}@example.com`]) {
    const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(bad)}`)
    assertRefused(r, bad)
    assert.equal(r.body.data.field, 'email')
  }
  const r = await s.anon.get('/api/reset_password?email=nope')
  assertRefused(r)
  assert.equal(r.body.data.field, 'email')
}

/** With the domain restriction on, only whitelisted domains (any case) get a code. */
async function keepsToWhitelist(fx: MailFixture, dialect: Dialect) {
  const { s, addr } = fx
  const o = s.ctx.options
  await o.set('EmailDomainRestrictionEnabled', 'true')
  await o.set('EmailDomainWhitelist', 'gmail.com, Corp.example')
  try {
    const refused = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('outsider'))}`)
    assert.equal(refused.body.success, false)
    assert.match(refused.body.message, /only allows e-mail addresses of these domains: gmail\.com, corp\.example/)
    const sent = await s.anon.get(`/api/verification?email=staff.${dialect}@CORP.example`)
    assert.equal(sent.body.success, true, sent.body.message)
  } finally {
    await o.set('EmailDomainRestrictionEnabled', 'false')
  }
  assert.equal((await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('outsider'))}`)).body.success, true)
}

/** With the alias restriction on, "+" aliases and Gmail dots get no code. */
async function refusesAliases(fx: MailFixture, dialect: Dialect) {
  const { s } = fx
  const o = s.ctx.options
  const plus = encodeURIComponent(`me+tag.${dialect}@example.com`)
  const dotted = encodeURIComponent(`first.last.${dialect}@gmail.com`)
  const dottedElsewhere = encodeURIComponent(`first.last.${dialect}@example.com`)
  assert.equal((await s.anon.get(`/api/verification?email=${plus}`)).body.success, true)
  await o.set('EmailAliasRestrictionEnabled', 'true')
  try {
    const p = await s.anon.get(`/api/verification?email=${plus}`)
    assert.equal(p.body.success, false)
    assert.match(p.body.message, /aliases/)
    const d = await s.anon.get(`/api/verification?email=${dotted}`)
    assert.equal(d.body.success, false)
    assert.match(d.body.message, /dots/)
    assert.equal((await s.anon.get(`/api/verification?email=${dottedElsewhere}`)).body.success, true)
  } finally {
    await o.set('EmailAliasRestrictionEnabled', 'false')
  }
}

/** An address an account already uses (in any case) gets no code and no mail. */
async function refusesTaken(fx: MailFixture) {
  const { s, smtp, addr } = fx
  const u = await s.user()
  await s.ctx.db
    .updateTable('users')
    .set({ email: addr('taken') })
    .where('id', '=', u.id)
    .execute()
  const before = smtp.mails.length
  const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('TAKEN'))}`)
  assert.equal(r.body.success, false)
  assert.match(r.body.message, /already used/)
  assert.equal(smtp.mails.length, before)
}

/** No registration code is sent while registration is closed. */
async function closedRegistration(fx: MailFixture) {
  const { s, addr } = fx
  await s.ctx.options.set('RegisterEnabled', 'false')
  try {
    const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('closed'))}`)
    assert.equal(r.body.success, false)
    assert.match(r.body.message, /registrations are closed/)
  } finally {
    await s.ctx.options.set('RegisterEnabled', 'true')
  }
}

describeMail((fx, dialect) => {
  it('registers with a mailed code end to end, and the code is spent once used', () => registersWithMailedCode(fx))
  it('refuses, naming the field, a malformed address', () => refusesMalformed(fx))
  it('keeps to the domain whitelist when the domain restriction is on', () => keepsToWhitelist(fx, dialect))
  it('refuses "+" aliases, and dots for Gmail, when the alias restriction is on', () => refusesAliases(fx, dialect))
  it('refuses an address an account already uses, whatever its case', () => refusesTaken(fx))
  it('sends no registration code while registration is closed', () => closedRegistration(fx))
})
