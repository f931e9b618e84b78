import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { DatabaseSync } from 'node:sqlite'
import fc from 'fast-check'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { SECONDS_MAX } from '../../domain/time.ts'
import {
  effectiveTokenStatus,
  expiryProblem,
  modelLimitsProblem,
  NEVER_EXPIRES,
  remainQuotaProblem,
  tokenLimitSql,
  tokenLimitStatus,
  tokenNameProblem,
  toggleTarget,
} from '../../domain/token-rules.ts'

const NOW = 1_800_000_000

describe('the token expiry and exhaustion rule', () => {
  it('expires a token whose time has passed; -1 never expires', () => {
    const t = { unlimited_quota: false, remain_quota: 10 }
    assert.equal(tokenLimitStatus({ ...t, expired_time: NEVER_EXPIRES }, NOW), null)
    assert.equal(tokenLimitStatus({ ...t, expired_time: NOW }, NOW), null, 'the expiry second itself is still usable')
    assert.equal(tokenLimitStatus({ ...t, expired_time: NOW - 1 }, NOW), TOKEN_STATUS.expired)
  })

  it('exhausts a limited token with no quota left; an unlimited one never', () => {
    const t = { expired_time: NEVER_EXPIRES }
    assert.equal(tokenLimitStatus({ ...t, unlimited_quota: false, remain_quota: 0 }, NOW), TOKEN_STATUS.exhausted)
    assert.equal(tokenLimitStatus({ ...t, unlimited_quota: 0, remain_quota: -5 }, NOW), TOKEN_STATUS.exhausted)
    assert.equal(tokenLimitStatus({ ...t, unlimited_quota: true, remain_quota: -5 }, NOW), null)
    assert.equal(tokenLimitStatus({ ...t, unlimited_quota: 1, remain_quota: 0 }, NOW), null)
  })

  it('says expired before exhausted, and leaves a token that is not enabled as it is', () => {
    const both = { expired_time: NOW - 10, unlimited_quota: false, remain_quota: 0 }
    assert.equal(tokenLimitStatus(both, NOW), TOKEN_STATUS.expired)
    for (const status of [TOKEN_STATUS.disabled, TOKEN_STATUS.expired, TOKEN_STATUS.exhausted, 7]) {
      assert.equal(effectiveTokenStatus({ ...both, status }, NOW), status)
    }
    assert.equal(effectiveTokenStatus({ ...both, status: TOKEN_STATUS.enabled }, NOW), TOKEN_STATUS.expired)
    assert.equal(effectiveTokenStatus({ expired_time: -1, unlimited_quota: 1, remain_quota: 0, status: 1 }, NOW), TOKEN_STATUS.enabled)
  })

  it('says the same thing in SQL as in code, row by row (the guarded writes use the SQL form)', () => {
    const db = new DatabaseSync(':memory:')
    db.exec(
      'CREATE TABLE tokens (id INTEGER PRIMARY KEY, expired_time INTEGER NOT NULL, unlimited_quota INTEGER NOT NULL, remain_quota INTEGER NOT NULL)',
    )
    const insert = db.prepare('INSERT INTO tokens (id, expired_time, unlimited_quota, remain_quota) VALUES (?, ?, ?, ?)')
    const bound = tokenLimitSql('?')
    const expired = db.prepare(`SELECT (${bound.expired}) AS hit FROM tokens WHERE id = ?`)
    const row = fc.record({
      expired_time: fc.oneof(
        fc.constant(NEVER_EXPIRES),
        fc.integer({ min: NOW - 5, max: NOW + 5 }),
        fc.integer({ min: 1, max: SECONDS_MAX }),
      ),
      unlimited_quota: fc.constantFrom(0, 1),
      remain_quota: fc.integer({ min: -3, max: 3 }),
    })
    let id = 0
    fc.assert(
      fc.property(row, fc.integer({ min: NOW - 5, max: NOW + 5 }), (r, now) => {
        id++
        insert.run(id, r.expired_time, r.unlimited_quota, r.remain_quota)
        const literal = tokenLimitSql(now)
        const sqlSays = (cond: string) =>
          (db.prepare(`SELECT (${cond}) AS hit FROM tokens WHERE id = ?`).get(id) as { hit: number }).hit === 1
        const code = tokenLimitStatus(r, now)
        const sqlExpired = sqlSays(literal.expired)
        const sqlExhausted = sqlSays(literal.exhausted)
        assert.equal(sqlExpired, code === TOKEN_STATUS.expired)
        assert.equal(!sqlExpired && sqlExhausted, code === TOKEN_STATUS.exhausted)
        // the bound form (prepared once, now as a parameter) is the same condition
        assert.equal((expired.get(now, id) as { hit: number }).hit === 1, sqlExpired)
      }),
      { numRuns: 300, seed: 20261122 },
    )
    db.close()
  })

  it('puts only a whole number of seconds into SQL', () => {
    assert.throws(() => tokenLimitSql(1.5))
    assert.throws(() => tokenLimitSql(Number.NaN))
    assert.throws(() => tokenLimitSql('1; DROP TABLE tokens' as unknown as number))
    assert.match(tokenLimitSql(NOW).expired, new RegExp(`< ${NOW}$`))
  })

  it('toggles an enabled token off and any other on', () => {
    assert.deepEqual(toggleTarget(TOKEN_STATUS.enabled), { action: 'disable', next: TOKEN_STATUS.disabled })
    for (const s of [2, 3, 4, 0]) assert.deepEqual(toggleTarget(s), { action: 'enable', next: TOKEN_STATUS.enabled })
  })
})

describe('the token form rules', () => {
  it('needs a name of at most 30 characters', () => {
    assert.equal(tokenNameProblem('  ')?.id, 'token.nameMissing')
    assert.equal(tokenNameProblem('x'.repeat(30)), null)
    assert.deepEqual(tokenNameProblem(` ${'x'.repeat(31)} `), { id: 'token.nameTooLong', params: { max: 30 } })
  })

  it('takes -1 or a unix second up to the year 9999 as the expiry, nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: SECONDS_MAX }), (s) => expiryProblem(s) === null),
      { seed: 1 },
    )
    assert.equal(expiryProblem(NEVER_EXPIRES), null)
    for (const bad of [0, -2, 1.5, SECONDS_MAX + 1, Number.NaN, Number.POSITIVE_INFINITY])
      assert.equal(expiryProblem(bad)?.id, 'token.expiryInvalid')
  })

  it('takes a whole remaining quota from 0', () => {
    assert.equal(remainQuotaProblem(0), null)
    assert.equal(remainQuotaProblem(500000), null)
    for (const bad of [-1, 0.5, Number.NaN, 1e16]) assert.equal(remainQuotaProblem(bad)?.id, 'token.quotaInvalid')
  })

  it('keeps the model limits within 1024 characters', () => {
    assert.equal(modelLimitsProblem('a,'.repeat(512).slice(0, 1024)), null)
    assert.equal(modelLimitsProblem('a'.repeat(1025))?.id, 'token.modelLimitsTooLong')
  })
})
