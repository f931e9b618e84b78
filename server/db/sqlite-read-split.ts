import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely'
import { SqliteDialect, type SqliteDialectConfig } from 'kysely'
import { bindable } from './sqlite-adapter.ts'

interface Slot {
  w: Worker
  /** queries sent and not yet answered */
  busy: number
}
interface Waiting {
  resolve: (rows: unknown[]) => void
  reject: (e: Error) => void
  slot: Slot
}

/** Reader threads, each with a read-only connection; a query goes to the least busy one. */
class Readers {
  private workers: Slot[] = []
  private waiting = new Map<number, Waiting>()
  private seq = 0
  private readonly file: string
  private readonly size: number

  constructor(file: string, size: number) {
    this.file = file
    this.size = size
  }

  private slot(): Slot {
    if (this.workers.length < this.size && this.workers.every((s) => s.busy > 0)) {
      const w = new Worker(new URL('./sqlite-reader-worker.ts', import.meta.url), { workerData: { file: this.file } })
      w.unref()
      const slot: Slot = { w, busy: 0 }
      w.on('message', (m: { id: number; rows?: unknown[]; error?: string }) => this.answer(m))
      w.on('error', (err: Error) => this.fail(slot, err))
      w.on('exit', () => this.fail(slot, new Error('a SQLite reader thread stopped')))
      this.workers.push(slot)
      return slot
    }
    return this.workers.reduce((a, b) => (b.busy < a.busy ? b : a))
  }

  private answer(m: { id: number; rows?: unknown[]; error?: string }): void {
    const p = this.waiting.get(m.id)
    if (!p) return
    this.waiting.delete(m.id)
    if (--p.slot.busy === 0) p.slot.w.unref()
    if (m.error !== undefined) p.reject(new Error(m.error))
    else p.resolve(m.rows ?? [])
  }

  private fail(slot: Slot, err: Error): void {
    this.workers = this.workers.filter((s) => s !== slot)
    for (const [id, p] of this.waiting) {
      if (p.slot !== slot) continue
      this.waiting.delete(id)
      p.reject(err)
    }
  }

  read(sql: string, params: readonly unknown[]): Promise<unknown[]> {
    const slot = this.slot()
    const id = ++this.seq
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, slot })
      if (slot.busy++ === 0) slot.w.ref()
      slot.w.postMessage({ id, sql, params: params.map(bindable) })
    })
  }

  async close(): Promise<void> {
    const all = this.workers
    this.workers = []
    await Promise.all(all.map((s) => s.w.terminate()))
  }
}

/**
 * A connection as Kysely sees it: SELECTs outside a transaction go to a reader thread, so a heavy
 * console query never holds the event loop the relay runs on; everything else (writes, and every
 * statement of a transaction) runs on the main connection under its driver's lock. A write commits
 * before its promise resolves, so a read after it (same request or not) sees it.
 */
class SplitConnection implements DatabaseConnection {
  /** the main connection, while this connection is inside a transaction */
  tx: DatabaseConnection | null = null
  private readonly split: SplitDriver

  constructor(split: SplitDriver) {
    this.split = split
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (this.tx) return this.tx.executeQuery<R>(q)
    if (q.query.kind === 'SelectQueryNode') return { rows: (await this.split.readers.read(q.sql, q.parameters)) as R[] }
    return this.split.onMain((c) => c.executeQuery<R>(q))
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite')
  }
}

/** Kysely's SQLite driver with the console's reads moved to reader threads (see SplitConnection). */
class SplitDriver implements Driver {
  readonly readers: Readers
  private readonly main: Driver

  constructor(main: Driver, readers: Readers) {
    this.main = main
    this.readers = readers
  }

  init(): Promise<void> {
    return this.main.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SplitConnection(this)
  }

  async releaseConnection(): Promise<void> {}

  async onMain<T>(fn: (c: DatabaseConnection) => Promise<T>): Promise<T> {
    const c = await this.main.acquireConnection()
    try {
      return await fn(c)
    } finally {
      await this.main.releaseConnection(c)
    }
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as SplitConnection
    c.tx = await this.main.acquireConnection()
    try {
      await this.main.beginTransaction(c.tx, settings)
    } catch (err) {
      await this.end(c)
      throw err
    }
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as SplitConnection
    try {
      await this.main.commitTransaction(c.tx!)
    } finally {
      await this.end(c)
    }
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as SplitConnection
    try {
      await this.main.rollbackTransaction(c.tx!)
    } finally {
      await this.end(c)
    }
  }

  private async end(c: SplitConnection): Promise<void> {
    const tx = c.tx
    c.tx = null
    if (tx) await this.main.releaseConnection(tx)
  }

  async destroy(): Promise<void> {
    await this.readers.close()
    await this.main.destroy()
  }
}

/** SQLite on a file with reader threads for SELECTs; `readers` says how many at most. */
export class SplitSqliteDialect extends SqliteDialect {
  readonly readers: Readers

  constructor(config: SqliteDialectConfig, file: string, readers = Math.min(2, availableParallelism())) {
    super(config)
    this.readers = new Readers(file, readers)
  }

  override createDriver(): Driver {
    return new SplitDriver(super.createDriver(), this.readers)
  }
}
