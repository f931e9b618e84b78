import { defineConfig } from '@playwright/test'
import { rmSync } from 'node:fs'

const PORT = Number(process.env.E2E_PORT ?? 3199)
/** the fake OpenAI-compatible upstream the e2e channels point at */
export const UPSTREAM_PORT = Number(process.env.E2E_UPSTREAM_PORT ?? PORT - 9)
const DATA_DIR = 'tests/e2e/.data'
// a fresh database per run: only in the runner, as each worker loads this file again (the server is running by then)
if (!process.env.TEST_WORKER_INDEX) rmSync(DATA_DIR, { recursive: true, force: true })

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** End-to-end flows in Debian's Chromium against the real server, built console and a fresh SQLite. */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['./tests/e2e/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: [
    {
      command: `node tests/fake-upstream.ts ${UPSTREAM_PORT}`,
      port: UPSTREAM_PORT,
      reuseExistingServer: false,
      timeout: 15_000,
    },
    {
      command: 'node server/main.ts',
      url: `http://127.0.0.1:${PORT}/api/status`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        SESSION_SECRET: 'e2e-secret',
        CRITICAL_RATE_LIMIT: '10000',
        API_RATE_LIMIT: '0',
        E2E_UPSTREAM_URL: `http://127.0.0.1:${UPSTREAM_PORT}`,
      },
    },
  ],
})
