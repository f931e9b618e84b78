/**
 * SQLite reads off the event loop (issue 10): SELECTs outside a transaction run on reader threads,
 * writes and transactions on the main connection, and reads see the writes before them.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { startServer, type TestServer } from './helpers.ts'

/** A SELECT that counts 1..n with a recursive query: as slow as n makes it. */
function countTo(s: TestServer, n: number) {
  return s.ctx.db
    .withRecursive('c(n)', (qb) =>
      qb.selectNoFrom(sql<number>`1`.as('n')).unionAll((q) =>
        q
          .selectFrom('c')
          .select(sql<number>`n + 1`.as('n'))
          .where('n', '<', n),
      ),
    )
    .selectFrom('c')
    .select((eb) => eb.fn.countAll<number>().as('k'))
    .executeTakeFirstOrThrow()
}

describe('SQLite reader threads', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite')
  })
  after(() => s.close())

  it('keeps the event loop turning while a slow SELECT runs', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 2)
    const t0 = performance.now()
    const row = await countTo(s, 2_000_000)
    const ms = performance.now() - t0
    clearInterval(timer)
    assert.equal(Number(row.k), 2_000_000)
    assert.ok(ms > 50, `the query took ${ms} ms, too little to tell`)
    assert.ok(ticks >= (ms / 2) * 0.3, `${ticks} timer ticks in ${Math.round(ms)} ms: the event loop was held`)
  })

  it('reads what was just written, and a transaction reads its own writes', async () => {
    const db = s.ctx.db
    await db.insertInto('options').values({ key: 'ReaderProbe', value: 'one' }).execute()
    const after = await db.selectFrom('options').select('value').where('key', '=', 'ReaderProbe').executeTakeFirst()
    assert.equal(after?.value, 'one')
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('options').set({ value: 'two' }).where('key', '=', 'ReaderProbe').execute()
      const inside = await tx.selectFrom('options').select('value').where('key', '=', 'ReaderProbe').executeTakeFirst()
      assert.equal(inside?.value, 'two')
    })
    const committed = await db.selectFrom('options').select('value').where('key', '=', 'ReaderProbe').executeTakeFirst()
    assert.equal(committed?.value, 'two')
  })

  it('answers a failed SELECT with its error', async () => {
    await assert.rejects(
      s.ctx.db
        .selectFrom('options')
        .select(sql`no_such_column`.as('x'))
        .execute(),
      /no such column/,
    )
  })

  it('runs the reads at a lower priority than the request thread, so the relay wins a contended core', async (t) => {
    if (!existsSync('/proc/thread-self')) return t.skip('per-thread priorities are read from Linux /proc')
    // a read outside a transaction starts a reader thread, which sets its priority as it starts
    assert.equal(Number((await countTo(s, 1000)).k), 1000)
    /** each thread's nice value: field 19 of /proc/self/task/<tid>/stat, after the name in parentheses */
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
    }
    const nice = readdirSync('/proc/self/task').map(niceOf)
    const own = niceOf(String(process.pid))
    assert.ok(
      nice.some((n) => n === own + 10),
      `no thread runs at nice ${own + 10} (the threads' values: ${[...new Set(nice)].join(', ')})`,
    )
  })
})
