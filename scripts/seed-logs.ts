/**
 * Seeds usage-log rows into the configured database (SQLite under DATA_DIR, or DATABASE_URL),
 * fast, in batches, and optionally times the console's log queries on them.
 *
 *   node scripts/seed-logs.ts [count=1000000] [--users=200] [--days=30] [--batch=20000]
 *                             [--time] [--no-seed] [--runs=5] [--explain]
 *
 * The rows are made by scripts/seed-data.ts (see there for their shape), for `users` seed users
 * with three made-up tokens each, over 40 channels.
 * --time then signs in (through access tokens) as root and as a heavy and a light seed user and
 * times the list, filter and stat calls through the real routes, printing median and worst ms.
 */
import { sql } from 'kysely'
import { loadConfig } from '../server/config.ts'
import type { Database } from '../server/db/index.ts'
import { createServer, type Server } from '../server/app.ts'
import { hashAccessToken } from '../server/middleware/session.ts'
import { chooseWalk, listLogsQuery, logStatQuery, WALK_LIMITS, type LogFilter } from '../server/db/logs.ts'
import { logGenerator, seedLogs, seedTokens, seedUsers, timingTokens } from './seed-data.ts'

interface Args {
  count: number
  users: number
  days: number
  batch: number
  time: boolean
  seed: boolean
  runs: number
  explain: boolean
}

function parseArgs(argv: string[]): Args {
  const a: Args = { count: 1_000_000, users: 200, days: 30, batch: 20_000, time: false, seed: true, runs: 5, explain: false }
  for (const arg of argv) {
    const [k, v] = arg.replace(/^--/, '').split('=')
    if (/^\d+$/.test(arg)) a.count = Number(arg)
    else if (k === 'users') a.users = Number(v)
    else if (k === 'days') a.days = Number(v)
    else if (k === 'batch') a.batch = Number(v)
    else if (k === 'runs') a.runs = Number(v)
    else if (k === 'time') a.time = true
    else if (k === 'explain') a.explain = true
    else if (k === 'no-seed') a.seed = false
    else throw new Error(`unknown argument ${arg}`)
  }
  for (const k of ['count', 'users', 'days', 'batch', 'runs'] as const) {
    if (!Number.isInteger(a[k]) || a[k] < (k === 'count' ? 0 : 1)) throw new Error(`--${k} must be a positive integer`)
  }
  return a
}

async function seed(database: Database, args: Args): Promise<void> {
  const t0 = performance.now()
  const users = await seedTokens(database, await seedUsers(database, args.users), 0)
  const channels = Array.from({ length: 40 }, (_, i) => i + 1)
  const row = logGenerator({ users, channels, days: args.days }, args.count)
  await seedLogs(database, row, args.count, args.batch, (done) => progress(done, args.count, t0))
  if (process.stdout.isTTY) process.stdout.write('\n')
  const seconds = (performance.now() - t0) / 1000
  console.log(
    `seeded ${args.count} log rows for ${users.length} users in ${seconds.toFixed(1)} s (${Math.round(args.count / seconds)} rows/s)`,
  )
}

