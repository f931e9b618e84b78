import type { Context } from 'hono'
import type { Env } from '../http.ts'
import type { RelayEngine } from './engine.ts'
import type { Mode } from './adapters/index.ts'
import { authenticate } from './authenticate.ts'
import { readCall } from './request.ts'
import { chooseRoute } from './choose.ts'
import { reserve } from './reserve.ts'
import { forward } from './forward.ts'
import { deliver, nodeResponse } from './deliver.ts'
import { deliverStream } from './deliver-stream.ts'

/**
 * One relayed request, stage by stage (DESIGN section 6). Until `reserve` nothing is held, and a
 * refusal is simply thrown. From `reserve` on the request is in flight: `flight` owns the hold and
 * the in-flight count and ends exactly once, by a settle (the delivery stages, once the usage is
 * known or counted) or by the release below, which is a no-op once a settle was chosen.
 */
export async function relay(engine: RelayEngine, c: Context<Env>, mode: Mode, path: string): Promise<Response> {
  const t0 = performance.now()
  const caller = await authenticate(engine, c)
  const call = await readCall(c, mode, path)
  const pinned = chooseRoute(engine, caller, call)
  const flight = await reserve(engine, caller, call, t0)
  try {
    const answer = await forward(engine, flight, pinned, c.req.raw.signal)
    const out = { node: nodeResponse(c), requestId: c.get('requestId') }
    if (call.stream) return deliverStream(engine, flight, answer, out)
    return await deliver(engine, flight, answer, out)
  } catch (err) {
    flight.release()
    throw err
  }
}
