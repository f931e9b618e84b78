import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { dialects, startServer, Client, type TestServer, assertRefused } from './helpers.ts'
import { smtpSettings } from '../../server/lib/mailer.ts'

interface Mail {
  from: string
  to: string[]
  raw: string
  /** the raw message with quoted-printable soft breaks and escapes undone */
  text: string
}

/** A real SMTP server on loopback (plain text, AUTH required) that keeps every mail it gets. */
async function startSmtp(user: string, pass: string) {
  const mails: Mail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) cb(null, { user: auth.username })
      else cb(new Error('Invalid username or password'))
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (d: Buffer) => chunks.push(d))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text,
        })
        cb()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    mails,
    last(to: string): Mail {
      const m = [...mails].reverse().find((x) => x.to.includes(to))
      assert.ok(m, `no mail to ${to}`)
      return m
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A loopback port with nothing listening (bound, then released). */
async function deadPort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const port = (srv.address() as AddressInfo).port
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}

function codeIn(mail: Mail): string {
  const m = /verification code is: ([0-9a-f]{6})/.exec(mail.text)
  assert.ok(m, 'no code in the mail')
  return m[1]
}

function resetLinkIn(mail: Mail): URL {
  const m = /(https?:\/\/[^\s<"]+\/user\/reset\?[^\s<"]+)/.exec(mail.text)
  assert.ok(m, 'no reset link in the mail')
  return new URL(m[1].replace(/&amp;/g, '&'))
}

for (const dialect of dialects) {
  describe(`mail: verification, reset and e-mail binding (${dialect})`, () => {
    let s: TestServer
    let smtp: Awaited<ReturnType<typeof startSmtp>>
    const addr = (name: string) => `${name}.${dialect}@example.com`

    before(async () => {
      s = await startServer(dialect)
      smtp = await startSmtp('mailer@example.com', 'smtp-pass')
      const o = s.ctx.options
      await o.set('SMTPServer', '127.0.0.1')
      await o.set('SMTPPort', String(smtp.port))
      await o.set('SMTPSSLEnabled', 'false')
      await o.set('SMTPAccount', 'mailer@example.com')
      await o.set('SMTPToken', 'smtp-pass')
      await o.set('SMTPFrom', 'noreply@example.com')
      await o.set('SystemName', 'Gate')
    })
    after(async () => {
      await smtp.close()
      await s.close()
    })

    it('registers with a mailed code end to end, and the code is spent once used', async () => {
      await s.ctx.options.set('EmailVerificationEnabled', 'true')
      try {
        const email = addr('newbie')
        const sent = await s.anon.get(`/api/verification?email=${encodeURIComponent(email)}`)
        assert.deepEqual([sent.status, sent.body.success], [200, true], sent.body.message)
        const mail = smtp.last(email)
        assert.equal(mail.from, 'noreply@example.com')
        assert.match(mail.raw, /Subject: Gate e-mail verification/)
        const code = codeIn(mail)

        const noCode = await s.anon.post('/api/user/register', { username: 'mailnew', password: 'password123', email })
        assert.equal(noCode.body.success, false)
        const wrong = await s.anon.post('/api/user/register', {
          username: 'mailnew',
          password: 'password123',
          email,
          verification_code: 'zzzzzz',
        })
        assert.equal(wrong.body.success, false)
        const good = await s.anon.post('/api/user/register', {
          username: 'mailnew',
          password: 'password123',
          email,
          verification_code: code,
        })
        assert.equal(good.body.success, true, good.body.message)
        const row = await s.ctx.db.selectFrom('users').select('email').where('username', '=', 'mailnew').executeTakeFirstOrThrow()
        assert.equal(row.email, email)

        const again = await s.anon.post('/api/user/register', {
          username: 'mailnew2',
          password: 'password123',
          email,
          verification_code: code,
        })
        assert.equal(again.body.success, false)
      } finally {
        await s.ctx.options.set('EmailVerificationEnabled', 'false')
      }
    })

    it('refuses, naming the field, a malformed address', async () => {
      for (const bad of ['', 'not-an-address', 'a@', `${'x'.repeat(50)}@example.com`]) {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(bad)}`)
        assertRefused(r, bad)
        assert.equal(r.body.data.field, 'email')
      }
      const r = await s.anon.get('/api/reset_password?email=nope')
      assertRefused(r)
      assert.equal(r.body.data.field, 'email')
    })

    it('keeps to the domain whitelist when the domain restriction is on', async () => {
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
    })

    it('refuses "+" aliases, and dots for Gmail, when the alias restriction is on', async () => {
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
    })

    it('refuses an address an account already uses, whatever its case', async () => {
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
    })

    it('sends no registration code while registration is closed', async () => {
      await s.ctx.options.set('RegisterEnabled', 'false')
      try {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('closed'))}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /registrations are closed/)
      } finally {
        await s.ctx.options.set('RegisterEnabled', 'true')
      }
    })

    it('answers success false with the reason when the mail cannot be sent', async () => {
      const o = s.ctx.options
      await o.set('SMTPToken', 'wrong-pass')
      try {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
        assert.equal(r.status, 200)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /could not be sent: .*(Invalid|auth)/i)
      } finally {
        await o.set('SMTPToken', 'smtp-pass')
      }
      // SMTPSSLEnabled means TLS from the first byte: a plain-text server cannot be talked to
      await o.set('SMTPSSLEnabled', 'true')
      try {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /could not be sent/)
      } finally {
        await o.set('SMTPSSLEnabled', 'false')
      }
      const port = o.get('SMTPPort')
      await o.set('SMTPPort', String(await deadPort()))
      try {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /could not be sent: .*ECONNREFUSED/)
      } finally {
        await o.set('SMTPPort', port)
      }
      const server = o.get('SMTPServer')
      await o.set('SMTPServer', '')
      try {
        const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
        assert.equal(r.body.success, false)
        assert.match(r.body.message, /not configured an SMTP server/)
      } finally {
        await o.set('SMTPServer', server)
      }
    })

    it('forces SSL for port 465 and falls back to the account as sender', async () => {
      const o = s.ctx.options
      const port = o.get('SMTPPort')
      const from = o.get('SMTPFrom')
      try {
        await o.set('SMTPPort', '465')
        assert.equal(smtpSettings(o).secure, true)
        await o.set('SMTPPort', '587')
        assert.equal(smtpSettings(o).secure, false)
        await o.set('SMTPFrom', '')
        assert.equal(smtpSettings(o).from, 'mailer@example.com')
      } finally {
        await o.set('SMTPPort', port)
        await o.set('SMTPFrom', from)
      }
    })

    it('resets a password through the mailed link, once', async () => {
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

    it('binds an e-mail address for a signed-in user with a mailed code', async () => {
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
      const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('anonbind'))}&purpose=bind`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /sign in/)
      assertRefused(await s.anon.get(`/api/verification?email=x.${dialect}@example.com&purpose=other`))
    })
  })
}

describe('mail calls are rate limited as critical', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite', { criticalRateLimit: 2, criticalRateWindowSeconds: 600 })
  })
  after(() => s.close())

  it('answers 429 after the critical limit', async () => {
    await s.anon.get('/api/verification?email=bad')
    await s.anon.get('/api/reset_password?email=bad')
    assert.equal((await s.anon.post('/api/user/reset', { email: 'a@example.com', token: 'x' })).status, 429)
    assert.equal((await s.anon.get('/api/verification?email=bad')).status, 429)
  })
})
