/**
 * Size budgets of the element library (run after `npm run build`): for each entry in dist/lib/,
 * the gzip size of the entry plus every chunk it imports statically (what a page loading only
 * that entry downloads before first render; lazy screens are not counted). One line per entry,
 * then `size: N passed, N failed`; exit code 1 on any failure.
 *
 * Budgets start at the measured size plus a little. Raising one is its own commit saying why.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { basename, dirname, join, normalize } from 'node:path'
import { gzipSync } from 'node:zlib'

const LIB = 'dist/lib'

/**
 * Bytes of gzip per entry. Measured at the first build (React 19 + Shoelace + stores are about
 * 140 kB of each; the console adds its shell and DOMPurify) plus about 3 %.
 */
const BUDGETS: Record<string, number> = {
  'tollgate.js': 270_900,
  'tollgate-config.js': 23_200,
  'tollgate-console.js': 194_900,
  'tollgate-login.js': 169_900,
  'tollgate-register.js': 169_200,
  'tollgate-reset.js': 168_700,
  'tollgate-reset-confirm.js': 168_400,
  'tollgate-logs.js': 176_700,
  'tollgate-tokens.js': 176_100,
  'tollgate-dashboard.js': 174_800,
  'tollgate-channels.js': 185_400,
  'tollgate-users.js': 182_800,
  'tollgate-redemptions.js': 179_200,
  'tollgate-settings.js': 179_000,
  'tollgate-topup.js': 171_200,
  'tollgate-tasks.js': 176_400,
  'tollgate-pricing.js': 172_100,
}

/** Static import and re-export specifiers of an ES module (dynamic import() is left out). */
const STATIC_IMPORT = /\b(?:import|export)(?!\s*\()\s*(?:[\w$*{}\s,]*?from\s*)?(["'`])(\.{1,2}\/[^"'`]+)\1/g

function staticClosure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const m of code.matchAll(STATIC_IMPORT)) visit(normalize(join(dirname(file), m[2]!)))
  }
  visit(entry)
  return [...seen]
}

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`

let passed = 0
let failed = 0
if (!existsSync(LIB)) {
  console.log(`${LIB} is missing: run npm run build first`)
  failed++
} else {
  const entries = readdirSync(LIB).filter((f) => f.endsWith('.js'))
  const names = [...new Set([...Object.keys(BUDGETS), ...entries])].sort()
  for (const name of names) {
    const budget = BUDGETS[name]
    if (!entries.includes(name)) {
      console.log(`✗ ${name}: missing from ${LIB}`)
      failed++
      continue
    }
    if (budget === undefined) {
      console.log(`✗ ${name}: no budget (add one to scripts/size.ts)`)
      failed++
      continue
    }
    const files = staticClosure(join(LIB, name))
    const size = files.reduce((sum, f) => sum + gzipSize(f), 0)
    const ok = size <= budget
    console.log(
      `${ok ? '✓' : '✗'} ${name.padEnd(26)} ${kb(size).padStart(9)} gzip in ${String(files.length).padStart(2)} files (budget ${kb(budget)})`,
    )
    if (ok) passed++
    else failed++
  }

  // every element on a page shares one session only if the build holds one copy of the stores
  const files = [
    ...entries.map((f) => join(LIB, f)),
    ...readdirSync(join(LIB, 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(LIB, 'chunks', f)),
  ]
  for (const marker of ['tollgate:user', 'tollgate:status']) {
    const holders = files.filter(
      (f) =>
        readFileSync(f, 'utf8').includes(`"${marker}"`) ||
        readFileSync(f, 'utf8').includes(`'${marker}'`) ||
        readFileSync(f, 'utf8').includes(`\`${marker}\``),
    )
    const ok = holders.length === 1
    console.log(`${ok ? '✓' : '✗'} one copy of the store keyed ${marker}: ${holders.length} file(s)`)
    if (ok) passed++
    else failed++
  }

  // the chart library (uPlot) sits in a chunk of its own that only the data dashboard imports,
  // with import(), when it draws a chart: no element loads it before first render, and no other
  // screen ever does
  const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))
  const chartChunks = files.filter((f) => text.get(f)!.includes('u-cursor-x'))
  const staticHolders = entries.filter((e) => staticClosure(join(LIB, e)).some((f) => chartChunks.includes(f)))
  const importers = files.filter((f) => !chartChunks.includes(f) && chartChunks.some((c) => text.get(f)!.includes(basename(c))))
  const strangers = importers.filter((f) => !text.get(f)!.includes('data-chart'))
  const chartOk = chartChunks.length === 1 && staticHolders.length === 0 && importers.length > 0 && strangers.length === 0
  console.log(
    `${chartOk ? '✓' : '✗'} the chart library is loaded by the dashboard only: ${chartChunks.length} chunk(s), ` +
      `static in ${staticHolders.length ? staticHolders.join(', ') : 'no entry'}, imported by ${importers.length} dashboard file(s)${strangers.length ? ` and by ${strangers.join(', ')}` : ''}`,
  )
  if (chartOk) passed++
  else failed++
}
console.log(`size: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
