/**
 * Real server processes for the crash and several-instance tests (and `npm run soak`): the seed
 * rows written straight into the database, `node server/main.ts` children that can be SIGKILLed
 * and restarted, and a client load that counts what it saw answered.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { openDatabase } from '../../server/db/index.ts'
import { randomKey } from '../../server/lib/users.ts'

const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url))

export interface Seed {
  userId: number
  tokenId: number
  key: string
  channelId: number
}

export interface SeedOptions {
  name: string
  quota: number
  remain: number
  /** the fake upstream's URL: also writes a channel to it */
  upstream?: string
}

/** Migrates the database and writes a user, its token and (with `upstream`) a channel to the fake upstream. */
export async function seed(dataDir: string, databaseUrl: string | undefined, o: SeedOptions): Promise<Seed> {
  const database = await openDatabase({ databaseUrl, dataDir })
  try {
    const db = database.db
    const user = await db
      .insertInto('users')
      .values({ username: o.name, password: 'x', display_name: o.name, quota: o.quota, group: 'default', created_time: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    const key = randomKey(48)
    const token = await db
      .insertInto('tokens')
      .values({
        user_id: Number(user.id),
        key,
        status: 1,
        name: o.name,
        created_time: 0,
        expired_time: -1,
        remain_quota: o.remain,
        unlimited_quota: 0,
        group: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    let channelId = 0
    if (o.upstream) {
      const channel = await db
        .insertInto('channels')
        .values({
          type: 1,
          key: 'load-key',
          name: 'load',
          models: 'gpt-3.5-turbo',
          group: 'default',
          base_url: o.upstream,
          created_time: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      channelId = Number(channel.id)
    }
    return { userId: Number(user.id), tokenId: Number(token.id), key: `sk-${key}`, channelId }
  } finally {
    await database.close()
  }
}

export interface ServerProcess {
  port: number
  base: string
  child: ChildProcess
  /** the last few kilobytes it printed */
  output(): string
  /** SIGKILL: no flush, no goodbye */
  kill(): Promise<void>
  /** SIGTERM: the graceful stop */
  stop(): Promise<void>
}

/** Starts `node server/main.ts` on `port` and waits until it listens and its relay is loaded. */
export async function spawnServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SESSION_SECRET: 'soak-secret', API_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const collect = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000)
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server on ${port} did not start:\n${out}`)), 20_000)
    const seen = () => {
      if (out.includes('listening on')) {
        clearTimeout(t)
        resolve()
      }
    }
    child.stdout!.on('data', seen)
    child.once('exit', (code) => {
      clearTimeout(t)
      reject(new Error(`server on ${port} exited (${code}):\n${out}`))
    })
  })
  const base = `http://127.0.0.1:${port}`
  // the relay loads (and replays its journal) before its first answer: wait for it
  for (let i = 0; i < 200; i++) {
    const r = await fetch(`${base}/v1/models`, { headers: { authorization: 'Bearer sk-none' } }).catch(() => null)
    if (r) {
      await r.arrayBuffer()
      break
    }
    await sleep(50)
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await exited
  }
  return { port, base, child, output: () => out, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') }
}

/**
 * Starts one server per port at once; if any fails to start, stops the others before throwing, so
 * no orphan keeps the test file (and the whole suite) waiting.
 */
export async function spawnServers(ports: readonly number[], envOf: (i: number) => Record<string, string>): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(ports.map((port, i) => spawnServer(port, envOf(i))))
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (!failed) return started.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value)
  await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.kill() : undefined)))
  throw failed.reason
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Signs root in on a running server through the login route: its session cookie and user id. */
export async function signInRoot(base: string): Promise<{ cookie: string; id: number }> {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: '123456' }),
  })
  const body = (await res.json()) as { success: boolean; message: string; data: { id: number } }
  const cookie = /tollgate_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')?.[0]
  if (!body.success || !cookie) throw new Error(`root sign-in failed: ${body.message}`)
  return { cookie, id: body.data.id }
}

export interface LoadCount {
  /** requests answered 200 with a complete body (the client saw them) */
  answered: number
  /** requests that failed (connection refused or reset while a server was down) */
  failed: number
  /** refusals (e.g. quota not enough) */
  refused: number
}

/** One chat completion; half of them streamed. Resolves to how the client saw it end. */
export async function chat(base: string, key: string, stream: boolean): Promise<'answered' | 'failed' | 'refused'> {
  try {
    const body = stream
      ? { model: 'gpt-3.5-turbo', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }
      : { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }
    const r = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const text = await r.text()
    if (r.status !== 200) return r.status === 401 || r.status === 403 || r.status === 429 ? 'refused' : 'failed'
    if (stream) return text.includes('"usage":{') && text.trimEnd().endsWith('data: [DONE]') ? 'answered' : 'failed'
    return text.includes('"usage"') ? 'answered' : 'failed'
  } catch {
    return 'failed'
  }
}

