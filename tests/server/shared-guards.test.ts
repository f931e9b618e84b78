/**
 * Issue 10, several instances: the sign-in guards live in the database (server/db/guards.ts), so
 * two server processes on one database share them (each process kept its own in memory before:
 * a code mailed by one was unknown to the other, an answer used on one was taken by the other). A reset link or code mailed by one is spent once on
 * any; a Telegram answer used on one is refused on the other; failures counted on one slow the
 * account on the other. Plus the guards' arithmetic: backoff, address cap, code expiry and misses.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash, createHmac } from 'node:crypto'
import { openDatabase } from '../../server/db/index.ts'
import { hashPassword } from '../../server/lib/users.ts'
import {
  ACCOUNT_FREE_FAILURES,
  ACCOUNT_MAX_WAIT_SECONDS,
  ADDRESS_MAX_FAILURES,
  ADDRESS_WINDOW_SECONDS,
  LoginGuard,
} from '../../server/lib/login-guard.ts'
import {
  consumeVerificationCode,
  issueVerificationCode,
  issueVerificationToken,
  MAX_VERIFICATION_ATTEMPTS,
} from '../../server/lib/verification.ts'
import { dialects, freshPostgres, startServer, type TestServer } from './helpers.ts'
import { spawnServers, type ServerProcess } from './processes.ts'

const BOT_TOKEN = '424242:shared-guards-bot'

function telegramQuery(fields: Record<string, string>): string {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  const hash = createHmac('sha256', createHash('sha256').update(BOT_TOKEN).digest()).update(check).digest('hex')
  return new URLSearchParams({ ...fields, hash, lang: 'en' }).toString()
}

for (const dialect of dialects) {
  describe(`guards shared by two server processes on one database (${dialect})`, () => {
    let dataDir: string
    let databaseUrl: string | undefined
    let drop: (() => Promise<void>) | undefined
    let database: Awaited<ReturnType<typeof openDatabase>>
    let a: ServerProcess
    let b: ServerProcess
    // below Linux's ephemeral range (32768-60999), where an outgoing connection may hold a port
    const port = dialect === 'sqlite' ? 4_350 : 4_352

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'tollgate-guards-'))
      if (dialect === 'postgres') ({ url: databaseUrl, drop } = await freshPostgres())
      // this process is a third party on the database: it plays the mailer and sets the options
      database = await openDatabase({ databaseUrl, dataDir })
      for (const [key, value] of [
        ['TelegramBotToken', BOT_TOKEN],
        ['TelegramOAuthEnabled', 'true'],
      ])
        await database.db
          .insertInto('options')
          .values({ key, value })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
          .execute()
      const env = { DATA_DIR: dataDir, CRITICAL_RATE_LIMIT: '10000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }
      ;[a, b] = await spawnServers([port, port + 1], () => env)
    })
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await database?.close()
      await drop?.()
      rmSync(dataDir, { recursive: true, force: true })
    })

    const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-tollgate-client': '1' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: r.status, body: (await r.json()) as { success: boolean; message: string } }
    }

    let n = 0
    async function person(email = ''): Promise<{ id: number; username: string }> {
      const username = `g${dialect[0]}${++n}${process.pid % 1000}`.slice(0, 12)
      const row = await database.db
        .insertInto('users')
        .values({
          username,
          password: await hashPassword('password123'),
          display_name: username,
          role: 1,
          status: 1,
          email,
          group: 'default',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { id: Number(row.id), username }
    }

    it('a reset link issued by one instance is spent once, on any instance', async () => {
      const email = `reset-${dialect}@example.com`
      await person(email)
      const token = await issueVerificationToken(database.db, 'reset', email)
      const done = await call(b, 'POST', '/api/user/reset', { email, token })
      assert.equal(done.body.success, true, done.body.message)
      assert.equal((await call(a, 'POST', '/api/user/reset', { email, token })).body.success, false, 'the same link on the other instance')
      assert.equal((await call(b, 'POST', '/api/user/reset', { email, token })).body.success, false, 'the same link again')
    })

    it('a Telegram answer used on one instance is refused on the other', async () => {
      const q = telegramQuery({ id: `77${n}`, first_name: 'Tele', username: `tg77${n}`, auth_date: String(Math.floor(Date.now() / 1000)) })
      const first = await call(a, 'GET', `/api/oauth/telegram/login?${q}`)
      assert.equal(first.body.success, true, first.body.message)
      const replay = await call(b, 'GET', `/api/oauth/telegram/login?${q}`)
      assert.equal(replay.body.success, false, 'the replay on the second instance')
      assert.match(replay.body.message, /already used/)
    })

    it('sign-in failures counted on one instance make the account wait on the other', async () => {
      const victim = await person()
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
        const r = await call(i % 2 ? b : a, 'POST', '/api/user/login', { username: victim.username, password: `guess-${i}` })
        assert.equal(r.status, 200)
      }
      const locked = await call(b, 'POST', '/api/user/login', { username: victim.username, password: 'password123' })
      assert.equal(locked.status, 429, 'the right password waits out the backoff on the other instance too')
    })
  })
}

for (const dialect of dialects) {
  describe(`the guards' arithmetic, two handles on one database (${dialect})`, () => {
    let s: TestServer
    let other: Awaited<ReturnType<typeof openDatabase>>
    before(async () => {
      s = await startServer(dialect)
      other = await openDatabase({ databaseUrl: s.ctx.config.databaseUrl || undefined, dataDir: s.ctx.config.dataDir })
    })
    after(async () => {
      await other.close()
      await s.close()
    })
    let a: { ctx: { db: TestServer['ctx']['db'] } }
    let b: { ctx: { db: TestServer['ctx']['db'] } }
    before(() => {
      a = { ctx: { db: s.ctx.db } }
      b = { ctx: { db: other.db } }
    })

    it('backs off per account, doubling up to its cap; a success clears it', async () => {
      const g = new LoginGuard(a.ctx.db)
      let now = 1_000_000_000
      const name = `Alice-${dialect}`
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
        assert.equal(await g.waitFor(name, `10.0.0.${i}`, now), 0)
        await g.failed(name, `10.0.0.${i}`, now)
      }
      assert.equal(await g.waitFor(name.toLowerCase(), '10.9.9.9', now), 1, 'any address, any case: the account waits')
      await g.failed(name, '10.9.9.9', now)
      assert.equal(await new LoginGuard(b.ctx.db).waitFor(name, '10.9.9.9', now), 2, 'the other instance sees the same')
      for (let i = 0; i < 20; i++) await g.failed(name, '10.9.9.9', now)
      assert.equal(await g.waitFor(name, '10.9.9.9', now), ACCOUNT_MAX_WAIT_SECONDS)
      now += ACCOUNT_MAX_WAIT_SECONDS * 1000
      assert.equal(await g.waitFor(name, '10.9.9.9', now), 0, 'after the wait, one more try')
      await g.succeeded(name)
      assert.equal(await g.waitFor(name, '10.9.9.9', now), 0)
      assert.equal(await g.waitFor(`bob-${dialect}`, '10.0.0.1', now), 0, 'other accounts are not slowed')
    })

    it('caps the failures of one address per window, then forgets them', async () => {
      const g = new LoginGuard(a.ctx.db)
      const now = 2_000_000_000
      const address = `192.0.2.${dialect === 'sqlite' ? 1 : 2}`
      for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) await g.failed(`user${i}`, address, now)
      assert.ok((await g.waitFor('fresh', address, now)) > 0)
      assert.equal(await g.waitFor('fresh', '198.51.100.7', now), 0, 'another address is not capped')
      assert.equal(await g.waitFor('fresh', address, now + ADDRESS_WINDOW_SECONDS * 1000), 0)
    })

    it('codes expire after ten minutes, and a new one replaces the old', async () => {
      const t = Date.now()
      const code = await issueVerificationCode(a.ctx.db, 'test', `late-${dialect}@example.com`, t)
      assert.equal(await consumeVerificationCode(b.ctx.db, 'test', `late-${dialect}@example.com`, code, t + 10 * 60 * 1000 + 1), false)
      const old = await issueVerificationCode(a.ctx.db, 'test', `late-${dialect}@example.com`, t)
      const fresh = await issueVerificationCode(a.ctx.db, 'test', `late-${dialect}@example.com`, t)
      assert.equal(await consumeVerificationCode(b.ctx.db, 'test', `LATE-${dialect}@example.com`, old, t + 60_000), old === fresh)
      if (old !== fresh)
        assert.equal(await consumeVerificationCode(b.ctx.db, 'test', `late-${dialect}@example.com`, fresh, t + 9 * 60 * 1000), true)
    })

    it(`codes are thrown away after ${MAX_VERIFICATION_ATTEMPTS} wrong guesses, wherever they are made`, async () => {
      const email = `guess-${dialect}@example.com`
      const code = await issueVerificationCode(a.ctx.db, 'test', email)
      const wrong = code === '000000' ? '111111' : '000000'
      for (let i = 0; i < MAX_VERIFICATION_ATTEMPTS; i++) {
        assert.equal(await consumeVerificationCode(i % 2 ? a.ctx.db : b.ctx.db, 'test', email, wrong), false)
      }
      assert.equal(await consumeVerificationCode(a.ctx.db, 'test', email, code), false)
    })

    it('of many concurrent checks of one code on both instances, exactly one spends it', async () => {
      const email = `race-${dialect}@example.com`
      const code = await issueVerificationCode(a.ctx.db, 'test', email)
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => consumeVerificationCode(i % 2 ? a.ctx.db : b.ctx.db, 'test', email, code)),
      )
      assert.equal(results.filter(Boolean).length, 1)
    })
  })
}
