/**
 * The front doors' load, interleaved: every door of a case takes turns in short slices (250 ms),
 * each slice running the case's concurrency on its own warm connection pool and waiting for its
 * last answer before the next door's slice starts. A door and chat completions thus share the
 * machine's weather (a host's noisy neighbour, a WAL checkpoint, a major GC): run one after the
 * other for seconds each, the same door measured ±15% from round to round on a 2 vCPU machine,
 * which is the size of the target itself.
 */
import { doorRequest, type Door } from './doors.ts'
import { benchPool, loadOf, timedRequest, type Load } from './load.ts'

const SLICE_MS = 250

interface Tally {
  lat: number[]
  ttfb: number[]
  errors: number
  /** milliseconds of the slices, each from its first request to its last answer */
  ms: number
  /** Tollgate CPU microseconds over the slices */
  cpu: number
}

/**
 * Runs each door for `seconds` in all, in slices taking turns (the first slice goes to door
 * `first`, so rounds can rotate who starts), after `warmup` seconds each; returns each door's load.
 */
export async function interleaved(o: {
  origin: string
  key: string
  doors: readonly Door[]
  stream: boolean
  concurrency: number
  seconds: number
  warmup: number
  first: number
  cpu: () => Promise<number>
}): Promise<Map<Door, Load>> {
  const pools = o.doors.map(() => benchPool(o.origin, o.concurrency))
  const requests = o.doors.map((d) => doorRequest(d, o.key, o.stream))
  const tallies: Tally[] = o.doors.map(() => ({ lat: [], ttfb: [], errors: 0, ms: 0, cpu: 0 }))

  /** door i's concurrency for ms milliseconds, then its last answers; recorded into tally when given */
  const slice = async (i: number, ms: number, tally: Tally | null) => {
    const cpu0 = tally ? await o.cpu() : 0
    const t0 = performance.now()
    const until = t0 + ms
    const worker = async () => {
      while (performance.now() < until) {
        const r = await timedRequest(pools[i], requests[i])
        if (!tally) continue
        if (!r) tally.errors++
        else {
          tally.lat.push(r.lat)
          tally.ttfb.push(r.ttfb)
        }
      }
    }
    await Promise.all(Array.from({ length: o.concurrency }, worker))
    if (!tally) return
    tally.ms += performance.now() - t0
    tally.cpu += (await o.cpu()) - cpu0
  }

  const n = o.doors.length
  for (let i = 0; i < n; i++) await slice(i, o.warmup * 1000, null)
  const turns = Math.max(1, Math.round((o.seconds * 1000) / SLICE_MS))
  for (let t = 0; t < turns; t++)
    for (let j = 0; j < n; j++) {
      // the order turns with every slice too, so no door always runs right after the same one
      const i = (o.first + t + j) % n
      await slice(i, SLICE_MS, tallies[i])
    }
  await Promise.all(pools.map((p) => p.close()))

  const out = new Map<Door, Load>()
  o.doors.forEach((door, i) => {
    const { lat, ttfb, errors, ms, cpu } = tallies[i]
    out.set(door, loadOf({ stream: o.stream, concurrency: o.concurrency, lat, ttfb, errors, seconds: ms / 1000, cpu }))
  })
  return out
}
