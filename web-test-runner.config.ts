/**
 * Browser tests of the elements (`npm run test:elements`): real Chromium (Debian's, never a
 * downloaded one), files tests/elements/**\/*.test.ts(x) served through Vite, and a REAL gateway
 * server started in-process for the run behind /api (tests/elements/test-server.ts; the commands
 * the tests send it are in tests/elements/server-commands.ts). Ends with one line
 * `wtr: N passed, N failed`.
 */
import { defaultReporter } from '@web/test-runner'
import type { Reporter, TestSession, TestSuiteResult } from '@web/test-runner'
import { playwrightLauncher } from '@web/test-runner-playwright'
import { vitePlugin, removeViteLogging } from '@remcovaes/web-test-runner-vite-plugin'
import { apiProxy, payEcho, statusEndpoint, stopTestServer } from './tests/elements/test-server.ts'
import { adminFixtures, serverCommands } from './tests/elements/server-commands.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/browser-suites.ts'

const VITE_PORT = Number(process.env.WTR_VITE_PORT ?? 5273)

/**
 * The Vite plugin adds every file it serves to wtr's file watcher, and wtr re-runs sessions when
 * a watched file changes, even without --watch: an edit during the run would start a second run
 * against a browser that is shutting down. A single run must not depend on the working tree
 * staying still, so the plugin gets a watcher that ignores it.
 */
function withoutRerunOnChange(plugin: any) {
  return {
    ...plugin,
    serverStart: (args: Record<string, unknown>) => plugin.serverStart({ ...args, fileWatcher: { add() {} } }),
  }
}

// --- the closing line ------------------------------------------------------------------------
function countSuite(suite: TestSuiteResult | undefined, counts: { passed: number; failed: number }) {
  if (!suite) return
  for (const test of suite.tests) {
    if (test.skipped) continue
    if (test.passed) counts.passed++
    else counts.failed++
  }
  for (const child of suite.suites) countSuite(child, counts)
}

function summaryLine(): Reporter {
  let line = 'wtr: 0 passed, 1 failed'
  process.on('exit', () => console.log(line))
  return {
    onTestRunFinished({ sessions }: { sessions: TestSession[] }) {
      const counts = { passed: 0, failed: 0 }
      for (const session of sessions) {
        countSuite(session.testResults, counts)
        if (session.errors?.length || (!session.passed && !session.testResults?.tests.length && !session.testResults?.suites.length))
          counts.failed++
      }
      line = `wtr: ${counts.passed} passed, ${counts.failed} failed`
    },
  }
}

export default {
  files: ['tests/elements/**/*.test.ts', 'tests/elements/**/*.test.tsx'],
  nodeResolve: false,
  concurrency: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 10_000 } },
  // tests print nothing: drop Vite's connection notes and Lit's dev-mode notice
  filterBrowserLogs: (log: { type: string; args: unknown[] }) =>
    removeViteLogging(log) && !log.args.some((a) => typeof a === 'string' && a.includes('Lit is in dev mode')),
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
      // tests talk only to loopback: outside widgets (bot check, Telegram) are refused, not fetched
      async createPage({ context }) {
        await context.route(
          (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.protocol !== 'data:',
          (route) => route.abort(),
        )
        return context.newPage()
      },
    }),
  ],
  middleware: [apiProxy, statusEndpoint, payEcho],
  plugins: [
    serverCommands,
    adminFixtures,
    withoutRerunOnChange(
      vitePlugin({
        // the plugin proxies to the configured port, so it must not drift
        server: { port: VITE_PORT, strictPort: true, host: '127.0.0.1' },
        // a dependency cache per port: runs side by side must not rewrite each other's pre-bundled
        // React mid-run (two copies of React break hooks)
        cacheDir: `node_modules/.vite-wtr-${VITE_PORT}`,
        logLevel: 'error',
        define: { 'process.env.NODE_ENV': '"development"' },
        // pre-bundle up front: discovering dependencies mid-run re-optimises and loads two Reacts
        optimizeDeps: {
          noDiscovery: true,
          include: [
            'react',
            'react-dom',
            'react-dom/client',
            'react/jsx-runtime',
            'react/jsx-dev-runtime',
            'nanostores',
            '@nanostores/react',
            '@nanostores/persistent',
            'dompurify',
            '@esm-bundle/chai',
          ],
        },
      }),
    ),
    { name: 'tollgate-stop-server', serverStop: stopTestServer },
  ],
  reporters: [defaultReporter(), summaryLine()],
}
