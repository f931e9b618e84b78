import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { sql } from 'kysely'
import { dialects, startServer, Client, type TestServer, assertRefused } from './helpers.ts'
import { chooseWalk, deleteLogsBefore, listLogs, listLogsQuery, logTypes, type LogFilter, type Walk } from '../../server/db/logs.ts'

const T0 = 1_700_000_000

for (const dialect of dialects) {
  describe(`logs (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let alice: Client & { id: number; username: string }
    let bob: Client & { id: number; username: string }

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      alice = await s.user({ username: 'alice' })
      bob = await s.user({ username: 'bob' })
      const other = JSON.stringify({ model_ratio: 15, group_ratio: 1, admin_info: { use_channel: [3, 4] } })
      const rows = []
      // 30 rows: ids ascend with time except the last row, written late with an early created_at.
      for (let i = 0; i < 30; i++) {
        const mine = i % 3 !== 0
        rows.push({
          user_id: mine ? alice.id : bob.id,
          username: mine ? 'alice' : 'bob',
          created_at: i === 29 ? T0 : T0 + i * 100,
          type: i % 5 === 0 ? 1 : 2,
          content: `row ${i}`,
          token_name: i % 2 ? 'key-a' : 'key-b',
          model_name: ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku'][i % 3]!,
          quota: 10 + i,
          prompt_tokens: i,
          completion_tokens: 2 * i,
          channel: (i % 4) + 1,
          other,
        })
      }
      await s.ctx.db.insertInto('logs').values(rows).execute()
    })
    after(() => s.close())

    const contents = (r: { body: { data: any[] } }) => r.body.data.map((l) => l.content)
    const rowNo = (content: string) => Number(content.split(' ')[1])

    if (dialect === 'postgres')
      it('reads on connections without JIT or parallel workers, which cost a page more than they save', async () => {
        // a parallel walk of the primary key for a page 10,000 rows deep took 55-75 ms, its
        // workers' start and the merge included, against 3-12 ms in one process
        const r = await sql<{ jit: string; workers: string }>`select current_setting('jit') as jit,
          current_setting('max_parallel_workers_per_gather') as workers`.execute(s.ctx.db)
        assert.deepEqual(r.rows[0], { jit: 'off', workers: '0' })
      })

    it('lists all logs for an admin, highest id first, ten a page by default', async () => {
      const r = await root.get('/api/log/?p=0')
      assert.equal(r.body.success, true)
      assert.ok(Array.isArray(r.body.data), 'a plain list')
      assert.deepEqual(contents(r), ['row 29', 'row 28', 'row 27', 'row 26', 'row 25', 'row 24', 'row 23', 'row 22', 'row 21', 'row 20'])
      assert.deepEqual(
        contents(await root.get('/api/log/?p=2&page_size=10')),
        Array.from({ length: 10 }, (_, i) => `row ${9 - i}`),
      )
      assert.equal((await root.get('/api/log/?p=0&page_size=7')).body.data.length, 7)
      assert.equal((await root.get('/api/log/?p=0&page_size=500')).body.data.length, 30, 'page_size is capped, not refused')
      assert.equal((await root.get('/api/log/?p=0&page_size=0')).body.data.length, 10, 'a page size that is not positive is the default')
      assert.equal((await root.get('/api/log?p=0')).body.data.length, 10)
      assert.ok(r.body.data[0].other.includes('admin_info'), 'admins see admin_info')
    })

    it('filters by type, token, model (exact or prefix), time, username and channel', async () => {
      const all = async (q: string) => (await root.get(`/api/log/?page_size=100&${q}`)).body.data as any[]
      assert.ok((await all('type=1')).every((l) => l.type === 1))
      assert.equal((await all('type=1')).length, 6)
      assert.equal((await all('type=0')).length, 30)
      assert.ok((await all('token_name=key-a')).every((l) => l.token_name === 'key-a'))
      assert.equal((await all('token_name=key')).length, 0, 'token name is exact')
      assert.equal((await all('model_name=gpt-4o')).length, 20, 'a model name also matches as a prefix')
      assert.equal((await all('model_name=gpt-4o-mini')).length, 10)
      assert.equal((await all('model_name=claude')).length, 10)
      assert.equal((await all('model_name=laude')).length, 0)
      assert.equal((await all('model_name=gpt%25')).length, 0, 'wildcards are literal')
      const timed = await all(`start_timestamp=${T0 + 100}&end_timestamp=${T0 + 300}`)
      assert.deepEqual(
        timed.map((l) => rowNo(l.content)),
        [3, 2, 1],
        'both bounds inclusive',
      )
      assert.equal((await all(`end_timestamp=${T0}`)).length, 2)
      assert.ok((await all('username=bob')).every((l) => l.username === 'bob'))
      assert.equal((await all('username=bob')).length, 10)
      assert.equal((await all('username=bo')).length, 0)
      assert.ok((await all('channel=2')).every((l) => l.channel === 2))
      assert.equal((await all('channel=2&type=2&token_name=key-a')).length, 6)
    })

    it('shows a user only their own logs, without admin_info, and ignores username and channel', async () => {
      const mine = (await alice.get('/api/log/self/?page_size=100')).body.data as any[]
      assert.equal(mine.length, 20)
      for (const l of mine) {
        assert.equal(l.user_id, alice.id)
        assert.ok(!l.other.includes('admin_info'))
        assert.equal(JSON.parse(l.other).model_ratio, 15)
      }
      assert.deepEqual(
        mine.map((l) => l.id),
        [...mine.map((l) => l.id)].sort((a, b) => b - a),
      )
      assert.equal(((await alice.get('/api/log/self/?username=bob&page_size=100')).body.data as any[]).length, 20)
      assert.ok(((await alice.get('/api/log/self?username=bob&page_size=100')).body.data as any[]).every((l) => l.user_id === alice.id))
      assert.equal(((await bob.get('/api/log/self/?page_size=100')).body.data as any[]).length, 10)
      const minis = (await alice.get('/api/log/self/?model_name=gpt-4o&page_size=100')).body.data as any[]
      assert.equal(minis.length, 10, "the plain gpt-4o rows are bob's")
      assert.ok(minis.every((l) => l.model_name === 'gpt-4o-mini'))
    })

    it('keeps the admin list and stat from ordinary users', async () => {
      assert.equal((await alice.get('/api/log/')).status, 403)
      assert.equal((await alice.get('/api/log/stat')).status, 403)
      assert.equal((await alice.del('/api/log/?target_timestamp=2000000000')).status, 403)
      assert.equal((await s.anon.get('/api/log/self/')).status, 401)
    })

    it('sums quota and tokens of the matching consumption rows', async () => {
      const expect = (pred: (i: number) => boolean) => {
        let quota = 0
        let token = 0
        for (let i = 0; i < 30; i++) {
          if (i % 5 !== 0 && pred(i)) {
            quota += 10 + i
            token += 3 * i
          }
        }
        return { quota, token }
      }
      assert.deepEqual(
        (await root.get('/api/log/stat')).body.data,
        expect(() => true),
      )
      assert.deepEqual(
        (await root.get('/api/log/stat?username=bob')).body.data,
        expect((i) => i % 3 === 0),
      )
      assert.deepEqual(
        (await root.get('/api/log/stat?token_name=key-a&channel=2')).body.data,
        expect((i) => i % 2 === 1 && i % 4 === 1),
      )
      assert.deepEqual(
        (await root.get(`/api/log/stat?start_timestamp=${T0 + 100}&end_timestamp=${T0 + 900}`)).body.data,
        expect((i) => i >= 1 && i <= 9 && i !== 29),
      )
      assert.deepEqual((await root.get('/api/log/stat?type=1')).body.data, { quota: 0, token: 0 })
      assert.deepEqual(
        (await alice.get('/api/log/self/stat')).body.data,
        expect((i) => i % 3 !== 0),
      )
      assert.deepEqual(
        (await alice.get('/api/log/self/stat?username=bob')).body.data,
        expect((i) => i % 3 !== 0),
      )
      assert.deepEqual((await bob.get('/api/log/self/stat?model_name=claude')).body.data, { quota: 0, token: 0 })
    })

    it('refuses malformed filters naming the field', async () => {
      for (const [q, field] of [
        ['p=-1', 'p'],
        ['p=abc', 'p'],
        ['type=x', 'type'],
        ['start_timestamp=-5', 'start_timestamp'],
        ['end_timestamp=1e3', 'end_timestamp'],
        ['channel=1.5', 'channel'],
        [`model_name=${'m'.repeat(300)}`, 'model_name'],
      ]) {
        const r = await root.get(`/api/log/?${q}`)
        assertRefused(r, q)
        assert.match(r.body.message, new RegExp(field!))
      }
      assertRefused(await alice.get('/api/log/self/stat?start_timestamp=x'))
      const zh = await root.call('GET', '/api/log/?type=x', undefined, { 'accept-language': 'zh-CN' })
      assert.equal(zh.body.data.field, 'type')
      assert.match(zh.body.message, /^type /)
      assert.doesNotMatch(zh.body.message, /must/)
    })

    it('deletes logs older than the target (root only: an admin gets 403 and nothing goes) and answers the count', async () => {
      const admin = await s.user({ role: 10 })
      const count = async () => (await s.ctx.db.selectFrom('logs').select('id').execute()).length
      const all = await count()
      assert.equal((await admin.del(`/api/log/?target_timestamp=${T0 + 1_000_000}`)).status, 403, 'issue 10 item 5')
      assert.equal(await count(), all)
      for (const q of [
        '',
        '?target_timestamp=',
        '?target_timestamp=0',
        '?target_timestamp=-3',
        '?target_timestamp=abc',
        '?target_timestamp=1.5',
      ]) {
        const r = await root.del(`/api/log/${q}`)
        assertRefused(r, q)
        assert.match(r.body.message, /target_timestamp/)
      }
      assert.equal((await s.ctx.db.selectFrom('logs').select('id').execute()).length >= 30, true)
      const r = await root.del(`/api/log/?target_timestamp=${T0 + 200}`)
      assert.equal(r.body.success, true)
      assert.equal(r.body.data, 3, 'rows 0, 1 and 29 are older')
      const left = await s.ctx.db
        .selectFrom('logs')
        .select('created_at')
        .where('created_at', '<', T0 + 200)
        .execute()
      assert.equal(left.length, 0)
      assert.equal((await root.del(`/api/log?target_timestamp=${T0 + 200}`)).body.data, 0)
      assert.equal((await root.del(`/api/log?target_timestamp=${T0 + 200}`)).body.message, 'logs cleaned')
      const zh = { 'accept-language': 'zh-CN' }
      assert.equal((await root.call('DELETE', `/api/log/?target_timestamp=${T0}`, undefined, zh)).body.message, '日志已清理')
      const missing = await root.call('DELETE', '/api/log/', undefined, zh)
      assert.deepEqual([missing.body.message, missing.body.data.field], ['target_timestamp 不能为空：请选择日志时间', 'target_timestamp'])
      const bad = await root.call('DELETE', '/api/log/?target_timestamp=-3', undefined, zh)
      assert.equal(bad.body.message, 'target_timestamp 必须是正整数（Unix 时间，单位为秒）')
    })
  })
}

for (const dialect of dialects) {
  describe(`log clean in batches (${dialect}, issue 15)`, () => {
    it('deletes old rows a batch at a time: a reader meanwhile sees the clean advance, new rows stay', async () => {
      const s = await startServer(dialect)
      try {
        const old = Array.from({ length: 12_000 }, (_, i) => ({ user_id: 1, username: 'root', created_at: T0 + i, type: 2, quota: 1 }))
        for (let i = 0; i < old.length; i += 1_000)
          await s.ctx.db
            .insertInto('logs')
            .values(old.slice(i, i + 1_000))
            .execute()
        await s.ctx.db
          .insertInto('logs')
          .values({ user_id: 1, username: 'root', created_at: T0 + 50_000, type: 2, quota: 1 })
          .execute()
        const count = async () =>
          Number(
            (
              await s.ctx.db
                .selectFrom('logs')
                .select((e) => e.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          )
        let done = false
        const clean = deleteLogsBefore(s.ctx.db, T0 + 20_000, 1_000).finally(() => (done = true))
        const seen: number[] = []
        while (!done) seen.push(await count())
        assert.equal(await clean, 12_000)
        assert.equal(await count(), 1, 'the newer row stays')
        const between = seen.filter((n) => n > 1 && n < 12_001)
        assert.ok(between.length > 0, `a reader saw the table only before or after the clean: ${seen.join(', ')}`)
      } finally {
        await s.close()
      }
    })
  })

  describe(`log list walks (${dialect})`, () => {
    let s: TestServer
    const rows: Array<{
      id: number
      created_at: number
      type: number
      user_id: number
      username: string
      model_name: string
      channel: number
    }> = []
    before(async () => {
      s = await startServer(dialect)
      // 400 rows whose created_at only roughly follows the id, as batched relay writes do.
      const values = Array.from({ length: 400 }, (_, i) => ({
        user_id: i % 9 === 0 ? 2 : 1,
        username: i % 9 === 0 ? 'ann' : 'root',
        created_at: T0 + i * 10 + ((i * 7919) % 13) * 40 - 240,
        // a type this server never writes (the family's error logs): the walks must still find it
        type: i % 7 === 0 ? 1 : i % 31 === 0 ? 5 : 2,
        content: `w${i}`,
        model_name: ['gpt-4o', 'gpt-4o-mini', 'o1', 'claude'][i % 4]!,
        channel: i % 5,
      }))
      await s.ctx.db.insertInto('logs').values(values).execute()
      rows.push(
        ...(await s.ctx.db
          .selectFrom('logs')
          .select(['id', 'created_at', 'type', 'user_id', 'username', 'model_name', 'channel'])
          .execute()),
      )
    })
    after(() => s.close())

    it('gives the same page whichever way a time window is walked', async () => {
      const { db, database } = s.ctx
      const time = fc.option(fc.integer({ min: T0 - 500, max: T0 + 4500 }), { nil: undefined })
      await fc.assert(
        fc.asyncProperty(
          time,
          time,
          fc.constantFrom(undefined, 1, 2),
          fc.integer({ min: 0, max: 5 }),
          fc.integer({ min: 1, max: 40 }),
          fc.constantFrom(undefined, 'ann', 'root'),
          fc.constantFrom(undefined, 'gpt-4o', 'o1', 'c'),
          fc.constantFrom(undefined, 0, 3),
          fc.constantFrom(undefined, 1, 2),
          async (start, end, type, page, size, username, modelName, channel, userId) => {
            const f: LogFilter = { start, end, type, username, modelName, channel, userId }
            const want = rows
              .filter(
                (r) =>
                  (start === undefined || r.created_at >= start) &&
                  (end === undefined || r.created_at <= end) &&
                  (type === undefined || r.type === type) &&
                  (username === undefined || r.username === username) &&
                  (modelName === undefined || r.model_name.startsWith(modelName)) &&
                  (channel === undefined || r.channel === channel) &&
                  (userId === undefined || r.user_id === userId),
              )
              .map((r) => r.id)
              .sort((a, b) => b - a)
              .slice(page * size, page * size + size)
            const types = await logTypes(db)
            for (const walk of ['planner', 'newest', 'window', 'key', 'ids', 'user', 'userTime', 'hours'] as Walk[]) {
              const got = (await listLogsQuery(db, database.dialect, f, page, size, walk, types).execute()).map((r) => r.id)
              assert.deepEqual(got, want, `${walk} ${JSON.stringify({ start, end, type, page, size })}`)
            }
          },
        ),
        { numRuns: 80, seed: 20261122 },
      )
    })

    it("finds a user's row of a type first written after an earlier list, at once", async () => {
      const { db, database } = s.ctx
      const f: LogFilter = { userId: 1, start: T0 + 100, end: T0 + 400 }
      assert.equal(await chooseWalk(db, f, undefined, database.dialect), 'userTime')
      const before = await listLogs(db, database.dialect, f, 0, 100)
      const row = await db
        .insertInto('logs')
        .values({ user_id: 1, username: 'root', created_at: T0 + 250, type: 9, content: 'a type of tomorrow' })
        .returning('id')
        .executeTakeFirstOrThrow()
      try {
        const after = await listLogs(db, database.dialect, f, 0, 100)
        assert.deepEqual(
          after.map((r) => r.id),
          [row.id, ...before.map((r) => r.id)].sort((a, b) => b - a),
        )
      } finally {
        await db.deleteFrom('logs').where('id', '=', row.id).execute()
      }
    })

    it('walks newest first through a wide recent window and by the time index otherwise', async () => {
      const db = s.ctx.db
      const limits = { wide: 50, skip: 100 }
      const newest = Math.max(...rows.map((r) => r.created_at))
      assert.equal(await chooseWalk(db, { start: T0, end: newest + 60 }, limits), 'newest', 'wide and recent')
      assert.equal(await chooseWalk(db, { start: T0 }, limits), 'newest', 'open-ended')
      assert.equal(await chooseWalk(db, { start: newest - 100, end: newest + 60 }, limits), 'window', 'narrow')
      assert.equal(await chooseWalk(db, { start: T0 - 500, end: T0 + 1500 }, limits), 'hours', 'wide but far behind the newest rows')
      assert.equal(await chooseWalk(db, { end: T0 + 1500 }, limits), 'window', 'far behind, no start: no hours to merge')
      assert.equal(await chooseWalk(db, { start: T0, end: newest - 600 }, limits), 'newest', 'wide, a few newer rows to step over')
      assert.equal(await chooseWalk(db, { start: T0, end: newest, username: 'root' }, limits), 'ids', 'a common filter: the id order')
      assert.equal(await chooseWalk(db, { username: 'root' }, limits), 'ids', 'a common filter, no time')
      assert.equal(await chooseWalk(db, { start: T0, username: 'ann' }, limits), 'key', 'a filter of few rows: its index')
      assert.equal(await chooseWalk(db, { username: 'root', channel: 99 }, limits), 'key', 'one filter of few rows is enough')
      assert.equal(
        await chooseWalk(db, { start: newest - 100, end: newest + 60, username: 'root' }, limits),
        'window',
        'common, narrow window',
      )
      assert.equal(await chooseWalk(db, { start: T0, userId: 1 }, limits), 'user', "a user's own list")
      assert.equal(await chooseWalk(db, { start: newest - 200, end: newest, userId: 1 }, limits), 'userTime', 'a narrow recent window')
      assert.equal(await chooseWalk(db, { start: T0, end: T0 + 300, userId: 1 }, limits), 'userTime', 'a narrow window far behind')
      assert.equal(await chooseWalk(db, { start: T0, end: T0 + 2500, userId: 1 }, limits), 'user', 'a window holding many rows')
      assert.deepEqual(await logTypes(db), [0, 1, 2, 3, 4, 5], 'the types present, with every type this server writes')
      assert.equal(await chooseWalk(db, {}, limits), 'planner')
    })
  })
}
