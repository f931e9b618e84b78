/**
 * The fixture of the mail tests (mail-*.test.ts): a real SMTP server on loopback that keeps every
 * mail, a server set up to send through it, a dead port, and the code and reset link read out of a
 * mail.
 */
import assert from 'node:assert/strict'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { describe } from 'node:test'
import { dialects, startServer, suiteFixture, type Dialect, type TestServer } from './helpers.ts'
import { readMail } from '../smtp-mail.ts'

export interface Mail {
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
      void readMail(stream).then(({ raw, text }) => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text,
        })
        cb()
      }, cb)
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

export type Smtp = Awaited<ReturnType<typeof startSmtp>>

export interface MailFixture {
  s: TestServer
  smtp: Smtp
  /** an address of this dialect's run: `${name}.${dialect}@example.com` */
  addr(name: string): string
  close(): Promise<void>
}

/** A server sending as noreply@example.com (system name Gate) through a fresh SMTP server. */
export async function mailFixture(dialect: Dialect): Promise<MailFixture> {
  const s = await startServer(dialect)
  const smtp = await startSmtp('mailer@example.com', 'smtp-pass')
  const o = s.ctx.options
  await o.set('SMTPServer', '127.0.0.1')
  await o.set('SMTPPort', String(smtp.port))
  await o.set('SMTPSSLEnabled', 'false')
  await o.set('SMTPAccount', 'mailer@example.com')
  await o.set('SMTPToken', 'smtp-pass')
  await o.set('SMTPFrom', 'noreply@example.com')
  await o.set('SystemName', 'Gate')
  return {
    s,
    smtp,
    addr: (name: string) => `${name}.${dialect}@example.com`,
    async close() {
      await smtp.close()
      await s.close()
    },
  }
}

/**
 * The suite of a mail test file, once per dialect: `tests` declares its tests against a fixture the
 * suite starts before them and closes after them (read its fields inside the tests).
 */
export function describeMail(tests: (fx: MailFixture, dialect: Dialect) => void): void {
  for (const dialect of dialects) {
    describe(`mail: verification, reset and e-mail binding (${dialect})`, () => {
      tests(
        suiteFixture(() => mailFixture(dialect)),
        dialect,
      )
    })
  }
}

/** A loopback port with nothing listening (bound, then released). */
export async function deadPort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const port = (srv.address() as AddressInfo).port
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}

export function codeIn(mail: Mail): string {
  const m = /verification code is: ([0-9a-f]{6})/.exec(mail.text)
  assert.ok(m, 'no code in the mail')
  return m[1]
}

export function resetLinkIn(mail: Mail): URL {
  const m = /(https?:\/\/[^\s<"]+\/user\/reset\?[^\s<"]+)/.exec(mail.text)
  assert.ok(m, 'no reset link in the mail')
  return new URL(m[1].replace(/&amp;/g, '&'))
}
