import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Charge } from './pending-batch.ts'

/** A journal line: one settled request (or refund), numbered within the generation (one process run) that wrote it. */
export type JournalEntry = Charge & { gen: string; seq: number }

/**
 * The ledger's append-only journal: one line per settled request, written with a plain `write`
 * (no database, microseconds) before the answer completes, so a SIGKILL between the answer and the
 * next batch loses nothing. Each batch gets files of its own: the ledger rotates the journal when
 * it takes its pending batch, and deletes the batch's files once the batch commits. The batch
 * records the highest entry number it applied per generation in the same transaction
 * (server/db/ledger-journal.ts), so replaying a file whose batch committed just before a crash
 * adds nothing twice.
 *
 * Files are `<dir>/<name>.<generation>.<n>.jsonl`; `name` tells instances that share a data
 * directory apart (each replays only its own).
 */
export class Journal {
  readonly gen = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  private seq = 0
  private part = 0
  private fd: number | null = null
  private file = ''
  private readonly dir: string
  private readonly name: string

  constructor(dir: string, name: string) {
    this.dir = dir
    this.name = name
    mkdirSync(dir, { recursive: true })
  }

  /** Appends a settled request or a refund; returns its entry number. */
  append(charge: Charge): number {
    if (this.fd === null) {
      this.file = join(this.dir, `${this.name}.${this.gen}.${++this.part}.jsonl`)
      this.fd = openSync(this.file, 'a')
    }
    const seq = ++this.seq
    writeSync(this.fd, JSON.stringify({ gen: this.gen, seq, ...charge }) + '\n')
    return seq
  }

  /** Closes the current file and returns its path (null when nothing was written since the last rotate). */
  rotate(): string | null {
    if (this.fd === null) return null
    closeSync(this.fd)
    this.fd = null
    return this.file
  }

  /** The files this instance's earlier runs left behind (their batches may not have committed). */
  leftovers(): string[] {
    const prefix = `${this.name}.`
    return readdirSync(this.dir)
      .filter((f) => f.startsWith(prefix) && f.endsWith('.jsonl') && !f.startsWith(`${prefix}${this.gen}.`))
      .sort()
      .map((f) => join(this.dir, f))
  }

  /** The entries of a file; a line cut short by the crash is skipped. */
  static read(file: string): JournalEntry[] {
    const out: JournalEntry[] = []
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue
      try {
        out.push(JSON.parse(line) as JournalEntry)
      } catch {
        /* the last line of a process killed mid-write */
      }
    }
    return out
  }

  remove(files: readonly string[]): void {
    for (const f of files) {
      try {
        unlinkSync(f)
      } catch {
        /* already gone */
      }
    }
  }

  /** Closes the file; entries not yet in a committed batch stay for the next start to replay. */
  close(): void {
    this.rotate()
  }
}
