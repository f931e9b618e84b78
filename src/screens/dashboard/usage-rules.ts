import type { QuotaDataRow } from '../../api/types.ts'
import type { Breakdown } from '../../api/data.ts'
import { DAY, GRANULARITIES, HOUR } from '../../../domain/time.ts'

export type Granularity = (typeof GRANULARITIES)[number]

/** The site's default (DataExportDefaultTime), hour when unset or unknown (spec section 9). */
export function parseGranularity(value: string | null | undefined): Granularity {
  return GRANULARITIES.find((g) => g === value) ?? GRANULARITIES[0]
}

/**
 * The start (unix seconds) of the period holding `seconds`: the hour as the server buckets it,
 * or the local day, or the local week starting on Monday.
 */
function periodStart(seconds: number, granularity: Granularity): number {
  if (granularity === 'hour') return seconds - (((seconds % HOUR) + HOUR) % HOUR)
  const d = new Date(seconds * 1000)
  d.setHours(0, 0, 0, 0)
  if (granularity === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7))
  return Math.floor(d.getTime() / 1000)
}

/** The start of the period after the one starting at `start` (days and weeks in local time). */
function nextPeriod(start: number, granularity: Granularity): number {
  if (granularity === 'hour') return start + HOUR
  const d = new Date(start * 1000)
  d.setDate(d.getDate() + (granularity === 'week' ? 7 : 1))
  return Math.floor(d.getTime() / 1000)
}

/**
 * The range the dashboard opens with for a granularity: up to the end of the current hour, back
 * one day (hour), a week (day) or 30 days (week; the longest span a user may ask of their own data).
 */
export function defaultRange(granularity: Granularity, now: Date): { start: number; end: number } {
  const end = periodStart(Math.floor(now.getTime() / 1000), 'hour') + HOUR
  const span = granularity === 'hour' ? 25 * HOUR : granularity === 'day' ? 7 * DAY + HOUR : 30 * DAY
  return { start: end - span, end }
}

export interface Usage {
  count: number
  quota: number
  tokens: number
}

const zero = (): Usage => ({ count: 0, quota: 0, tokens: 0 })

function add(into: Usage, row: QuotaDataRow): void {
  into.count += Number(row.count) || 0
  into.quota += Number(row.quota) || 0
  into.tokens += Number(row.token_used) || 0
}

interface ModelUsage extends Usage {
  model: string
}

interface PeriodUsage extends Usage {
  start: number
  /** model → usage in this period, models in the overall order */
  models: ModelUsage[]
}

export interface UsageSummary {
  granularity: Granularity
  totals: Usage
  /** models by quota used, largest first */
  byModel: ModelUsage[]
  /** periods holding usage, oldest first */
  periods: PeriodUsage[]
}

/** Groups the hourly buckets by hour, day or week and by model, with the totals (`last`, the others of a breakdown, after every model). */
export function summarize(rows: readonly QuotaDataRow[], granularity: Granularity, last?: string): UsageSummary {
  const totals = zero()
  const models = new Map<string, Usage>()
  const periods = new Map<number, Map<string, Usage>>()
  for (const row of rows) {
    const model = row.model_name || '-'
    add(totals, row)
    let m = models.get(model)
    if (!m) models.set(model, (m = zero()))
    add(m, row)
    const start = periodStart(Number(row.created_at), granularity)
    let p = periods.get(start)
    if (!p) periods.set(start, (p = new Map()))
    let cell = p.get(model)
    if (!cell) p.set(model, (cell = zero()))
    add(cell, row)
  }
  const byModel = [...models]
    .map(([model, u]) => ({ model, ...u }))
    .sort(
      (a, b) =>
        Number(a.model === last) - Number(b.model === last) || b.quota - a.quota || b.count - a.count || a.model.localeCompare(b.model),
    )
  const order = byModel.map((m) => m.model)
  const periodList = [...periods]
    .sort(([a], [b]) => a - b)
    .map(([start, cells]) => {
      const sum = zero()
      const list: ModelUsage[] = []
      for (const model of order) {
        const cell = cells.get(model)
        if (!cell) continue
        sum.count += cell.count
        sum.quota += cell.quota
        sum.tokens += cell.tokens
        list.push({ model, ...cell })
      }
      return { start, ...sum, models: list }
    })
  return { granularity, totals, byModel, periods: periodList }
}

/** Most periods the chart fills with zeros between the first and the last; beyond it only periods with usage are drawn. */
const MAX_CHART_PERIODS = 2000

/**
 * The chart's columns: every period from the first to the last one with usage (empty ones as
 * zero), and per model the quota of each column.
 */
export function chartColumns(summary: UsageSummary): { starts: number[]; series: Array<{ model: string; values: number[] }> } {
  const { periods, granularity } = summary
  let starts = periods.map((p) => p.start)
  if (periods.length > 1) {
    const filled: number[] = []
    for (
      let s = periods[0]!.start;
      s <= periods[periods.length - 1]!.start && filled.length <= MAX_CHART_PERIODS;
      s = nextPeriod(s, granularity)
    )
      filled.push(s)
    if (filled.length <= MAX_CHART_PERIODS) starts = filled
  }
  const index = new Map(periods.map((p) => [p.start, p]))
  const series = summary.byModel.map(({ model }) => ({
    model,
    values: starts.map((s) => index.get(s)?.models.find((m) => m.model === model)?.quota ?? 0),
  }))
  return { starts, series }
}

/** How a period is named in the chart and the table. */
export function periodLabel(start: number, granularity: Granularity, locale: string): string {
  const d = new Date(start * 1000)
  if (granularity === 'hour')
    return new Intl.DateTimeFormat(locale, {
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(d)
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d)
}

/**
 * A breakdown's rows as buckets summarize() groups: the key's label in place of the model, the
 * others under `others`. Days and weeks come grouped at the viewer's offset: their rows are put
 * at noon of the period's first day, so a summer-time hour never moves them to the day before.
 */
export function breakdownRows(b: Breakdown, others: string): QuotaDataRow[] {
  const labels = new Map(b.top.map((k) => [k.key, k.label]))
  const shift = b.period === 'hour' ? 0 : 12 * HOUR
  return b.rows.map((r) => ({
    model_name: r.key === null ? others : (labels.get(r.key) ?? r.key),
    created_at: r.period + shift,
    count: r.count,
    quota: r.quota,
    token_used: r.token_used,
  }))
}
