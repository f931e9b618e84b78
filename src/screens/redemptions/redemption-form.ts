import type { Redemption } from '../../api/types.ts'

/** Spec sections 5 and 9: a new code is worth 100000 quota, one at a time, and has no name yet. */
export const DEFAULT_REDEMPTION = { name: '', quota: '100000', count: '1' } as const

/** Quota presets of spec section 9 (500000 quota is 1 USD). */
export const QUOTA_PRESETS: ReadonlyArray<{ quota: number; label: string }> = [
  { quota: 500000, label: '1$' },
  { quota: 5000000, label: '10$' },
  { quota: 25000000, label: '50$' },
  { quota: 50000000, label: '100$' },
  { quota: 250000000, label: '500$' },
  { quota: 500000000, label: '1000$' },
]

export interface RedemptionForm {
  name: string
  quota: string
  count: string
}

export const int = (text: string) => {
  const n = parseInt(text, 10)
  return Number.isNaN(n) ? 0 : n
}

/** The create body, or null when the name is empty (the form then does nothing, spec section 5). */
export function createBody(form: RedemptionForm): { name: string; quota: number; count: number } | null {
  const name = form.name.trim()
  if (!name) return null
  return { name, quota: int(form.quota), count: int(form.count) }
}

/** Spec section 4: edit only an unused code; enable is off for a used one. */
export const canEdit = (r: Pick<Redemption, 'status'>) => r.status === 1
export const canEnable = (r: Pick<Redemption, 'status'>) => r.status !== 3

/** The generated codes as the text file the create offers: one per line, named after the name. */
export function codesFile(name: string, codes: readonly string[]): { fileName: string; blob: Blob } {
  return { fileName: `${name}.txt`, blob: new Blob([codes.join('\n')], { type: 'text/plain;charset=utf-8' }) }
}
