/**
 * `npm run attack`: the long attack run of issue 10 against a real in-process server, on SQLite
 * and (when TEST_DATABASE_URL is set) PostgreSQL: the authorisation matrix over every /api route
 * and role, the bad-input fuzz with every query name on its own, and the CSRF rules over every
 * write and state-changing GET; then the XSS corpus in Chromium (tests/e2e/xss.spec.ts with
 * XSS_EACH=1: all forty payloads in every written field, then each payload alone in the admin-HTML
 * options). Prints the figures and every finding; exits 1 on any finding. The short runs are
 * tests/server/attack.test.ts and tests/e2e/xss.spec.ts (in `npm test`). Needs a built console
 * (`npm run build`) for the browser part.
 */
import { spawnSync } from 'node:child_process'
import { dialects, startServer } from '../tests/server/helpers.ts'
import { apiRoutes, authzMatrix, csrf, fuzz, newFigures } from '../tests/server/attack-kit.ts'

let findings = 0
for (const dialect of dialects) {
  const s = await startServer(dialect)
  const f = newFigures()
  const started = Date.now()
  try {
    const routes = apiRoutes(s)
    f.routes = routes.length
    await authzMatrix(s, routes, f)
    await fuzz(s, routes, f, true)
    await csrf(s, routes, f)
  } finally {
    await s.close()
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(
    `attack (${dialect}): ${f.routes} routes × ${f.roles} roles = ${f.matrixCalls} matrix calls, ` +
      `${f.fuzzInputs} bad inputs, ${f.csrfCalls} forged requests, ${f.failures.length} failures (${seconds} s)`,
  )
  for (const line of f.failures) console.log(`  ${line}`)
  findings += f.failures.length
}
// the XSS corpus in Chromium, against the built console and a server of its own
const xss = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', 'tests/e2e/xss.spec.ts', '--reporter=line'], {
  env: { ...process.env, XSS_EACH: '1' },
  encoding: 'utf8',
})
const xssOut = `${xss.stdout}${xss.stderr}`
const figure = /xss: .*findings/.exec(xssOut)?.[0]
console.log(figure ?? 'xss: no figure printed')
if (xss.status !== 0) {
  console.log(xssOut)
  findings++
}
process.exit(findings ? 1 : 0)
