import { parentPort, workerData } from 'node:worker_threads'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/**
 * The console's reads give way to the relay when both want a core: on Linux, where a thread has
 * its own nice value, this thread runs 10 steps nicer than the request thread. Elsewhere, or
 * where it is refused, the thread keeps the process's priority.
 */
const READER_NICE = 10
try {
  const tid = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))
  if (tid) setPriority(Number(tid[1]), Math.min(19, getPriority(Number(tid[1])) + READER_NICE))
} catch {
  /* not Linux, or not allowed: the reads run at the process's priority */
}

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
