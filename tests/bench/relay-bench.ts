/**
 * Relay benchmark (npm run bench): the fake upstream and a Tollgate server (SQLite in a temp dir,
 * metering and logging on) each in their own process, and an undici load generator here. Side by
 * side in one run: direct to the upstream vs through Tollgate, non-stream and stream, at
 * concurrency 1, 10 and 50; and the front doors (Responses, Messages, Gemini) beside chat
 * completions, taking turns in short slices (interleave.ts). Prints requests/s, p50/p99, the
 * latency Tollgate adds, stream time-to-first-byte overhead, and the ratio Tollgate/direct.
 *
 *   node tests/bench/relay-bench.ts [seconds per case, default 2] [rounds, default 3] [options]
 *     --doors         the front doors beside chat completions only (no direct runs, no main table)
 *     --stream        streamed cases only (--plain: non-streamed only)
 *     --c=10,50       these concurrencies only (default 1,10,50)
 *     --door=messages,responses-tr   these doors only (chat completions is always run)
 *   node tests/bench/relay-bench.ts --console [seconds, default 3] [rounds, default 3]
 *     (npm run bench -- --console: the relay alone vs beside c=20 console calls, then during a log clean
 *     of CLEAN_ROWS rows, default 1,000,000: tests/bench/console-bench.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { root, start } from './children.ts'
import { DOORS, TRANSLATED_MODEL, doorRequest, printDoors, type Door } from './doors.ts'
import { interleaved } from './interleave.ts'
import { benchPool, loadOf, timedRequest, type Load } from './load.ts'
import type { Server } from '../../server/app.ts'
import type { RelayEngine } from '../../server/relay/engine.ts'

const here = new URL('.', import.meta.url).pathname

// ---- child: a Tollgate server ------------------------------------------------------------------

/** The bench user, its token and the two channels to the fake upstream; the user's id and the token's key. */
async function seedBench(server: Server, upstreamPort: number) {
  const db = server.ctx.db
  const user = await db
    .insertInto('users')
    .values({ username: 'bench', password: 'x', display_name: 'bench', role: 1, status: 1, quota: 1e15, group: 'default', created_time: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  const key = 'BenchTokenBenchTokenBenchTokenBenchTokenBenchTok'
  await db
    .insertInto('tokens')
    .values({ user_id: user.id, key, status: 1, name: 'bench', expired_time: -1, remain_quota: 1e15, unlimited_quota: 0, group: '' })
    .execute()
  await db
    .insertInto('channels')
    .values({
      type: 1,
      key: 'bench-upstream',
      name: 'fake',
      models: 'gpt-3.5-turbo',
      group: 'default',
      base_url: `http://127.0.0.1:${upstreamPort}`,
      status: 1,
    })
    .execute()
  // an OpenAI-compatible channel without a Responses API: the Responses door reaches it translated
  await db
    .insertInto('channels')
    .values({
      type: 8,
      key: 'bench-upstream',
      name: 'fake-chat-only',
      models: TRANSLATED_MODEL,
      group: 'default',
      base_url: `http://127.0.0.1:${upstreamPort}`,
      status: 1,
    })
    .execute()
  return { userId: user.id, key }
}

/** Answers the parent's lines on stdin: `seed N` (log rows), `cpu` (CPU time), anything else (ledger stats). */
function answerParent(server: Server, engine: RelayEngine, userId: number): void {
  const db = server.ctx.db
  // the parent asks how many rows the ledger wrote, to show metering was on
  const rl = createInterface({ input: process.stdin })
  rl.on('line', async (cmd) => {
    if (cmd.startsWith('seed ')) {
      // console benchmark: consumption rows over the last 30 days, spread over the user's models
      server.ctx.database.sqlite!.exec(`WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${Number(cmd.slice(5))})
        INSERT INTO logs (user_id, created_at, type, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel)
        SELECT ${userId}, unixepoch() - 2592000 + n * 2592000 / ${Number(cmd.slice(5))}, 2, 'bench', 'bench',
          'gpt-' || (n % 7), 5, 10, 20, 1 FROM c`)
      process.stdout.write('seeded\n')
      return
    }
    if (cmd === 'cpu') {
      // CPU time of the whole process (all threads), for CPU per request
      const u = process.cpuUsage()
      process.stdout.write(`cpu ${u.user + u.system}\n`)
      return
    }
    await engine.idle()
    const logs = await db.selectFrom('logs').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const u = await db.selectFrom('users').select(['used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow()
    const mem = process.memoryUsage().rss
    process.stdout.write(`stats ${Number(logs.n)} ${Number(u.request_count)} ${Number(u.used_quota)} ${mem}\n`)
  })
}

async function serveTollgate(upstreamPort: number): Promise<void> {
  const { serve } = await import('@hono/node-server')
  const { createServer } = await import('../../server/app.ts')
  const { loadConfig } = await import('../../server/config.ts')
  const { relayOf } = await import('../../server/relay/index.ts')
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'))
  const config = loadConfig({ DATA_DIR: dataDir }, { sessionSecret: 'bench', apiRateLimit: 0, staticDir: join(dataDir, 'none') })
  const server = await createServer(config)
  const { userId, key } = await seedBench(server, upstreamPort)
  const engine = relayOf(server.ctx)
  await engine.whenReady()
  await engine.loadAll()
  const http = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`listening ${info.port} sk-${key}\n`)
  })
  const stop = async () => {
    http.close()
    await server.close().catch(() => undefined)
    process.stdout.write('closed\n')
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  answerParent(server, engine, userId)
}

// ---- parent: processes, load, report -------------------------------------------------------------

/** direct to the upstream, or through Tollgate by chat completions */
type Target = 'direct' | 'tollgate'

/** The command line: positional seconds and rounds, then the options in the header. */
function options(argv: string[]) {
  const flag = (name: string) => argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  const list = (name: string) => flag(name)?.split('=')[1]?.split(',').filter(Boolean)
  const positional = argv.filter((a) => !a.startsWith('--'))
  const doorsOnly = Boolean(flag('doors'))
  const doors = DOORS.filter((d) => d === 'chat' || !list('door') || list('door')!.includes(d))
  // the main table's targets; the doors run interleaved among themselves (interleave.ts)
  const targets: Target[] = doorsOnly ? [] : ['direct', 'tollgate']
  const streams = flag('stream') ? [true] : flag('plain') ? [false] : [false, true]
  const concurrencies = list('c')?.map(Number) ?? [1, 10, 50]
  return { seconds: Number(positional[0] ?? 2), rounds: Number(positional[1] ?? 3), doorsOnly, doors, targets, streams, concurrencies }
}

interface Result extends Load {
  name: string
  target: Target
}

async function load(opts: {
  origin: string
  key: string
  door: Door
  stream: boolean
  concurrency: number
  seconds: number
  warmup: number
  cpu?: () => Promise<number>
}): Promise<Load> {
  const pool = benchPool(opts.origin, opts.concurrency)
  const req = doorRequest(opts.door, opts.key, opts.stream)
  const lat: number[] = []
  const ttfb: number[] = []
  let errors = 0
  let measuring = false
  let stop = false
  const worker = async () => {
    while (!stop) {
      const r = await timedRequest(pool, req)
      if (!measuring) continue
      if (!r) errors++
      else {
        lat.push(r.lat)
        ttfb.push(r.ttfb)
      }
    }
  }
  const workers = Array.from({ length: opts.concurrency }, worker)
  await new Promise((r) => setTimeout(r, opts.warmup * 1000))
  const cpu0 = opts.cpu ? await opts.cpu() : 0
  measuring = true
  const t0 = performance.now()
  await new Promise((r) => setTimeout(r, opts.seconds * 1000))
  measuring = false
  const elapsed = (performance.now() - t0) / 1000
  const cpu1 = opts.cpu ? await opts.cpu() : 0
  stop = true
  await Promise.all(workers)
  await pool.close()
  const cpu = opts.cpu ? cpu1 - cpu0 : NaN
  return loadOf({ stream: opts.stream, concurrency: opts.concurrency, lat, ttfb, errors, seconds: elapsed, cpu })
}

const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-')
const pad = (s: string, n: number) => s.padStart(n)

type Cases = Array<{ stream: boolean; concurrency: number }>
type Median = (list: Result[]) => Result

function medians(cases: Cases, runs: Map<string, Result[]>, median: Median): Result[] {
  const results: Result[] = []
  for (const { stream, concurrency } of cases) {
    for (const target of ['direct', 'tollgate'])
      results.push(median(runs.get(`${stream ? 'stream' : 'non-stream'} c${concurrency}|${target}`)!))
  }
  return results
}

/** Direct vs through Tollgate (chat completions), case by case. */
function printMain(cases: Cases, runs: Map<string, Result[]>, median: Median): void {
  const results = medians(cases, runs, median)
  const head = [
    'case',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'added p50',
    'added p99',
    'TTFB p50',
    'TTFB +p50',
    'ratio',
    'CPU us/req',
    'errors',
  ]
  const widths = [15, 9, 9, 8, 8, 10, 10, 9, 10, 7, 11, 7]
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : pad(c, widths[i]))).join(' '))
  line(head)
  line(widths.map((w) => '-'.repeat(w)))
  for (let i = 0; i < results.length; i += 2) {
    const d = results[i]
    const t = results[i + 1]
    line([d.name, 'direct', fmt(d.rps, 0), fmt(d.p50), fmt(d.p99), '', '', d.stream ? fmt(d.ttfb50) : '', '', '', '', String(d.errors)])
    line([
      t.name,
      'tollgate',
      fmt(t.rps, 0),
      fmt(t.p50),
      fmt(t.p99),
      `+${fmt(t.p50 - d.p50)}`,
      `+${fmt(t.p99 - d.p99)}`,
      t.stream ? fmt(t.ttfb50) : '',
      t.stream ? `+${fmt(t.ttfb50 - d.ttfb50)}` : '',
      fmt(t.rps / d.rps),
      fmt(t.cpu, 0),
      String(t.errors),
    ])
  }
}

