/** Security headers (issue 10 item 9) on the console page, the API and the library files. */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from './helpers.ts'
import { API_POLICY } from '../../server/middleware/headers.ts'

describe('security headers', () => {
  let s: TestServer
  let dir: string
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-static-'))
    mkdirSync(join(dir, 'lib'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>')
    writeFileSync(join(dir, 'lib', 'tollgate.js'), 'export {}')
    s = await startServer('sqlite', { staticDir: dir })
  })
  after(async () => {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const get = (path: string) => s.app.request(`http://localhost${path}`)

  it('sends the console page with a CSP, nosniff and no framing by other sites', async () => {
    for (const path of ['/', '/token', '/setting']) {
      const res = await get(path)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
      assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN')
      const csp = res.headers.get('content-security-policy') ?? ''
      assert.match(csp, /script-src 'self'(;|$)/)
      assert.match(csp, /frame-ancestors 'self'/)
      assert.match(csp, /object-src 'none'/)
    }
  })

  it("allows the bot check's scripts only while it is on", async () => {
    await s.ctx.options.set('TurnstileSiteKey', 'site-key')
    await s.ctx.options.set('TurnstileCheckEnabled', 'true')
    try {
      assert.match((await get('/')).headers.get('content-security-policy') ?? '', /script-src 'self' https:\/\/challenges\.cloudflare\.com/)
    } finally {
      await s.ctx.options.set('TurnstileCheckEnabled', 'false')
    }
  })

  it('sends API answers with nosniff and a policy that lets them do nothing as a page', async () => {
    const res = await get('/api/status')
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
    assert.equal(res.headers.get('content-security-policy'), API_POLICY)
  })

  it('leaves the library files loadable from any site (no framing or page policy)', async () => {
    const res = await get('/lib/tollgate.js')
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
    assert.equal(res.headers.get('x-frame-options'), null)
    assert.equal(res.headers.get('content-security-policy'), null)
  })
})
