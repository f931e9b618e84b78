/**
 * Seeds usage-log rows into the configured database (SQLite under DATA_DIR, or DATABASE_URL),
 * fast, in batches, and optionally times the console's log queries on them.
 *
 *   node scripts/seed-logs.ts [count=1000000] [--users=200] [--days=30] [--batch=20000]
 *                             [--time] [--no-seed] [--runs=5] [--explain]
 *
 * Rows look like what the relay writes: mostly consumption (type 2) spread evenly over the last
 * `days` days (ids ascending with time), a skewed share per user, model, token and channel.
 * Seed users are named seed_0001… and get a random password nobody knows. The generator is
 * seeded, so two runs with the same arguments write the same rows.
 * --time then signs in (through access tokens) as root and as a heavy and a light seed user and
 * times the list, filter and stat calls through the real routes, printing median and worst ms.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import bcrypt from 'bcryptjs'
import { loadConfig } from '../server/config.ts'
import type { Database } from '../server/db/index.ts'
import { createServer, type Server } from '../server/app.ts'
import { chooseWalk, insertLogsSql, LEDGER_LOG_COLUMNS, listLogsQuery, logStatQuery, type LogFilter } from '../server/db/logs.ts'

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

/** mulberry32: a small seeded generator, so seeds are reproducible. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-3.5-turbo',
  'claude-3-5-sonnet-20241022',
  'gpt-4.1-mini',
  'deepseek-chat',
  'gemini-2.0-flash',
  'gpt-4o-2024-08-06',
  'claude-3-haiku-20240307',
  'o3-mini',
  'text-embedding-3-small',
  'gpt-4.1',
  'deepseek-reasoner',
  'gemini-1.5-pro',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'o1',
  'gpt-4-turbo',
  'claude-3-opus-20240229',
  'mj_imagine',
  'mj_upscale',
  'suno_music',
  'gpt-4.1-nano',
  'o1-mini',
]
const CHANNELS = 40
const TOKENS_PER_USER = 3

/** The columns the relay writes, in its order: a Row holds them in that order. */
const COLUMNS = LEDGER_LOG_COLUMNS
type Row = [number, number, number, string, string, string, number, string, number, number, number, number, number, number, string]

/** Seed users: existing ones are kept, missing ones created; answers [id, username] in order. */
async function seedUsers(database: Database, count: number): Promise<Array<[number, string]>> {
  const names = Array.from({ length: count }, (_, i) => `seed_${String(i + 1).padStart(4, '0')}`)
  const hash = await bcrypt.hash(randomBytes(24).toString('hex'), 10)
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < names.length; i += 500) {
    await database.db
      .insertInto('users')
      .values(
        names
          .slice(i, i + 500)
          .map((username) => ({ username, password: hash, display_name: username, group: 'default', created_time: now })),
      )
      .onConflict((oc) => oc.column('username').doNothing())
      .execute()
  }
  const rows = await database.db.selectFrom('users').select(['id', 'username']).where('username', 'in', names).execute()
  const byName = new Map(rows.map((r) => [r.username, r.id]))
  return names.map((n) => [byName.get(n)!, n])
}

function generator(users: Array<[number, string]>, count: number, days: number) {
  const rand = rng(0x5eed)
  const end = Math.floor(Date.now() / 1000)
  const start = end - days * 86400
  const step = (end - start) / Math.max(1, count)
  const ratios = MODELS.map(() => Math.round(rand() * 1500) / 100 + 0.05)
  return (i: number): Row => {
    // Squaring skews toward the first users and models: a few heavy ones, a long light tail.
    const u = Math.floor(users.length * rand() ** 2)
    const [userId, username] = users[u]!
    const m = Math.floor(MODELS.length * rand() ** 2)
    const r = rand()
    const type = r < 0.94 ? 2 : r < 0.97 ? 1 : r < 0.98 ? 3 : 4
    const tok = Math.floor(rand() * TOKENS_PER_USER)
    const channel = 1 + Math.floor(CHANNELS * rand() ** 1.5)
    const prompt = type === 2 ? Math.floor(rand() * 4000) : 0
    const completion = type === 2 ? Math.floor(rand() * 1500) : 0
    const quota = type === 2 ? Math.max(1, Math.round((prompt + completion * 3) * ratios[m]!)) : type === 1 ? 500000 : 0
    const created = Math.floor(start + i * step + rand() * 5)
    const other =
      type === 2
        ? JSON.stringify({
            model_ratio: ratios[m],
            completion_ratio: 3,
            group_ratio: 1,
            model_price: -1,
            frt: Math.floor(rand() * 2000),
            admin_info: { use_channel: [channel] },
          })
        : ''
    const content =
      type === 2
        ? `model ratio ${ratios[m]!.toFixed(2)}, completion ratio 3.00, group ratio 1.00`
        : type === 1
          ? 'topped up 500000 quota with redemption code id 1'
          : 'system note'
    return [
      userId,
      created,
      type,
      content,
      username,
      `${username}-key${tok}`,
      userId * 10 + tok,
      type === 2 ? MODELS[m]! : '',
      quota,
      prompt,
      completion,
      type === 2 ? Math.floor(rand() * 30) : 0,
      type === 2 && rand() < 0.6 ? 1 : 0,
      type === 2 ? channel : 0,
      other,
    ]
  }
}

