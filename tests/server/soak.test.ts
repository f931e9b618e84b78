/**
 * The short soak (issue 10): three server processes on one PostgreSQL and Redis behind a
 * round-robin proxy; option and channel changes reach every instance within a second, a session
 * (cookie or embed credential) made on one works on all and a logout on another ends it on all at once, concurrent
 * spending of one token never takes it below zero, and every answered request is billed once
 * across SIGKILL and restart rounds. The long version is `npm run soak` (scripts/soak.ts).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { soak } from '../../scripts/soak.ts'

describe(
  'several instances (short soak)',
  { skip: process.env.TEST_DATABASE_URL ? false : 'no PostgreSQL (TEST_DATABASE_URL unset)' },
  () => {
    it('follows changes within a second, shares sessions and their logout, never overspends, bills every answered request once across kills', async () => {
      const r = await soak({ rounds: 3, seconds: 1, port: Number(process.env.SOAK_PORT ?? 4331), log: () => undefined })
      assert.deepEqual(r.failures, [])
      assert.equal(r.kills, 3)
      assert.equal(r.sessions, 6, 'a cookie session and an embed credential per round')
      assert.ok(r.answered > 500, `answered ${r.answered}`)
      assert.ok(r.spendRemain >= 0)
    })
  },
)