/** Runs `concurrency` clients against `bases()` (round robin) until `stop()` says so. */
export async function load(bases: () => string[], key: string, concurrency: number, stop: () => boolean): Promise<LoadCount> {
  const count: LoadCount = { answered: 0, failed: 0, refused: 0 }
  let n = 0
  const worker = async () => {
    while (!stop()) {
      const list = bases()
      const how = await chat(list[n++ % list.length], key, n % 2 === 0)
      count[how]++
      if (how === 'failed') await sleep(20)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return count
}

/**
 * Where the ledger of a seeded user and token disagrees with itself or with what clients saw
 * answered: log rows, request count, used quota (user, token and the log sum) and the balances
 * against their starting values. Every answered request must be billed, none twice; a request the
 * server had billed when a SIGKILL cut its answer off is billed though its client saw a failure,
 * so up to `cut` more log rows than answers are allowed (one per client per kill at most).
 */
export async function ledgerProblems(
  dataDir: string,
  databaseUrl: string | undefined,
  s: Seed,
  initial: number,
  seen: { answered: number; cut: number },
) {
  const database = await openDatabase({ databaseUrl, dataDir })
  try {
    const db = database.db
    const user = await db.selectFrom('users').selectAll().where('id', '=', s.userId).executeTakeFirstOrThrow()
    const token = await db.selectFrom('tokens').selectAll().where('id', '=', s.tokenId).executeTakeFirstOrThrow()
    const logs = await db.selectFrom('logs').select(['quota']).where('token_id', '=', s.tokenId).where('type', '=', 2).execute()
    const logSum = logs.reduce((a, l) => a + Number(l.quota), 0)
    const problems: string[] = []
    if (logs.length < seen.answered) problems.push(`${seen.answered - logs.length} answered request(s) not billed`)
    if (logs.length > seen.answered + seen.cut)
      problems.push(`${logs.length - seen.answered} more log rows than answers (at most ${seen.cut} cut off)`)
    // the dashboard's buckets: held between their writes, yet exact after every kill (issue 15)
    const buckets = await db.selectFrom('quota_data').select(['quota', 'count']).where('user_id', '=', s.userId).execute()
    // everyone's per-model buckets are written with the users' ones: the same sums
    const total = async (table: 'quota_data' | 'quota_models') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(sql<number>`coalesce(sum(quota), 0)`.as('q'))
            .executeTakeFirstOrThrow()
        ).q,
      )
    const dimSum = async (table: 'quota_dims' | 'quota_days', dim: 'user' | 'all') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(sql<number>`coalesce(sum(quota), 0)`.as('q'))
            .where('dim', '=', dim)
            .where('key_id', '=', dim === 'user' ? s.userId : 0)
            .executeTakeFirstOrThrow()
        ).q,
      )
    const checks: Array<[string, number, number]> = [
      ['dashboard bucket count vs log rows', buckets.reduce((a, b) => a + Number(b.count), 0), logs.length],
      ['dashboard bucket quota vs sum of log quota', buckets.reduce((a, b) => a + Number(b.quota), 0), logSum],
      ['quota_models vs quota_data', await total('quota_models'), await total('quota_data')],
      // the users', everyone's and the daily buckets go with the charges, not held: exact as well
      ["user's hourly buckets (quota_dims) vs sum of log quota", await dimSum('quota_dims', 'user'), logSum],
      ["user's daily rows (quota_days) vs sum of log quota", await dimSum('quota_days', 'user'), logSum],
      ["everyone's hourly total (quota_dims) vs quota_data", await dimSum('quota_dims', 'all'), await total('quota_data')],
      ['user request_count vs log rows', Number(user.request_count), logs.length],
      ['user used_quota vs sum of log quota', Number(user.used_quota), logSum],
      ['token used_quota vs sum of log quota', Number(token.used_quota), logSum],
      ['user quota + used_quota vs quota given', Number(user.quota) + Number(user.used_quota), initial],
      ['token remain_quota + used_quota vs quota given', Number(token.remain_quota) + Number(token.used_quota), initial],
    ]
    problems.push(...checks.filter(([, got, want]) => got !== want).map(([what, got, want]) => `${what}: ${got} != ${want}`))
    return { problems, billed: logs.length }
  } finally {
    await database.close()
  }
}
