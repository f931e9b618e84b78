/**
 * The dashboard's stacked bar chart, drawn with uPlot. This module is the only one that imports
 * the chart library and is itself loaded with import() by the dashboard, so the library sits in
 * a chunk of its own that no other screen or element loads.
 */
import uPlot from 'uplot'
import uplotCss from 'uplot/dist/uPlot.min.css?inline'

/** uPlot's own CSS, for the shadow root the chart is drawn in. */
export const chartCss: string = uplotCss

interface ChartInput {
  /** one label per column */
  labels: string[]
  /** the legend's name for the column under the cursor */
  periodName: string
  /** bottom to top of the stack */
  series: Array<{ model: string; values: number[]; color: string }>
  width: number
  height: number
  /** axis text and grid lines */
  text: string
  grid: string
  font: string
  formatValue: (value: number) => string
  /** the y-axis labels for a set of ticks (defaults to formatValue on each) */
  formatTicks?: (ticks: number[]) => string[]
}

interface Chart {
  resize(width: number, height: number): void
  destroy(): void
}

/**
 * Draws the stacked bars: each model is a bar series of the running total up to it, drawn from
 * the top of the stack down so the lower models cover the upper ones. The legend shows each
 * model's own value for the column under the cursor.
 */
export function drawChart(target: HTMLElement, input: ChartInput): Chart {
  const n = input.labels.length
  const x = Array.from({ length: n }, (_, i) => i)
  const running: number[][] = []
  input.series.forEach((s, i) => running.push(s.values.map((v, j) => v + (i > 0 ? running[i - 1]![j]! : 0))))
  const order = input.series.map((_, i) => i).reverse()
  const bars = uPlot.paths.bars!({ size: [0.72, 72], align: 0, gap: 1 })

  const opts: uPlot.Options = {
    width: input.width,
    height: input.height,
    legend: { show: true, live: true },
    padding: [12, 28, 0, 4],
    cursor: { points: { show: false }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] },
    },
    axes: [
      {
        stroke: input.text,
        font: input.font,
        grid: { show: false },
        ticks: { stroke: input.grid },
        space: 72,
        incrs: [1, 2, 3, 4, 6, 8, 12, 24, 48, 96, 168, 336, 720],
        values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (input.labels[i] ?? '') : '')),
      },
      {
        stroke: input.text,
        font: input.font,
        grid: { stroke: input.grid, width: 1 },
        ticks: { stroke: input.grid },
        size: 64,
        values: (_u, splits) => (input.formatTicks ? input.formatTicks(splits) : splits.map((v) => input.formatValue(v))),
      },
    ],
    series: [
      { label: input.periodName, value: (_u, i) => (i == null ? '' : (input.labels[i] ?? '')) },
      ...order.map((i) => {
        const s = input.series[i]!
        return {
          label: s.model,
          stroke: s.color,
          fill: s.color,
          width: 0,
          paths: bars,
          points: { show: false },
          value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) =>
            idx == null ? '' : input.formatValue(s.values[idx] ?? 0),
        } satisfies uPlot.Series
      }),
    ],
  }
  const plot = new uPlot(opts, [x, ...order.map((i) => running[i]!)], target)
  return {
    resize: (width, height) => plot.setSize({ width, height }),
    destroy: () => plot.destroy(),
  }
}