function progress(done: number, total: number, t0: number) {
  if (!process.stdout.isTTY) return
  process.stdout.write(`\r${done}/${total} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

async function explain(database: Database, label: string, f: LogFilter, stat: boolean) {
  const compiled = stat
    ? logStatQuery(database.db, database.dialect, f).compile()
    : listLogsQuery(database.db, database.dialect, f, 0, 10, await chooseWalk(database.db, f, WALK_LIMITS, database.dialect)).compile()
  const prefix = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain '
  const plan = await sql.raw(prefix + inline(compiled.sql, compiled.parameters, database.dialect)).execute(database.db)
  const lines = (plan.rows as Array<Record<string, unknown>>).map((r) => String(r.detail ?? r['QUERY PLAN']))
  console.log(`  plan ${label}: ${lines.join(' | ')}`)
}

function inline(text: string, params: readonly unknown[], dialect: string): string {
  const lit = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)
  if (dialect === 'sqlite') {
    let i = 0
    return text.replace(/\?/g, () => lit(params[i++]))
  }
  return text.replace(/\$(\d+)/g, (_, n) => lit(params[Number(n) - 1]))
}

/** The calls timed: [who, path, label]. */
function timingCases(now: number, heavy: string, light: string): Array<[string, string, string]> {
  const day = `start_timestamp=${now - 86400}&end_timestamp=${now + 3600}`
  const old = `start_timestamp=${now - 29 * 86400}&end_timestamp=${now - 28 * 86400}`
  const all = `start_timestamp=1&end_timestamp=${now + 3600}`
  return [
    ['root', '/api/log/?p=0', 'admin list, no filter'],
    ['root', `/api/log/?p=0&${day}`, 'admin list, last 24 h (the console default)'],
    ['root', `/api/log/?p=0&type=2&${day}`, 'admin list, type 2, last 24 h'],
    ['root', `/api/log/?p=0&username=${heavy}&${day}`, 'admin list, heavy user, last 24 h'],
    ['root', `/api/log/?p=0&username=${light}&${day}`, 'admin list, light user, last 24 h'],
    ['root', `/api/log/?p=0&token_name=${light}-key1&${all}`, 'admin list, token of a light user, all time'],
    ['root', `/api/log/?p=0&model_name=gpt-4o&${day}`, 'admin list, model prefix gpt-4o, last 24 h'],
    ['root', `/api/log/?p=0&model_name=o1-mini&${all}`, 'admin list, rare model, all time'],
    ['root', `/api/log/?p=0&channel=37&${day}`, 'admin list, rare channel, last 24 h'],
    ['root', `/api/log/?p=0&${old}`, 'admin list, one day a month ago'],
    ['root', `/api/log/?p=0&${all}`, 'admin list, all time'],
    ['root', `/api/log/?p=500&page_size=100`, 'admin list, page 500 of 100'],
    ['heavy', `/api/log/self/?p=0&${day}`, 'self list, heavy user, last 24 h'],
    ['light', `/api/log/self/?p=0&${day}`, 'self list, light user, last 24 h'],
    ['heavy', `/api/log/self/?p=0&model_name=o1&${day}`, 'self list, heavy user, model o1*, last 24 h'],
    ['light', `/api/log/self/?p=0&${old}`, 'self list, light user, one day a month ago'],
    ['root', `/api/log/stat?${day}`, 'admin stat, last 24 h'],
    ['root', `/api/log/stat?${all}`, 'admin stat, all time (every row)'],
    ['root', `/api/log/stat?username=${heavy}&${day}`, 'admin stat, heavy user, last 24 h'],
    ['root', `/api/log/stat?model_name=gpt-4o&${day}`, 'admin stat, model prefix gpt-4o, last 24 h'],
    ['root', `/api/log/stat?${old}`, 'admin stat, one day a month ago'],
    ['heavy', `/api/log/self/stat?${day}`, 'self stat, heavy user, last 24 h'],
    ['heavy', `/api/log/self/stat?${all}`, 'self stat, heavy user, all time'],
    ['light', `/api/log/self/stat?${all}`, 'self stat, light user, all time'],
  ]
}

/** Times one call `runs` times after a first one, and prints its median and worst. */
async function timeCase(server: Server, tokens: Record<string, string>, [who, path, label]: [string, string, string], runs: number) {
  const ms: number[] = []
  let rows = 0
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now()
    const res = await server.app.request(`http://localhost${path}`, { headers: { authorization: `Bearer ${tokens[who]}` } })
    const body = (await res.json()) as { success: boolean; data: unknown; message: string }
    if (!body.success) throw new Error(`${path}: ${body.message}`)
    if (i > 0) ms.push(performance.now() - t)
    rows = Array.isArray(body.data) ? body.data.length : 1
  }
  ms.sort((a, b) => a - b)
  console.log(
    `${ms[Math.floor(ms.length / 2)]!.toFixed(1).padStart(6)} ${ms[ms.length - 1]!.toFixed(1).padStart(8)} ${String(rows).padStart(5)}  ${label}`,
  )
}

async function explainAll(server: Server, now: number, heavy: { username: string; user_id: number }) {
  const d = { start: now - 86400, end: now + 3600 }
  const database = server.ctx.database
  await explain(database, 'admin 24 h', d, false)
  await explain(database, 'admin one day a month ago', { start: now - 29 * 86400, end: now - 28 * 86400 }, false)
  await explain(database, 'admin heavy user 24 h', { ...d, username: heavy.username }, false)
  await explain(database, 'self heavy 24 h', { ...d, userId: heavy.user_id }, false)
  await explain(database, 'admin model prefix 24 h', { ...d, modelName: 'gpt-4o' }, false)
  await explain(database, 'stat 24 h', d, true)
  await explain(database, 'self stat heavy 24 h', { ...d, userId: heavy.user_id }, true)
}

async function time(server: Server, args: Args): Promise<void> {
  const { db } = server.ctx
  const tokens: Record<string, string> = {}
  try {
    const counts = await db
      .selectFrom('logs')
      .select(['user_id', 'username', sql<number>`count(*)`.as('n')])
      .where('username', 'like', 'seed_%')
      .groupBy(['user_id', 'username'])
      .orderBy('n', 'desc')
      .execute()
    if (counts.length === 0) throw new Error('no seeded logs found: run without --no-seed first')
    const heavy = counts[0]!
    const light = counts[counts.length - 1]!
    const total = Number(
      (
        await db
          .selectFrom('logs')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    Object.assign(tokens, (await timingTokens(server.ctx.database, heavy.user_id, light.user_id)).tokens)
    const now = Math.floor(Date.now() / 1000)
    const cases = timingCases(now, heavy.username, light.username)
    console.log(
      `${server.ctx.database.dialect}: ${total} log rows; heavy user ${heavy.username} (${heavy.n} rows), light user ${light.username} (${light.n} rows); ${args.runs} runs each, ms through the HTTP route`,
    )
    console.log('median    worst  rows  call')
    for (const c of cases) await timeCase(server, tokens, c, args.runs)
    if (args.explain) await explainAll(server, now, heavy)
  } finally {
    // the timing tokens are signed-in sessions for root and two users: never leave them behind
    await db
      .updateTable('users')
      .set({ access_token: null })
      .where('access_token', 'in', [...Object.values(tokens).map(hashAccessToken), ''])
      .execute()
  }
}

const args = parseArgs(process.argv.slice(2))
// The whole server, not just the database: a first start also creates root, as `npm start` would.
const server = await createServer(loadConfig())
try {
  if (args.seed) await seed(server.ctx.database, args)
  if (args.time) await time(server, args)
} finally {
  await server.close()
}
