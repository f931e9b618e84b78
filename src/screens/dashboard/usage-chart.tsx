import { useEffect, useId, useRef, useState, type RefObject } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale, useT } from '../../i18n/t.ts'
import { $prefs } from '../../stores/prefs.ts'
import { chartColumns, periodLabel, type UsageSummary } from './usage-rules.ts'
import '@shoelace-style/shoelace/dist/components/skeleton/skeleton.js'
import '../../i18n/en/dashboard.ts'

type ChartModule = typeof import('./uplot-chart.ts')

/** Shoelace palettes for the models, in order; the last colour repeats for the rest. */
const PALETTE = ['sky', 'amber', 'emerald', 'violet', 'rose', 'teal', 'orange', 'indigo', 'lime', 'fuchsia', 'cyan', 'pink', 'gray']

/** The chart library loads once per page, on the first dashboard that draws a chart. */
let loading: Promise<ChartModule> | null = null
const loadChart = () =>
  (loading ??= import('./uplot-chart.ts').catch((e) => {
    loading = null
    throw e
  }))

interface ChartRefs {
  target: RefObject<HTMLDivElement | null>
  ruler: RefObject<HTMLDivElement | null>
}

/** Draws the chart into `target` once the library is there, again on new figures, locale or theme; follows the card's width. */
function useDrawing(
  chart: ChartModule | null,
  { target, ruler }: ChartRefs,
  summary: UsageSummary,
  formatValue: (quota: number) => string,
  formatTicks?: (ticks: number[]) => string[],
) {
  const t = useT()
  const locale = useLocale()
  const { theme } = useStore($prefs, { keys: ['theme'] })
  useEffect(() => {
    const el = target.current
    if (!chart || !el) return
    const css = getComputedStyle(el)
    const token = (name: string) => css.getPropertyValue(name).trim()
    const { starts, series } = chartColumns(summary)
    const lang = locale === 'zh' ? 'zh-CN' : 'en'
    // the plot's height comes from --tollgate-chart-height (the legend adds its own below)
    const height = () => Math.max(160, ruler.current?.clientHeight || 288)
    const drawn = chart.drawChart(el, {
      labels: starts.map((s) => periodLabel(s, summary.granularity, lang)),
      periodName: t('dashboard.period'),
      series: series.map((s, i) => ({ ...s, color: token(`--sl-color-${PALETTE[Math.min(i, PALETTE.length - 1)]}-500`) || '#0ea5e9' })),
      width: Math.max(200, el.clientWidth),
      height: height(),
      text: token('--tollgate-muted') || '#52525b',
      grid: token('--tollgate-border') || '#e4e4e7',
      font: `12px ${token('--sl-font-sans') || 'sans-serif'}`,
      formatValue,
      formatTicks,
    })
    // follow the width of the card (on the next frame, so the resize never feeds back into this observer)
    let width = el.clientWidth
    let frame = 0
    const resize = new ResizeObserver(() => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        if (el.clientWidth === width) return
        width = el.clientWidth
        drawn.resize(Math.max(200, width), height())
      })
    })
    resize.observe(el)
    return () => {
      cancelAnimationFrame(frame)
      resize.disconnect()
      drawn.destroy()
    }
  }, [chart, target, ruler, summary, locale, theme, formatValue, formatTicks, t])
}

/**
 * The stacked bar chart of the quota each model used per period. Screen readers get its summary;
 * the tables beside it hold the same figures.
 */
export function UsageChart({
  summary,
  formatValue,
  formatTicks,
  title,
}: {
  summary: UsageSummary
  /** the caption (the quota by model when absent) */
  title?: string
  formatValue: (quota: number) => string
  formatTicks?: (ticks: number[]) => string[]
}) {
  const t = useT()
  const target = useRef<HTMLDivElement>(null)
  const ruler = useRef<HTMLDivElement>(null)
  const [chart, setChart] = useState<ChartModule | null>(null)
  const [failed, setFailed] = useState(false)
  const titleId = useId()

  useEffect(() => {
    let live = true
    loadChart()
      .then((m) => live && setChart(m))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [])
  useDrawing(chart, { target, ruler }, summary, formatValue, formatTicks)

  return (
    <figure
      className="tg-dash__card tg-dash__chart"
      part="chart"
      aria-labelledby={titleId}
      data-chart={chart ? 'ready' : failed ? 'failed' : 'loading'}
    >
      <figcaption id={titleId} className="tg-dash__card-title">
        {title ?? t('dashboard.chartTitle')}
      </figcaption>
      {chart && <style>{chart.chartCss}</style>}
      {failed ? (
        <p className="tg-dash__note" role="status">
          {t('dashboard.chartFailed')}
        </p>
      ) : (
        <div
          className="tg-dash__plot"
          role="img"
          aria-label={t('dashboard.chartLabel', { granularity: t(`dashboard.${summary.granularity}`) })}
        >
          <div ref={ruler} className="tg-dash__ruler" aria-hidden="true"></div>
          {!chart && <sl-skeleton className="tg-dash__ruler-skeleton" effect="sheen"></sl-skeleton>}
          <div ref={target} className="tg-dash__canvas"></div>
        </div>
      )}
    </figure>
  )
}
