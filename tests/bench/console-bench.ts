/**
 * Console beside the relay (npm run bench -- --console): Tollgate on SQLite with a few hundred
 * thousand log rows; the relay at c=10 alone, then the same relay load while c=20 console calls
 * (log lists, log stats, the dashboard) run as root. Prints both relay throughputs side by side and
 * their ratio, per round and the median (issue 10: the relay keeps >= 70% of its throughput).
 * Then the relay alone and while root cleans CLEAN_ROWS old log rows (issue 15).
 */
import { join } from 'node:path'
import { cpus, loadavg } from 'node:os'
import { Pool } from 'undici'
import { root, start } from './children.ts'
import { signInRoot } from '../server/processes.ts'

const LOG_ROWS = 300_000
const RELAY_C = 10
const CONSOLE_C = 20

interface Call {
  path: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
}

/**
 * Runs `concurrency` loops of `next()` calls for `seconds`, or until `until` settles; returns
 * completed calls per second and failures.
 */
async function hammer(origin: string, next: (i: number) => Call, concurrency: number, seconds: number, until?: Promise<unknown>) {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 60_000 })
  let done = 0
  let failed = 0
  let stop = false
  let i = 0
  const worker = async () => {
    while (!stop) {
      try {
        const res = await pool.request(next(i++))
        await res.body.arrayBuffer()
        if (res.statusCode === 200) done++
        else failed++
      } catch {
        failed++
      }
    }
  }
  const started = performance.now()
  const workers = Array.from({ length: concurrency }, worker)
  await (until ?? new Promise((r) => setTimeout(r, seconds * 1000)))
  stop = true
  const elapsed = (performance.now() - started) / 1000
  await Promise.all(workers)
  await pool.close()
  return { rps: done / elapsed, failed, seconds: elapsed }
}

/** The console calls, in turn: log lists (plain and filtered), log stats, the dashboard. */
function consoleCalls(cookie: string): (i: number) => Call {
  const now = Math.floor(Date.now() / 1000)
  const paths = [
    '/api/log/?p=0&page_size=20',
    '/api/log/stat?type=2',
    `/api/data/?start_timestamp=${now - 30 * 86400}&end_timestamp=${now}`,
    '/api/log/?p=2&page_size=50&type=2&model_name=gpt-3',
    `/api/log/stat?type=2&model_name=gpt-1&start_timestamp=${now - 7 * 86400}`,
    '/api/log/?p=0&page_size=20&username=bench',
  ]
  return (i) => ({ path: paths[i % paths.length], method: 'GET', headers: { cookie, 'new-api-user': '1' } })
}

export async function consoleBench(seconds: number, rounds: number): Promise<void> {
  const upstream = await start([join(root, 'tests', 'fake-upstream.ts'), '0'])
  const upstreamPort = Number(upstream.line.split(' ')[1])
  const tollgate = await start([join(root, 'tests', 'bench', 'relay-bench.ts'), '--serve', String(upstreamPort)])
  const [, port, key] = tollgate.line.split(' ')
  const origin = `http://127.0.0.1:${port}`
  tollgate.child.stdin!.write(`seed ${LOG_ROWS}\n`)
  await tollgate.lines.next()
  const { cookie } = await signInRoot(origin)
  const body = JSON.stringify({
    model: 'gpt-3.5-turbo',
    messages: [{ role: 'user', content: 'Hello, how are you today?' }],
    max_tokens: 64,
  })
  const relayCall = (): Call => ({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  })
  console.log(`console beside the relay: ${cpus().length} CPU(s), Node ${process.version}, SQLite with ${LOG_ROWS} log rows`)
  console.log(
    `relay c=${RELAY_C} alone, then beside c=${CONSOLE_C} console calls (log lists, stats, dashboard); ${rounds} rounds of ${seconds} s`,
  )
  console.log(`load average at start ${loadavg()[0].toFixed(2)}\n`)
  console.log('round   relay alone req/s   relay beside console req/s   console req/s   ratio   errors')
  const ratios: number[] = []
  // warm-up: both loads once, so that no round times code the JIT has not compiled yet (a cold
  // first round made the relay alone slow and the ratio flattering)
  await Promise.all([hammer(origin, relayCall, RELAY_C, seconds), hammer(origin, consoleCalls(cookie), CONSOLE_C, seconds)])
  for (let round = 1; round <= rounds; round++) {
    const alone = await hammer(origin, relayCall, RELAY_C, seconds)
    const [mixed, consoleLoad] = await Promise.all([
      hammer(origin, relayCall, RELAY_C, seconds),
      hammer(origin, consoleCalls(cookie), CONSOLE_C, seconds),
    ])
    const ratio = mixed.rps / alone.rps
    ratios.push(ratio)
    const errors = alone.failed + mixed.failed + consoleLoad.failed
    console.log(
      `${String(round).padStart(5)}   ${alone.rps.toFixed(0).padStart(17)}   ${mixed.rps.toFixed(0).padStart(26)}   ${consoleLoad.rps.toFixed(0).padStart(13)}   ${ratio.toFixed(2).padStart(5)}   ${String(errors).padStart(6)}`,
    )
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]
  console.log(
    `\nmedian ratio ${median.toFixed(2)}: relay beside the console keeps >= 70% of its throughput alone: ${median >= 0.7 ? 'met' : 'NOT met'}`,
  )
  await cleanBeside(tollgate, origin, cookie, relayCall, seconds)
  tollgate.child.kill('SIGTERM')
  upstream.child.kill('SIGTERM')
  await Promise.all([tollgate, upstream].map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))))
}

/** Rows the clean phase seeds afresh and then cleans while the relay runs (issue 15, old logs). */
const CLEAN_ROWS = Number(process.env.CLEAN_ROWS ?? 1_000_000)

/**
 * The relay at c=10 alone, then while root cleans CLEAN_ROWS old log rows (DELETE /api/log/, in
 * batches): the relay's throughput during the clean beside its throughput alone.
 */
async function cleanBeside(
  tollgate: Awaited<ReturnType<typeof start>>,
  origin: string,
  cookie: string,
  relayCall: () => Call,
  seconds: number,
): Promise<void> {
  tollgate.child.stdin!.write(`seed ${CLEAN_ROWS}\n`)
  await tollgate.lines.next()
  const alone = await hammer(origin, relayCall, RELAY_C, seconds)
  // every seeded row is older than a minute ago; the relay's own rows of this run are newer
  const target = Math.floor(Date.now() / 1000) - 60
  const clean = fetch(`${origin}/api/log/?target_timestamp=${target}`, {
    method: 'DELETE',
    headers: { cookie, 'new-api-user': '1', 'x-tollgate-client': '1' },
  }).then((r) => r.json() as Promise<{ success: boolean; data: number; message: string }>)
  const during = await hammer(origin, relayCall, RELAY_C, 0, clean)
  const result = await clean
  if (!result.success) throw new Error(`the clean failed: ${result.message}`)
  console.log(
    `\nclean of ${result.data} old log rows in ${during.seconds.toFixed(1)} s: relay c=${RELAY_C} alone ${alone.rps.toFixed(0)} req/s, ` +
      `during the clean ${during.rps.toFixed(0)} req/s (ratio ${(during.rps / alone.rps).toFixed(2)}), errors ${alone.failed + during.failed}`,
  )
}
