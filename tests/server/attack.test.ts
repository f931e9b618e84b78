/**
 * The short attack run (issue 10): the authorisation matrix over every /api route and role, the
 * bad-input fuzz over every `:id` and query parameter, and the CSRF rules over every write and
 * state-changing GET. `npm run attack` is the long run (every query name on its own, both databases).
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { assertRefused, dialects, startServer, type TestServer } from './helpers.ts'
import { apiRoutes, authzMatrix, csrf, fuzz, newFigures } from './attack-kit.ts'

describe('attack (short)', () => {
  let s: TestServer
  before(async () => {
    s = await startServer('sqlite')
  })
  after(() => s.close())

  it('gives no role more than its own and no lower role anything, on every route', async () => {
    const f = newFigures()
    const routes = apiRoutes(s)
    assert.ok(routes.length > 100, `only ${routes.length} routes found`)
    await authzMatrix(s, routes, f)
    assert.deepEqual(f.failures, [])
  })

  it('answers every bad id and query value without a 500', async () => {
    const f = newFigures()
    await fuzz(s, apiRoutes(s), f)
    assert.deepEqual(f.failures, [])
  })

  it('refuses every forged write and link-reached state-changing GET', async () => {
    const f = newFigures()
    await csrf(s, apiRoutes(s), f)
    assert.deepEqual(f.failures, [])
  })
})

for (const dialect of dialects) {
  describe(`NUL characters (${dialect}; found by the long attack run on PostgreSQL)`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
    })
    after(() => s.close())

    it('refuses a NUL in a query value or a JSON string, naming the field, never a 500', async () => {
      const root = await s.root()
      for (const path of ['/api/log/?username=a%00b', '/api/token/search?keyword=%00', '/api/user/search?keyword=x&%00=1']) {
        assertRefused(await root.get(path), path)
      }
      assert.equal((await root.get('/api/log/?username=a%00b')).body.data.field, 'username')
      const put = await root.put('/api/user/self', { display_name: 'a\u0000b' })
      assertRefused(put, 'body', 'display_name')
      assert.match(put.body.message, /must not contain a NUL character/)
      assert.equal((await root.get('/api/user/self')).body.data.display_name, 'Root User')
    })
  })
}
