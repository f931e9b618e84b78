import { Worker } from 'node:worker_threads'
import type { Fresh, PlainBatch } from './ledger-batch.ts'

/** Sends ledger batches to the writer thread and waits for each commit. */
export class SqliteWriter {
  private worker: Worker | null = null
  private seq = 0
  private waiting = new Map<number, { resolve: (f: Fresh | undefined) => void; reject: (e: Error) => void }>()
  private file: string

  constructor(file: string) {
    this.file = file
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const w = new Worker(new URL('./sqlite-writer-worker.ts', import.meta.url), { workerData: { file: this.file } })
    w.unref()
    w.on('message', (m: { id: number; ok: boolean; error?: string; fresh?: Fresh }) => {
      const p = this.waiting.get(m.id)
      if (!p) return
      this.waiting.delete(m.id)
      if (this.waiting.size === 0) w.unref()
      if (m.ok) p.resolve(m.fresh)
      else p.reject(new Error(m.error ?? 'write failed'))
    })
    const fail = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err)
      this.waiting.clear()
      if (this.worker === w) this.worker = null
    }
    w.on('error', fail)
    w.on('exit', () => fail(new Error('the SQLite writer thread stopped')))
    this.worker = w
    return w
  }

  private send(msg: { batch?: PlainBatch; close?: boolean }): Promise<Fresh | undefined> {
    const w = this.start()
    const id = ++this.seq
    return new Promise<Fresh | undefined>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      // held while a write is pending, so a stopping process waits for the commit
      w.ref()
      w.postMessage({ id, ...msg })
    })
  }

  async write(batch: PlainBatch): Promise<Fresh> {
    return (await this.send({ batch })) ?? { users: [], tokens: [] }
  }

  async close(): Promise<void> {
    const w = this.worker
    if (!w) return
    await this.send({ close: true }).catch(() => undefined)
    this.worker = null
    await w.terminate()
  }
}
