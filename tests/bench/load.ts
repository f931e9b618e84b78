/** What both benchmarks' load generators share: one timed request, and a run's load from its timings. */
import { Pool } from 'undici'

/** One case's load: requests per second, latencies (ms), errors and Tollgate's CPU per request. */
export interface Load {
  stream: boolean
  concurrency: number
  rps: number
  p50: number
  p99: number
  ttfb50: number
  ttfb99: number
  errors: number
  count: number
  /** Tollgate CPU microseconds per measured request (all threads) */
  cpu: number
}

/** A keep-alive pool of `connections` to origin, one request at a time on each. */
export function benchPool(origin: string, connections: number): Pool {
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 })
}

/** Latency and time to first byte (ms) of one POST read to its end; null when it failed or was not a 200. */
export async function timedRequest(
  pool: Pool,
  req: { path: string; body: string; headers: Record<string, string> },
): Promise<{ lat: number; ttfb: number } | null> {
  const t0 = performance.now()
  let first = 0
  try {
    const res = await pool.request({ path: req.path, method: 'POST', headers: req.headers, body: req.body })
    for await (const _ of res.body) {
      if (!first) first = performance.now()
    }
    if (res.statusCode !== 200) return null
  } catch {
    return null
  }
  const t1 = performance.now()
  return { lat: t1 - t0, ttfb: (first || t1) - t0 }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** A run's load from its measured requests' timings over `seconds`, and Tollgate's CPU microseconds (NaN unknown). */
export function loadOf(o: {
  stream: boolean
  concurrency: number
  lat: number[]
  ttfb: number[]
  errors: number
  seconds: number
  cpu: number
}): Load {
  const l = Float64Array.from(o.lat).sort()
  const t = Float64Array.from(o.ttfb).sort()
  return {
    stream: o.stream,
    concurrency: o.concurrency,
    rps: o.lat.length / o.seconds,
    p50: percentile(l, 50),
    p99: percentile(l, 99),
    ttfb50: percentile(t, 50),
    ttfb99: percentile(t, 99),
    errors: o.errors,
    count: o.lat.length,
    cpu: o.cpu / Math.max(1, o.lat.length),
  }
}
