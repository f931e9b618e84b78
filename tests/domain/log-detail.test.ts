import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { LOG_DETAIL_TYPE, logDetailOther, logDetailParams, readLogDetail, type LogDetail } from '../../domain/log-detail.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'

describe('log details', () => {
  it('round-trips a detail through the row', () => {
    const detail: LogDetail = { kind: 'topup.redeemed', quota: 25_000_000, code_id: 10 }
    assert.deepEqual(readLogDetail(logDetailOther(detail)), detail)
    assert.deepEqual(logDetailParams(detail), { quota: 25_000_000, code_id: 10 })
    assert.equal(LOG_DETAIL_TYPE[detail.kind], LOG_TYPE.topup)
  })

  it('reads no detail from rows without one, or with one of a kind it does not know', () => {
    for (const other of [
      '',
      '{',
      'null',
      '[]',
      '{"model_ratio":2}',
      '{"detail":null}',
      '{"detail":{"kind":5}}',
      '{"detail":{"kind":"toString"}}',
    ]) {
      assert.equal(readLogDetail(other), null, other)
    }
  })
})
