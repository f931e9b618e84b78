import { defineConfig } from '@playwright/test'
import { chromiumUse, E2E_PORT, gatewayServer, PLAYWRIGHT_SUITE, UPSTREAM_PORT } from './tests/browser-suites.ts'

/** End-to-end flows in Debian's Chromium against the real server, built console and a fresh SQLite. */
export default defineConfig({
  ...PLAYWRIGHT_SUITE,
  testDir: 'tests/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: { ...chromiumUse(), baseURL: `http://127.0.0.1:${E2E_PORT}` },
  webServer: [
    {
      command: `node tests/fake-upstream.ts ${UPSTREAM_PORT}`,
      port: UPSTREAM_PORT,
      reuseExistingServer: false,
      timeout: 15_000,
    },
    gatewayServer(E2E_PORT, 'tests/e2e/.data', {
      SESSION_SECRET: 'e2e-secret',
      E2E_UPSTREAM_URL: `http://127.0.0.1:${UPSTREAM_PORT}`,
    }),
  ],
})
