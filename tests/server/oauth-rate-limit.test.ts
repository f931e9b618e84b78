/** The OAuth calls count against the critical rate limit, shared by all of them. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, type TestServer } from './helpers.ts'

describe('oauth calls are rate limited as critical', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite', { criticalRateLimit: 2, criticalRateWindowSeconds: 600 })
  })
  after(() => s.close())

  it('answers 429 after the critical limit', async () => {
    await s.anon.get('/api/oauth/state')
    await s.anon.get('/api/oauth/wechat?code=x')
    assert.equal((await s.anon.get('/api/oauth/telegram/login?id=1')).status, 429)
    assert.equal((await s.anon.get('/api/oauth/state')).status, 429)
  })
})