/** The overhead alone and the relay's targets (needs the c1 and c10 cases, plain and streamed). */
function printTargets(cases: Cases, runs: Map<string, Result[]>, median: Median): void {
  const results = medians(cases, runs, median)
  const c1 = results.find((r) => r.target === 'tollgate' && !r.stream && r.concurrency === 1)!
  const c1d = results.find((r) => r.target === 'direct' && !r.stream && r.concurrency === 1)!
  const s1 = results.find((r) => r.target === 'tollgate' && r.stream && r.concurrency === 1)!
  const s1d = results.find((r) => r.target === 'direct' && r.stream && r.concurrency === 1)!
  console.log(
    `overhead alone (concurrency 1): added p50 ${fmt(c1.p50 - c1d.p50)} ms, p99 ${fmt(c1.p99 - c1d.p99)} ms; stream TTFB added p50 ${fmt(s1.ttfb50 - s1d.ttfb50)} ms; ` +
      `Tollgate CPU ${fmt(c1.cpu, 0)} us per request`,
  )
  const c10 = results.find((r) => r.target === 'tollgate' && !r.stream && r.concurrency === 10)!
  const c10d = results.find((r) => r.target === 'direct' && !r.stream && r.concurrency === 10)!
  const best = Math.max(...results.filter((r) => r.target === 'tollgate' && !r.stream).map((r) => r.rps))
  console.log(
    `targets (2 cores): >= 5000 req/s through Tollgate: ${fmt(best, 0)} ${best >= 5000 ? 'met' : 'NOT met'}; ` +
      `added p50 <= 0.5 ms at c10: ${fmt(c10.p50 - c10d.p50)} ${c10.p50 - c10d.p50 <= 0.5 ? 'met' : 'NOT met'}; ` +
      `added p99 <= 3 ms at c10: ${fmt(c10.p99 - c10d.p99)} ${c10.p99 - c10d.p99 <= 3 ? 'met' : 'NOT met'}`,
  )
}

