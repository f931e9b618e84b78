import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** Rows drawn above and below the visible ones, so a short scroll or a Tab never meets a gap. */
const OVERSCAN = 3
/** The height a row is taken to have until it has been drawn and measured, in px. */
const ESTIMATE = 48
/** Rows drawn before the scroller has a size (the first paint, a detached element). */
const FIRST_WINDOW = 30

export interface VirtualRows {
  /** the first row drawn and the one after the last */
  start: number
  end: number
  /** the blank space standing for the rows not drawn, above and below, in px */
  before: number
  after: number
  /** call after drawing: measures the drawn rows (each marked with data-index) */
  measure: () => void
}

/** The first index whose row ends below `y`, in `offsets` (offsets[i] = top of row i; length n + 1). */
function rowAt(offsets: Float64Array, y: number): number {
  let lo = 0
  let hi = offsets.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (offsets[mid]! <= y) lo = mid
    else hi = mid - 1
  }
  return Math.max(0, lo)
}

type Window = Omit<VirtualRows, 'measure'>

/** The rows to draw for the scroller's position, rows not measured yet taken to be `guess` px high. */
function windowOf(count: number, heights: number[], guess: number, el: HTMLElement | null): Window {
  const offsets = new Float64Array(count + 1)
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + (heights[i] ?? guess)
  const view = el?.clientHeight ?? 0
  const top = el && view > 0 ? el.scrollTop : 0
  const first = count ? rowAt(offsets, top) : 0
  const start = Math.max(0, first - OVERSCAN)
  let end = first
  if (view > 0) while (end < count && offsets[end]! < top + view) end++
  else end = Math.min(count, first + FIRST_WINDOW)
  end = Math.min(count, end + OVERSCAN)
  return { start, end, before: offsets[start]!, after: offsets[count]! - offsets[end]! }
}

/**
 * Measures the drawn rows (marked with data-index) into `heights`, and the first average into
 * `firstAverage` when there is none yet; true when anything changed.
 */
function measureRows(el: HTMLElement, heights: number[], firstAverage: { current: number | null }): boolean {
  let changed = false
  let sum = 0
  let seen = 0
  for (const row of el.querySelectorAll<HTMLElement>('[data-index]')) {
    const i = Number(row.dataset.index)
    const height = row.getBoundingClientRect().height
    sum += height
    seen++
    if (height > 0 && Math.abs((heights[i] ?? ESTIMATE) - height) > 0.5) {
      heights[i] = height
      changed = true
    }
  }
  if (firstAverage.current === null && seen > 0 && sum > 0) {
    firstAverage.current = sum / seen
    changed = true
  }
  return changed
}

/** Places the window again on scroll (on the next frame), and measures the drawn rows again on resize. */
function useFollowScroller(scroller: RefObject<HTMLElement | null>, place: () => void, measure: () => void) {
  const frame = useRef(0)
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const onScroll = () => {
      cancelAnimationFrame(frame.current)
      frame.current = requestAnimationFrame(place)
    }
    // the scroller's width (rows rewrap) or the table's height (a row unfolded, new rows drawn) changed:
    // measure the drawn rows on the next frame (never inside the observer's own callback)
    let measuring = 0
    const resize = new ResizeObserver(() => {
      cancelAnimationFrame(measuring)
      measuring = requestAnimationFrame(measure)
    })
    el.addEventListener('scroll', onScroll, { passive: true })
    resize.observe(el)
    if (el.firstElementChild) resize.observe(el.firstElementChild)
    return () => {
      cancelAnimationFrame(measuring)
      cancelAnimationFrame(frame.current)
      el.removeEventListener('scroll', onScroll)
      resize.disconnect()
    }
  }, [place, measure, scroller])
}

/**
 * Windowed rendering of a long list inside its own scroller: only the rows in view (and a few
 * around) are drawn, the others stand as blank space of their measured (or estimated) height.
 * Rows may differ in height and change it (details unfolded, cards on phones): the drawn ones are
 * measured after each render and on resize.
 */
export function useVirtualRows(count: number, scroller: RefObject<HTMLElement | null>): VirtualRows {
  const heights = useRef<number[]>([])
  const firstAverage = useRef<number | null>(null)
  const [win, setWin] = useState({ start: 0, end: Math.min(count, FIRST_WINDOW), before: 0, after: 0 })

  const place = useCallback(() => {
    // rows not drawn yet are taken to be as high as the first rows drawn were on average (fixed
    // then: a guess that moved with every row measured would move the window again and again)
    const next = windowOf(count, heights.current, firstAverage.current ?? ESTIMATE, scroller.current)
    setWin((w) => (w.start === next.start && w.end === next.end && w.before === next.before && w.after === next.after ? w : next))
  }, [count, scroller])

  const measure = useCallback(() => {
    const el = scroller.current
    if (!el) return
    if (measureRows(el, heights.current, firstAverage)) place()
  }, [place, scroller])

  // a new list (a search) forgets the measured heights of the old one
  useLayoutEffect(() => {
    if (count === 0) {
      heights.current = []
      firstAverage.current = null
    }
    place()
  }, [count, place])

  useFollowScroller(scroller, place, measure)

  return { ...win, measure }
}
