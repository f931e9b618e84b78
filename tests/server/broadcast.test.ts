import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freshPostgres } from './helpers.ts'

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const pgUrl = process.env.TEST_DATABASE_URL

async function redisUp(): Promise<boolean> {
  const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  try {
    await r.connect()
    await r.ping()
    return true
  } catch {
    return false
  } finally {
    r.disconnect()
  }
}

describe('several instances (PostgreSQL + Redis)', async () => {
  const ready = Boolean(pgUrl) && (await redisUp())
  it(
    'an option saved on one instance reaches the other at once',
    { skip: ready ? false : 'needs TEST_DATABASE_URL and Redis on 127.0.0.1:6379' },
    async () => {
      const db = await freshPostgres()
      const url = new URL(db.url)
      const dirs = [mkdtempSync(join(tmpdir(), 'tg-a-')), mkdtempSync(join(tmpdir(), 'tg-b-'))]
      const [a, b] = [
        await createServer(loadConfig({ DATA_DIR: dirs[0], DATABASE_URL: url.toString(), REDIS_URL: redisUrl }, { sessionSecret: 's' })),
        await createServer(loadConfig({ DATA_DIR: dirs[1], DATABASE_URL: url.toString(), REDIS_URL: redisUrl }, { sessionSecret: 's' })),
      ]
      try {
        const seen = new Promise<void>((resolve) => b.ctx.options.onChange((k, v) => k === 'SystemName' && v === 'Shared' && resolve()))
        const events: string[] = []
        b.ctx.bus.on((kind, id) => events.push(`${kind}:${id}`))
        await a.ctx.options.set('SystemName', 'Shared')
        a.ctx.bus.emit('tokens', 42)
        await Promise.race([seen, new Promise((_, rej) => setTimeout(() => rej(new Error('no broadcast within 3 s')), 3000))])
        for (let i = 0; i < 30 && !events.includes('tokens:42'); i++) await new Promise((r) => setTimeout(r, 50))
        assert.equal(b.ctx.options.get('SystemName'), 'Shared')
        assert.ok(events.includes('tokens:42'))
        const status = await (await b.app.request('http://localhost/api/status')).json()
        assert.equal(status.data.system_name, 'Shared')
      } finally {
        await a.close()
        await b.close()
        await db.drop()
        for (const d of dirs) rmSync(d, { recursive: true, force: true })
      }
    },
  )
})
