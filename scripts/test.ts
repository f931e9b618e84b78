/**
 * `npm test`: every suite, in order, then one closing line `N passed, N failed`.
 * Suites: type check, lint and format, server (the domain rules, then the server on SQLite, plus PostgreSQL when one
 * is reachable), front-end build, size budgets, the package (with the Storybook smoke test), element tests in Chromium,
 * end-to-end tests in Chromium against the real server, and the cross-site embedding suite (tests/embed).
 * A suite that cannot run (no Chromium, say) counts as failed and says what is missing.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import pg from 'pg'
import { CHROMIUM_PATH as CHROMIUM } from '../tests/browser-suites.ts'

interface Suite {
  name: string
  cmd: string[]
  env?: Record<string, string>
  /** reads the counts out of the output; exit code alone when it returns null */
  parse?: (out: string) => { passed: number; failed: number } | null
  needsBrowser?: boolean
  when?: () => boolean
}

const nodeTest = (out: string) => {
  const p = /^ℹ pass (\d+)$/m.exec(out)
  const f = /^ℹ fail (\d+)$/m.exec(out)
  const c = /^ℹ cancelled (\d+)$/m.exec(out)
  return p && f ? { passed: Number(p[1]), failed: Number(f[1]) + Number(c?.[1] ?? 0) } : null
}
const closingLine = (label: string) => (out: string) => {
  const m = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed`, 'm').exec(out)
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null
}

function ensureChromium(): string | null {
  if (existsSync(CHROMIUM)) return null
  const isRoot = process.getuid?.() === 0
  if (isRoot && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
    console.log("Chromium is missing: installing Debian's chromium package (apt-get install -y chromium)…")
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], { stdio: 'inherit' })
    if (existsSync(CHROMIUM)) return null
  }
  return `Chromium not found at ${CHROMIUM}: install it with 'apt-get install -y chromium' (or set CHROMIUM_PATH)`
}

async function findPostgres(): Promise<string | null> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL
  const url = 'postgres://postgres@127.0.0.1:5432/postgres'
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 })
  try {
    await client.connect()
    await client.end()
    return url
  } catch {
    return null
  }
}

function run(suite: Suite): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const [cmd, ...args] = suite.cmd
    const child = spawn(cmd!, args, { env: { ...process.env, ...suite.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      process.stdout.write(d)
    })
    child.stderr.on('data', (d) => {
      out += d
      process.stderr.write(d)
    })
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })
}

const only = process.argv.slice(2)
const pgUrl = await findPostgres()
const suites: Suite[] = [
  { name: 'typecheck', cmd: ['node', 'node_modules/typescript7/bin/tsc', '-p', 'tsconfig.json'] },
  { name: 'lint', cmd: ['npm', 'run', '--silent', 'lint'] },
  {
    name: 'server',
    cmd: ['node', '--test', '--test-reporter=spec', '--test-concurrency=2', 'tests/domain/**/*.test.ts', 'tests/server/**/*.test.ts'],
    env: pgUrl ? { TEST_DATABASE_URL: pgUrl } : {},
    parse: nodeTest,
  },
  { name: 'build', cmd: ['npm', 'run', '--silent', 'build'], when: () => existsSync('vite.config.ts') },
  { name: 'size', cmd: ['node', 'scripts/size.ts'], parse: closingLine('size'), when: () => existsSync('scripts/size.ts') },
  // the package: manifest/docs drift, `npm pack` contents, hosts type-checked against the packed declarations,
  // the Storybook fixtures' wire shape and every built story in Chromium (console errors; axe-core listed)
  { name: 'package', cmd: ['node', '--test', '--test-reporter=spec', 'tests/package/*.test.ts'], parse: nodeTest, needsBrowser: true },
  {
    name: 'elements',
    cmd: ['npm', 'run', '--silent', 'test:elements'],
    parse: closingLine('wtr'),
    needsBrowser: true,
    when: () => existsSync('tests/elements'),
  },
  { name: 'e2e', cmd: ['playwright', 'test'], parse: closingLine('playwright'), needsBrowser: true, when: () => existsSync('tests/e2e') },
  {
    // the elements on another site (gateway.test embedded by shop.test), third-party cookies blocked
    name: 'embed',
    cmd: ['playwright', 'test', '-c', 'playwright.embed.config.ts'],
    parse: closingLine('playwright'),
    needsBrowser: true,
    when: () => existsSync('tests/embed'),
  },
]

if (!pgUrl) console.log('note: no PostgreSQL at 127.0.0.1:5432 and TEST_DATABASE_URL unset: the server suite runs on SQLite only')

let passed = 0
let failed = 0
const summary: string[] = []
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue
  if (suite.when && !suite.when()) continue
  console.log(`\n── ${suite.name} ${'─'.repeat(Math.max(0, 60 - suite.name.length))}`)
  if (suite.needsBrowser) {
    const missing = ensureChromium()
    if (missing) {
      console.log(missing)
      failed++
      summary.push(`${suite.name}: could not run (${missing})`)
      continue
    }
  }
  const started = Date.now()
  const { code, out } = await run(suite)
  const counts = suite.parse?.(out) ?? null
  const p = counts?.passed ?? (code === 0 ? 1 : 0)
  let f = counts?.failed ?? (code === 0 ? 0 : 1)
  if (code !== 0 && f === 0) f = 1 // a crash after the counts still fails the run
  passed += p
  failed += f
  summary.push(`${suite.name}: ${p} passed, ${f} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
console.log('\n' + summary.join('\n'))
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
