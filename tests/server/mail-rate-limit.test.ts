/** The mail calls (verification, reset_password, reset) count against the critical rate limit. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, type TestServer } from './helpers.ts'

describe('mail calls are rate limited as critical', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite', { criticalRateLimit: 2, criticalRateWindowSeconds: 600 })
  })
  after(() => s.close())

  it('answers 429 after the critical limit', async () => {
    await s.anon.get('/api/verification?email=bad')
    await s.anon.get('/api/reset_password?email=bad')
    assert.equal((await s.anon.post('/api/user/reset', { email: 'a@example.com', token: 'x' })).status, 429)
    assert.equal((await s.anon.get('/api/verification?email=bad')).status, 429)
  })
})
