import { Worker } from 'node:worker_threads'

export type Encoding = 'o200k_base' | 'cl100k_base'

/** o200k for the gpt-4o / o-series / gpt-4.1 / gpt-5 families, cl100k for everything else. */
export function encodingFor(model: string): Encoding {
  const m = model.toLowerCase()
  return /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d)/.test(m) ? 'o200k_base' : 'cl100k_base'
}

/**
 * Token counting in a worker thread, started on first use (server start stays fast and the
 * rank tables never block the event loop). Used only when an upstream reports no usage, or when
 * a balance is too tight for the cheap upper-bound estimate.
 */
export class Tokenizer {
  private worker: Worker | null = null
  private seq = 0
  private waiting = new Map<number, { resolve: (n: number[]) => void; reject: (e: Error) => void }>()

  private start(): Worker {
    if (this.worker) return this.worker
    const w = new Worker(new URL('./tokenizer-worker.ts', import.meta.url))
    w.unref()
    w.on('message', (m: { id: number; counts?: number[]; error?: string }) => {
      const p = this.waiting.get(m.id)
      if (!p) return
      this.waiting.delete(m.id)
      if (m.counts) p.resolve(m.counts)
      else p.reject(new Error(m.error ?? 'tokenizer failed'))
      if (this.waiting.size === 0) w.unref()
    })
    const fail = (err: Error) => {
      for (const p of this.waiting.values()) p.reject(err)
      this.waiting.clear()
      this.worker = null
    }
    w.on('error', fail)
    w.on('exit', () => fail(new Error('tokenizer worker stopped')))
    this.worker = w
    return w
  }

  /** Token count of each text. */
  count(model: string, texts: string[]): Promise<number[]> {
    if (texts.length === 0) return Promise.resolve([])
    const w = this.start()
    const id = ++this.seq
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      w.ref()
      w.postMessage({ id, encoding: encodingFor(model), texts })
    })
  }

  async total(model: string, texts: string[]): Promise<number> {
    let n = 0
    for (const c of await this.count(model, texts)) n += c
    return n
  }

  /** Loads both tables now (tests and the benchmark warm up with this). */
  async warm(): Promise<void> {
    await Promise.all([this.count('gpt-4o', ['warm']), this.count('gpt-3.5-turbo', ['warm'])])
  }

  async close(): Promise<void> {
    const w = this.worker
    this.worker = null
    if (w) await w.terminate()
  }
}
