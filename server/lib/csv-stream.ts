/**
 * A CSV file streamed in constant memory: rows are read in keyset batches only when the reader
 * asks for more (a pull stream with no queue of its own), so a slow download holds one batch at
 * most, whatever the size of the table.
 */

/** Rows per database read. */
export const CSV_BATCH = 1000

export type Cell = string | number

/** A cell as CSV: quoted when it must be, and text a spreadsheet would run as a formula made inert. */
export function csvCell(value: Cell): string {
  if (typeof value === 'number') return String(value)
  const s = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}

export const csvLine = (cells: Cell[]) => `${cells.map(csvCell).join(',')}\r\n`

export interface CsvSource<R extends { id: number }> {
  header: string[]
  cells: (row: R) => Cell[]
  /** up to `size` rows with ids below `beforeId`, highest first */
  batch: (beforeId: number, size: number) => Promise<R[]>
  /** told the size of each batch read (tests count how far the reads run ahead of the reader) */
  onBatch?: (rows: number) => void
}

/** The CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese right) as a byte stream. */
export function csvStream<R extends { id: number }>(src: CsvSource<R>, size = CSV_BATCH): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let beforeId = Number.MAX_SAFE_INTEGER
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true
          controller.enqueue(encoder.encode(`\ufeff${csvLine(src.header)}`))
          return
        }
        const rows = await src.batch(beforeId, size)
        src.onBatch?.(rows.length)
        if (rows.length) {
          controller.enqueue(encoder.encode(rows.map((r) => csvLine(src.cells(r))).join('')))
          beforeId = rows[rows.length - 1]!.id
        }
        if (rows.length < size) controller.close()
      },
    },
    { highWaterMark: 0 },
  )
}
