/**
 * What the browser suites share: the Chromium they drive and its switches (element tests, e2e,
 * embed, the Storybook check), the e2e suite's ports, and the frame of the two Playwright suites
 * (playwright.config.ts, playwright.embed.config.ts).
 */
import { rmSync } from 'node:fs'
import type { PlaywrightTestConfig } from '@playwright/test'

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** The e2e suite's server, and the fake OpenAI-compatible upstream its channels point at. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199)
export const UPSTREAM_PORT = Number(process.env.E2E_UPSTREAM_PORT ?? E2E_PORT - 9)

/** A Playwright suite's settings but its folder, timeouts, `use` extras and servers: one worker, in order, no retries. */
export const PLAYWRIGHT_SUITE: PlaywrightTestConfig = {
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['./tests/e2e/summary-reporter.ts']],
}

/** What a Playwright suite's pages use, with `args` after the shared switches. */
export function chromiumUse(args: string[] = []) {
  return {
    browserName: 'chromium' as const,
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...args] },
    screenshot: 'only-on-failure' as const,
    trace: 'off' as const,
  }
}

/**
 * The gateway a Playwright suite runs against, on `port` with a fresh SQLite in `dataDir` and
 * `env` over the suite defaults (no rate limits in the way). The folder is emptied by the runner
 * only: each worker loads the config again, while the server is running.
 */
export function gatewayServer(port: number, dataDir: string, env: Record<string, string>) {
  if (!process.env.TEST_WORKER_INDEX) rmSync(dataDir, { recursive: true, force: true })
  return {
    command: 'node server/main.ts',
    url: `http://127.0.0.1:${port}/api/status`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CRITICAL_RATE_LIMIT: '10000', API_RATE_LIMIT: '0', ...env },
  }
}