async function main() {
  const opts = options(process.argv.slice(2))
  const { seconds, rounds } = opts
  const warmup = 0.5
  const self = join(here, 'relay-bench.ts')
  const upstream = await start([join(root, 'tests', 'fake-upstream.ts'), '0'])
  const upstreamPort = Number(upstream.line.split(' ')[1])
  const tollgate = await start([self, '--serve', String(upstreamPort)])
  const [, tgPort, tgKey] = tollgate.line.split(' ')
  const cpu = async () => {
    tollgate.child.stdin!.write('cpu\n')
    const r = await tollgate.lines.next()
    return Number(r.value?.split(' ')[1])
  }
  const direct = `http://127.0.0.1:${upstreamPort}`
  const through = `http://127.0.0.1:${tgPort}`
  const load0 = loadavg()[0]
  console.log(`relay benchmark: ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`)
  console.log(
    `${rounds} rounds of ${seconds} s per case (after ${warmup} s warm-up), ` +
      (opts.doorsOnly
        ? 'the doors taking turns in 250 ms slices'
        : 'direct and Tollgate interleaved, the median round by req/s shown; the doors taking turns in 250 ms slices'),
  )
  console.log(
    `fake upstream, Tollgate (SQLite, metering + logging on) and this load generator share the machine; load average at start ${load0.toFixed(2)}\n`,
  )

  const cases: Array<{ stream: boolean; concurrency: number }> = []
  for (const stream of opts.streams) for (const concurrency of opts.concurrencies) cases.push({ stream, concurrency })
  const runs = new Map<string, Result[]>()
  const doorRuns = new Map<string, Array<Load & { name: string }>>()
  for (let round = 0; round < rounds; round++) {
    for (const { stream, concurrency } of cases) {
      // each round starts with another target, so no target always runs right after the same one
      const order = opts.targets.map((_, i) => opts.targets[(i + round) % opts.targets.length])
      for (const target of order) {
        const r = await load({
          origin: target === 'direct' ? direct : through,
          key: target === 'direct' ? 'bench-upstream' : tgKey,
          door: 'chat',
          stream,
          concurrency,
          seconds,
          warmup,
          cpu: target === 'direct' ? undefined : cpu,
        })
        const name = `${stream ? 'stream' : 'non-stream'} c${concurrency}`
        const k = `${name}|${target}`
        runs.set(k, [...(runs.get(k) ?? []), { name, target, ...r }])
      }
      if (opts.doors.length < 2) continue
      const name = `${stream ? 'stream' : 'non-stream'} c${concurrency}`
      const loads = await interleaved({
        origin: through,
        key: tgKey,
        doors: opts.doors,
        stream,
        concurrency,
        seconds,
        warmup,
        first: round,
        cpu,
      })
      for (const [door, r] of loads) {
        const k = `${name}|${door}`
        doorRuns.set(k, [...(doorRuns.get(k) ?? []), { name, ...r }])
      }
    }
  }
  const median = (list: Result[]) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]
  if (!opts.doorsOnly) printMain(cases, runs, median)

  tollgate.child.stdin!.write('stats\n')
  const stats = (await tollgate.lines.next()).value?.split(' ') ?? []
  const served = [...[...runs.values()].flat().filter((r) => r.target !== 'direct'), ...[...doorRuns.values()].flat()].reduce(
    (a, r) => a + r.count,
    0,
  )
  console.log(
    `\nmetering: ${stats[1]} consumption logs written, request_count ${stats[2]}, used_quota ${stats[3]} ` +
      `(${served} requests measured through Tollgate, plus warm-ups); Tollgate RSS ${fmt(Number(stats[4]) / 1048576, 0)} MB; load average at end ${loadavg()[0].toFixed(2)}`,
  )
  if (!opts.doorsOnly && opts.streams.length === 2 && [1, 10].every((n) => opts.concurrencies.includes(n)))
    printTargets(cases, runs, median)

  const names = cases.map((c) => `${c.stream ? 'stream' : 'non-stream'} c${c.concurrency}`)
  if (opts.doors.length > 1) printDoors(names, opts.doors, (door, name) => doorRuns.get(`${name}|${door}`))

  tollgate.child.kill('SIGTERM')
  upstream.child.kill('SIGTERM')
  await Promise.all([tollgate, upstream].map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))))
}

if (process.argv[2] === '--serve') await serveTollgate(Number(process.argv[3]))
else if (process.argv[2] === '--console')
  await (await import('./console-bench.ts')).consoleBench(Number(process.argv[3] ?? 3), Number(process.argv[4] ?? 3))
else await main()
