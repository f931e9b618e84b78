import { parentPort, workerData } from 'node:worker_threads'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'

/**
 * A console reader: its own read-only connection to the SQLite file (WAL, so it reads beside the
 * writers), answering SELECTs the request threads hand it (server/db/sqlite-read-split.ts).
 */
const db = new DatabaseSync(String(workerData.file), { readOnly: true })
db.exec('PRAGMA busy_timeout = 10000;')
const cache = new Map<string, StatementSync>()

parentPort!.on('message', (m: { id: number; sql: string; params: SQLInputValue[] }) => {
  try {
    let stmt = cache.get(m.sql)
    if (!stmt) {
      stmt = db.prepare(m.sql)
      if (cache.size > 500) cache.clear()
      cache.set(m.sql, stmt)
    }
    parentPort!.postMessage({ id: m.id, rows: stmt.all(...m.params) })
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) })
  }
})
