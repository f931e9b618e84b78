import type { BucketDelta } from '../db/quota-data.ts'
import { mergeBuckets } from './pending-batch.ts'

/**
 * The mark of a generation's entries whose dashboard buckets are written (`buckets:<gen>`), beside
 * the mark of those whose charges are (`<gen>`): the two are written at different times.
 */
export const bucketsMark = (gen: string) => `buckets:${gen}`

/** What one batch writes of the held buckets: the buckets, and the marks of the entries they cover. */
export interface BucketsTaken {
  buckets: Map<string, BucketDelta>
  marks: Array<[string, number]>
}

/**
 * The dashboard's buckets between their writes: as the family's gateways do, they are written
 * every DataExportInterval minutes (and on an explicit flush: shutdown, idle()), not with every
 * batch. Unlike theirs, a crash loses none of them: the journal files of the requests they hold
 * are kept until they are written (with their `buckets:` marks), and a replay adds what they held.
 */
export class HeldBuckets {
  private buckets = new Map<string, BucketDelta>()
  /** the journal files of committed batches whose buckets are held, and the entries those cover */
  private files: string[] = []
  private marks = new Map<string, number>()
  private writtenAt = Date.now()

  get size(): number {
    return this.buckets.size
  }

  /** Whether the held buckets go with the next batch: on an explicit flush, or `minutes` after their last write. */
  due(force: boolean, minutes: number): boolean {
    return force || Date.now() - this.writtenAt >= Math.max(1, minutes) * 60_000
  }

  /** Holds a batch's buckets; when due, hands every held bucket over, with the marks of the entries behind them. */
  take(from: Map<string, BucketDelta>, batchMarks: ReadonlyMap<string, number>, due: boolean): BucketsTaken {
    mergeBuckets(this.buckets, from)
    if (!due) return { buckets: new Map(), marks: [] }
    const buckets = this.buckets
    this.buckets = new Map()
    this.writtenAt = Date.now()
    const covered = new Map(this.marks)
    for (const [g, n] of batchMarks) covered.set(g, Math.max(covered.get(g) ?? 0, n))
    return { buckets, marks: [...covered].map(([g, n]) => [bucketsMark(g), n]) }
  }

  /**
   * After a batch commits: with the buckets written, every held journal file may go (returned for
   * deletion); otherwise the batch's files stay until its buckets are written.
   */
  committed(wrote: boolean, files: readonly string[], batchMarks: ReadonlyMap<string, number>): string[] {
    if (wrote) {
      const gone = [...this.files, ...files]
      this.files = []
      this.marks.clear()
      return gone
    }
    this.files.push(...files)
    for (const [g, n] of batchMarks) this.marks.set(g, Math.max(this.marks.get(g) ?? 0, n))
    return []
  }

  /** A batch that carried buckets failed: they went back to pending, and stay due for the retry. */
  failed(): void {
    this.writtenAt = 0
  }
}
