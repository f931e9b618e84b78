/**
 * `npm run soak`: three Tollgate processes on one PostgreSQL and one Redis behind a round-robin
 * proxy on loopback, under load, with SIGKILL and restart rounds. Checks that an option and a
 * channel change made on one instance reach the others within a second, that concurrent spending
 * of one token through all three never goes below zero (every request is admitted against what its
 * estimate needs), and that every answered request is billed exactly once after the kills.
 *
 *   node scripts/soak.ts [--rounds=10] [--seconds=3]
 *
 * PostgreSQL from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a fresh
 * database is made and dropped), Redis from TEST_REDIS_URL (default redis://127.0.0.1:6379), ports
 * from SOAK_PORT (default 4331: three instances, then the proxy).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freshPostgres } from '../tests/server/helpers.ts'
import { startFakeUpstream } from '../tests/fake-upstream.ts'
import { chat, ledgerProblems, load, seed, sleep, spawnServer, type Seed, type ServerProcess } from '../tests/server/processes.ts'
import { startProxy } from './soak-proxy.ts'
import { channelChange, optionChange, sessionsShared, spendDown, SOAK_EMBED_ORIGIN } from './soak-checks.ts'

export interface SoakOptions {
  rounds: number
  /** seconds of load between two kills */
  seconds: number
  port: number
  log: (line: string) => void
}

export interface SoakReport {
  answered: number
  failed: number
  kills: number
  restarts: number
  /** worst time for a change on one instance to show on another (ms) */
  optionMs: number
  channelMs: number
  /** sessions (cookie and embed) made on one instance and ended on another, checked on all */
  sessions: number
  /** the spent token's lowest balance (never below 0 when the rules hold) */
  spendRemain: number
  /** requests billed whose answer a kill cut off (the client saw a failure) */
  cutOff: number
  failures: string[]
}

const QUOTA = 1_000_000_000
const CLIENTS = 12

/** A report with nothing counted yet. */
function emptyReport(): SoakReport {
  return {
    answered: 0,
    failed: 0,
    kills: 0,
    restarts: 0,
    optionMs: 0,
    channelMs: 0,
    sessions: 0,
    spendRemain: 0,
    cutOff: 0,
    failures: [],
  }
}

/**
 * One round: an option change, a channel change and the shared sessions checked across the
 * instances, then instance `round % 3` killed and restarted in its place.
 */
async function checkAndKill(
  round: number,
  servers: ServerProcess[],
  main: Seed,
  report: SoakReport,
  restart: (i: number) => Promise<ServerProcess>,
  log: (line: string) => void,
): Promise<void> {
  const opt = await optionChange(servers, round)
  const ch = await channelChange(servers, main)
  report.optionMs = Math.max(report.optionMs, opt)
  report.channelMs = Math.max(report.channelMs, ch.ms)
  report.answered += ch.answered
  if (opt > 1000) report.failures.push(`round ${round}: an option change took ${opt} ms to reach every instance`)
  const sessionProblems = await sessionsShared(servers, round)
  report.failures.push(...sessionProblems)
  if (!sessionProblems.length) report.sessions += 2
  if (ch.ms > 1000) report.failures.push(`round ${round}: a channel change took ${ch.ms} ms to reach every instance`)
  const victim = round % 3
  await servers[victim].kill()
  report.kills++
  servers[victim] = await restart(victim)
  report.restarts++
  log(
    `round ${round}: option seen everywhere in ${opt} ms, channel in ${ch.ms} ms, sessions ${sessionProblems.length ? 'FAILED' : 'shared'}; killed and restarted instance ${victim}`,
  )
}

export async function soak(o: SoakOptions): Promise<SoakReport> {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres'
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const pgdb = await freshPostgres()
  const fake = await startFakeUpstream({ record: false })
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'tollgate-soak-')))
  const report = emptyReport()
  const servers: ServerProcess[] = []
  const envOf = (i: number) => ({ DATA_DIR: dirs[i], DATABASE_URL: pgdb.url, REDIS_URL: redisUrl, CORS_ORIGINS: SOAK_EMBED_ORIGIN })
  const proxy = await startProxy(o.port + 3, () => servers.map((s) => s.port))
  try {
    // the first start makes the root user (only into an empty database), then the load's rows go in
    await (await spawnServer(o.port, envOf(0))).stop()
    const main: Seed = await seed(dirs[0], pgdb.url, { name: 'soak', quota: QUOTA, remain: QUOTA, upstream: fake.url })
    for (let i = 0; i < 3; i++) servers.push(await spawnServer(o.port + i, envOf(i)))
    o.log(`three instances on ${o.port}-${o.port + 2}, proxy on ${proxy.port}`)
    if ((await chat(proxy.base, main.key, false)) !== 'answered') throw new Error('the first request through the proxy failed')
    report.answered++

    const spend = await spendDown(proxy.base, dirs[0], pgdb.url)
    report.spendRemain = spend.lowest
    if (spend.lowest < 0) report.failures.push(`concurrent spending left the token at ${spend.lowest} (below 0)`)
    o.log(`spending through three instances: ${spend.answered} answered, ${spend.refused} refused, token balance ${spend.lowest}`)

    let stopped = false
    const clients = load(
      () => [proxy.base],
      main.key,
      CLIENTS,
      () => stopped,
    )
    for (let round = 1; round <= o.rounds; round++) {
      await sleep(o.seconds * 1000)
      await checkAndKill(round, servers, main, report, (i) => spawnServer(o.port + i, envOf(i)), o.log)
    }
    await sleep(o.seconds * 500)
    stopped = true
    const seen = await clients
    report.answered += seen.answered
    report.failed += seen.failed
    for (const s of servers) await s.stop()
    const ledger = await ledgerProblems(dirs[0], pgdb.url, main, QUOTA, { answered: report.answered, cut: report.kills * CLIENTS })
    report.failures.push(...ledger.problems)
    report.cutOff = ledger.billed - report.answered
    return report
  } finally {
    for (const s of servers) await s.kill()
    await proxy.close()
    await fake.close()
    await pgdb.drop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
  const started = Date.now()
  const r = await soak({
    rounds: arg('rounds', 10),
    seconds: arg('seconds', 3),
    port: Number(process.env.SOAK_PORT ?? 4331),
    log: console.log,
  })
  console.log(
    `\nsoak: ${r.answered} requests answered, ${r.failed} failed while an instance was down (${r.cutOff} of them billed: the kill cut the answer off), ${r.kills} kills, ${r.restarts} restarts, ` +
      `options seen everywhere within ${r.optionMs} ms, channels within ${r.channelMs} ms, ` +
      `${r.sessions} sessions shared by every instance and ended on all by one logout, spent token's balance ${r.spendRemain}, ` +
      `${Math.round((Date.now() - started) / 1000)} s`,
  )
  console.log(r.failures.length ? `failures found:\n  ${r.failures.join('\n  ')}` : 'failures found: 0')
  process.exitCode = r.failures.length ? 1 : 0
}
