/**
 * The relay's periodic resync (channels, users and tokens read afresh every minute): one at a time,
 * and a stop waits for the one under way before the engine and the database close.
 */
import { describe, it, mock } from 'node:test'
import assert from 'node:assert/strict'
import { followChanges } from '../../server/relay/index.ts'
import type { RelayEngine } from '../../server/relay/engine.ts'

describe('relay resync', () => {
  it('runs one resync at a time and lets the one under way finish before the engine closes', async () => {
    mock.timers.enable({ apis: ['setInterval'] })
    try {
      const events: string[] = []
      let finish = () => {}
      let loads = 0
      const engine = {
        loadAll: () => {
          loads++
          events.push('resync started')
          return new Promise<void>((done) => (finish = done)).then(() => void events.push('resync done'))
        },
        close: async () => void events.push('engine closed'),
      } as unknown as RelayEngine
      const onClose: Array<() => Promise<void>> = []
      followChanges({ bus: { on: () => () => {} }, options: { onChange: () => () => {} }, onClose } as never, engine)
      mock.timers.tick(60_000)
      mock.timers.tick(60_000)
      assert.equal(loads, 1, 'a slow resync is not started again beside itself')
      const closing = Promise.all(onClose.map((fn) => fn()))
      await new Promise((r) => setImmediate(r))
      assert.deepEqual(events, ['resync started'], 'the stop waits')
      finish()
      await closing
      assert.deepEqual(events, ['resync started', 'resync done', 'engine closed'])
    } finally {
      mock.timers.reset()
    }
  })
})
