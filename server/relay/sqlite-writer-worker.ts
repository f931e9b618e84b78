import { parentPort, workerData } from 'node:worker_threads'
import { DatabaseSync } from 'node:sqlite'
import { writeBatch } from './sqlite-batch.ts'
import type { PlainBatch } from './ledger-batch.ts'

/**
 * The ledger's SQLite writer, on its own thread and connection, so a batch of inserts never
 * stalls the event loop that relays requests.
 */
const db = new DatabaseSync(String(workerData.file))
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000;')

parentPort!.on('message', (m: { id: number; batch?: PlainBatch; close?: boolean }) => {
  if (m.close) {
    db.close()
    parentPort!.postMessage({ id: m.id, ok: true })
    return
  }
  try {
    const fresh = writeBatch(db, m.batch!)
    parentPort!.postMessage({ id: m.id, ok: true, fresh })
  } catch (err) {
    parentPort!.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) })
  }
})
