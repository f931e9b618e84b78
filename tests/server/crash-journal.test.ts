/**
 * No answered request goes unbilled after a crash (issue 10): a real server process under load is
 * SIGKILLed several times and restarted; its journal is replayed on start, and in the end every
 * request a client saw answered is in the ledger exactly once.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dialects, freshPostgres } from './helpers.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream.ts'
import { ledgerProblems, load, seed, sleep, spawnServer, type ServerProcess } from './processes.ts'
import { relayFixture, ledgerOf } from './relay-helpers.ts'
import { Journal } from '../../server/relay/journal.ts'

const PORT = 4330
/** CRASH_KILLS=20 for a long run (docs/reliability.md) */
const KILLS = Number(process.env.CRASH_KILLS ?? 3)
const QUOTA = 1_000_000_000
const CLIENTS = 12

for (const dialect of dialects) {
  describe(`ledger journal across SIGKILL (${dialect})`, () => {
    let fake: FakeUpstream
    let dataDir: string
    let databaseUrl: string | undefined
    let drop: (() => Promise<void>) | undefined

    before(async () => {
      fake = await startFakeUpstream({ record: false })
      dataDir = mkdtempSync(join(tmpdir(), 'tollgate-crash-'))
      if (dialect === 'postgres') ({ url: databaseUrl, drop } = await freshPostgres())
    })
    after(async () => {
      await fake.close()
      await drop?.()
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('bills every answered request exactly once after kills and restarts', async (t) => {
      const s = await seed(dataDir, databaseUrl, { name: 'load', quota: QUOTA, remain: QUOTA, upstream: fake.url })
      const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }
      let server: ServerProcess = await spawnServer(PORT, env)
      let stopped = false
      const clients = load(
        () => [server.base],
        s.key,
        CLIENTS,
        () => stopped,
      )
      let replayed = 0
      for (let i = 0; i < KILLS; i++) {
        await sleep(700 + i * 150)
        await server.kill()
        server = await spawnServer(PORT, env)
        replayed += Number(/replayed (\d+) journalled/.exec(server.output())?.[1] ?? 0)
      }
      await sleep(400)
      stopped = true
      const seen = await clients
      await server.stop()

      assert.ok(seen.answered > 100, `load answered ${seen.answered}`)
      assert.ok(replayed > 0, 'some answered requests were only in the journal when the process died')
      const ledger = await ledgerProblems(dataDir, databaseUrl, s, QUOTA, { answered: seen.answered, cut: KILLS * CLIENTS })
      assert.deepEqual(ledger.problems, [], JSON.stringify(seen))
      t.diagnostic(
        `${seen.answered} answered, ${seen.failed} failed while down, ${KILLS} kills and restarts, ${replayed} billed from the journal, ` +
          `${ledger.billed - seen.answered} billed whose answer the kill cut off`,
      )
    })
  })
}

for (const dialect of dialects) {
  describe(`ledger journal replay (${dialect})`, () => {
    it('applies only the entries past the mark the ledger committed with them, and deletes the files', async () => {
      const f = await relayFixture(dialect)
      try {
        const userId = await f.user({ quota: 10_000 })
        const token = await f.token(userId, { remain: 10_000 })
        const dir = join(f.s.ctx.config.dataDir, 'journal')
        const old = new Journal(dir, `ledger-${f.s.ctx.config.port}`)
        for (let i = 0; i < 3; i++) {
          const log = {
            user_id: userId,
            created_at: 1,
            username: 'x',
            token_id: token.id,
            model_name: 'gpt-3.5-turbo',
            quota: 100,
            prompt_tokens: 1,
            completion_tokens: 1,
            type: 2,
          }
          old.append({ userId, tokenId: token.id, quota: 100, channelId: 0, now: 1, log, keepLog: true, bucket: false })
        }
        old.close()
        // the first two were committed (the crash came before their file was deleted)
        await f.s.ctx.db.insertInto('ledger_journal').values({ gen: old.gen, seq: 2 }).execute()
        assert.equal(await f.engine.ledger.recover(), 1)
        const l = await ledgerOf(f, userId, token.id)
        assert.deepEqual([l.user.quota, l.user.used, l.token.remain, l.logCount], [9_900, 100, 9_900, 1])
        assert.equal(new Journal(dir, `ledger-${f.s.ctx.config.port}`).leftovers().length, 0)
        assert.equal(await f.engine.ledger.recover(), 0)
        const marks = await f.s.ctx.db.selectFrom('ledger_journal').selectAll().where('gen', '=', old.gen).execute()
        assert.equal(marks.length, 0)
      } finally {
        await f.close()
      }
    })

    it('adds the dashboard buckets the dead process held, once, without charging again', async () => {
      const f = await relayFixture(dialect)
      try {
        const userId = await f.user({ quota: 10_000 })
        const token = await f.token(userId, { remain: 10_000 })
        const dir = join(f.s.ctx.config.dataDir, 'journal')
        const old = new Journal(dir, `ledger-${f.s.ctx.config.port}`)
        const hour = 7200
        for (let i = 0; i < 4; i++) {
          const log = {
            user_id: userId,
            created_at: hour + i,
            username: 'x',
            token_id: token.id,
            model_name: 'held-model',
            quota: 100,
            prompt_tokens: 2,
            completion_tokens: 3,
            type: 2,
          }
          old.append({ userId, tokenId: token.id, quota: 100, channelId: 0, now: 1, log, keepLog: true, bucket: true })
        }
        old.close()
        // all four were charged; the buckets of the first one were written, three were still held
        await f.s.ctx.db.insertInto('ledger_journal').values({ gen: old.gen, seq: 4 }).execute()
        await f.s.ctx.db
          .insertInto('ledger_journal')
          .values({ gen: `buckets:${old.gen}`, seq: 1 })
          .execute()
        assert.equal(await f.engine.ledger.recover(), 0, 'no charge is replayed')
        const l = await ledgerOf(f, userId, token.id)
        assert.deepEqual([l.user.quota, l.user.used, l.logCount], [10_000, 0, 0])
        const rows = await f.s.ctx.db.selectFrom('quota_data').selectAll().where('user_id', '=', userId).execute()
        assert.deepEqual(
          rows.map((r) => [r.model_name, Number(r.created_at), Number(r.count), Number(r.quota), Number(r.token_used)]),
          [['held-model', hour, 3, 300, 15]],
        )
        assert.equal(new Journal(dir, `ledger-${f.s.ctx.config.port}`).leftovers().length, 0)
        const marks = await f.s.ctx.db.selectFrom('ledger_journal').selectAll().where('gen', 'like', `%${old.gen}`).execute()
        assert.equal(marks.length, 0)
      } finally {
        await f.close()
      }
    })
  })
}
