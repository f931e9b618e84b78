import { defineConfig } from '@playwright/test'
import { chromiumUse, gatewayServer, PLAYWRIGHT_SUITE } from './tests/browser-suites.ts'

/**
 * The cross-site suite (`npm test -- embed`): the gateway and the sites that embed it on made-up
 * names, all on loopback. gateway.test is the gateway, shop.test a site on its allow-list,
 * evil.test one that is not; Chromium resolves the names to 127.0.0.1 and, with its default
 * settings, blocks third-party cookies (the suite proves it does before it relies on it).
 */
const PORT = Number(process.env.EMBED_PORT ?? 3179)
export const EMBED = {
  gateway: `http://gateway.test:${PORT}`,
  shop: `http://shop.test:${PORT + 1}`,
  evil: `http://evil.test:${PORT + 1}`,
  probe: `https://gateway.test:${PORT + 2}`,
}

export default defineConfig({
  ...PLAYWRIGHT_SUITE,
  testDir: 'tests/embed',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    ...chromiumUse([
      // nothing about cookies: Chromium's own default blocks them cross-site, and the suite's
      // first test proves it does before the others rely on it
      '--host-resolver-rules=MAP gateway.test 127.0.0.1, MAP shop.test 127.0.0.1, MAP evil.test 127.0.0.1',
    ]),
    ignoreHTTPSErrors: true,
  },
  webServer: [
    gatewayServer(PORT, 'tests/embed/.data', { SESSION_SECRET: 'embed-secret', CORS_ORIGINS: EMBED.shop }),
    {
      command: `node tests/embed/host-server.ts ${PORT + 1} ${PORT + 2} ${EMBED.gateway}`,
      url: `http://127.0.0.1:${PORT + 1}/blank.html`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