async function seed(database: Database, args: Args): Promise<void> {
  const t0 = performance.now()
  const users = await seedUsers(database, args.users)
  const row = generator(users, args.count, args.days)
  let written = 0
  if (database.dialect === 'sqlite') {
    const raw = database.sqlite!
    const insert = raw.prepare(insertLogsSql(1, '?'))
    while (written < args.count) {
      const n = Math.min(args.batch, args.count - written)
      raw.exec('begin')
      try {
        for (let i = 0; i < n; i++) insert.run(...row(written + i))
        raw.exec('commit')
      } catch (e) {
        raw.exec('rollback')
        throw e
      }
      written += n
      progress(written, args.count, t0)
    }
  } else {
    const types = [
      'bigint',
      'bigint',
      'int',
      'text',
      'text',
      'text',
      'bigint',
      'text',
      'bigint',
      'bigint',
      'bigint',
      'int',
      'int',
      'bigint',
      'text',
    ]
    while (written < args.count) {
      const n = Math.min(args.batch, args.count - written)
      const cols: unknown[][] = COLUMNS.map(() => new Array(n))
      for (let i = 0; i < n; i++) {
        const r = row(written + i)
        for (let c = 0; c < r.length; c++) cols[c]![i] = r[c]
      }
      // One statement per batch: the columns travel as arrays and unnest turns them into rows.
      const arrays = sql.join(cols.map((values, c) => sql`${values}::${sql.raw(types[c]!)}[]`))
      await sql`insert into logs (${sql.join(COLUMNS.map((c) => sql.ref(c)))}) select * from unnest(${arrays})`.execute(database.db)
      written += n
      progress(written, args.count, t0)
    }
  }
  if (process.stdout.isTTY) process.stdout.write('\n')
  const seconds = (performance.now() - t0) / 1000
  console.log(`seeded ${written} log rows for ${users.length} users in ${seconds.toFixed(1)} s (${Math.round(written / seconds)} rows/s)`)
}

function progress(done: number, total: number, t0: number) {
  if (!process.stdout.isTTY) return
  process.stdout.write(`\r${done}/${total} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

async function explain(database: Database, label: string, f: LogFilter, stat: boolean) {
  const compiled = stat
    ? logStatQuery(database.db, database.dialect, f).compile()
    : listLogsQuery(database.db, database.dialect, f, 0, 10, await chooseWalk(database.db, f)).compile()
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

async function time(server: Server, args: Args): Promise<void> {
  const { db } = server.ctx
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
    const tokens: Record<string, string> = {}
    const root = await db.selectFrom('users').select('id').where('role', '>=', 100).orderBy('id').executeTakeFirstOrThrow()
    for (const [who, id] of [
      ['root', root.id],
      ['heavy', heavy.user_id],
      ['light', light.user_id],
    ] as const) {
      tokens[who] = `bench-${who}-${randomBytes(12).toString('hex')}`
      await db.updateTable('users').set({ access_token: tokens[who] }).where('id', '=', id).execute()
    }
    const now = Math.floor(Date.now() / 1000)
    const day = `start_timestamp=${now - 86400}&end_timestamp=${now + 3600}`
    const old = `start_timestamp=${now - 29 * 86400}&end_timestamp=${now - 28 * 86400}`
    const all = `start_timestamp=1&end_timestamp=${now + 3600}`
    const cases: Array<[string, string, string]> = [
      ['root', '/api/log/?p=0', 'admin list, no filter'],
      ['root', `/api/log/?p=0&${day}`, 'admin list, last 24 h (the console default)'],
      ['root', `/api/log/?p=0&type=2&${day}`, 'admin list, type 2, last 24 h'],
      ['root', `/api/log/?p=0&username=${heavy.username}&${day}`, 'admin list, heavy user, last 24 h'],
      ['root', `/api/log/?p=0&username=${light.username}&${day}`, 'admin list, light user, last 24 h'],
      ['root', `/api/log/?p=0&token_name=${light.username}-key1&${all}`, 'admin list, token of a light user, all time'],
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
      ['root', `/api/log/stat?username=${heavy.username}&${day}`, 'admin stat, heavy user, last 24 h'],
      ['root', `/api/log/stat?model_name=gpt-4o&${day}`, 'admin stat, model prefix gpt-4o, last 24 h'],
      ['root', `/api/log/stat?${old}`, 'admin stat, one day a month ago'],
      ['heavy', `/api/log/self/stat?${day}`, 'self stat, heavy user, last 24 h'],
      ['heavy', `/api/log/self/stat?${all}`, 'self stat, heavy user, all time'],
      ['light', `/api/log/self/stat?${all}`, 'self stat, light user, all time'],
    ]
    console.log(
      `${server.ctx.database.dialect}: ${total} log rows; heavy user ${heavy.username} (${heavy.n} rows), light user ${light.username} (${light.n} rows); ${args.runs} runs each, ms through the HTTP route`,
    )
    console.log('median    worst  rows  call')
    for (const [who, path, label] of cases) {
      const ms: number[] = []
      let rows = 0
      for (let i = 0; i < args.runs + 1; i++) {
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
    if (args.explain) {
      const d = { start: now - 86400, end: now + 3600 }
      await explain(server.ctx.database, 'admin 24 h', d, false)
      await explain(server.ctx.database, 'admin one day a month ago', { start: now - 29 * 86400, end: now - 28 * 86400 }, false)
      await explain(server.ctx.database, 'admin heavy user 24 h', { ...d, username: heavy.username }, false)
      await explain(server.ctx.database, 'self heavy 24 h', { ...d, userId: heavy.user_id }, false)
      await explain(server.ctx.database, 'admin model prefix 24 h', { ...d, modelName: 'gpt-4o' }, false)
      await explain(server.ctx.database, 'stat 24 h', d, true)
      await explain(server.ctx.database, 'self stat heavy 24 h', { ...d, userId: heavy.user_id }, true)
    }
  } finally {
    // the timing tokens are signed-in sessions for root and two users: never leave them behind
    await db.updateTable('users').set({ access_token: null }).where('access_token', 'like', 'bench-%').execute()
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
