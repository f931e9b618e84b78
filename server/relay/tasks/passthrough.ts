/**
 * The helper calls of the family's client that make no task (**ours**, docs/tasks.md): uploads,
 * assets, template listings and credit estimates. Each is forwarded as received (method, path,
 * query, body bytes and content type) to an enabled channel of the platform's type in the
 * caller's group (the key's pinned channel when it names one of that type), with the channel's
 * bearer key, and the upstream's answer passed back. Nothing is charged or recorded. Viggle's
 * follow its pool as a submit does (`/pro`, ViggleProEnabled), so an asset lands where the task
 * that uses it will go.
 */
import type { Hono, Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { ChannelState } from '../state.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'
import { callerOf, taskHandler, TaskError } from './submit.ts'
import { restRefuse } from './rest.ts'
import { reachOf, upstreamFetch } from './types.ts'

interface Passthrough {
  type: number
  /** hono patterns */
  paths: readonly string[]
  /** the upstream path of a client path */
  upstream?(path: string, engine: RelayEngine): string
}

const viggleUpstream = (path: string, engine: RelayEngine) =>
  engine.ctx.options.bool('ViggleProEnabled') && !path.startsWith('/pro/') ? `/pro${path}` : path

export const PASSTHROUGHS: readonly Passthrough[] = [
  {
    type: 45,
    paths: ['/viggle/asset/*', '/viggle/template2/*', '/viggle/video-task/credit/calculate'].flatMap((p) => [p, `/pro${p}`]),
    upstream: viggleUpstream,
  },
  { type: 47, paths: ['/runway/uploads', '/runway/uploads/*'] },
  { type: 41, paths: ['/suno/uploads/*'] },
]

/** An enabled channel of the type for the caller: the pinned one, else one of the highest priority in the group. */
function channelOf(engine: RelayEngine, type: number, group: string, pinned: number | undefined): ChannelState {
  const enabled = (ch: ChannelState | undefined): ch is ChannelState => !!ch && ch.type === type && ch.status === CHANNEL_STATUS.enabled
  if (pinned) {
    const ch = engine.state.channels.get(pinned)
    if (!enabled(ch)) throw new TaskError(403, 'channel_disabled', `channel ${pinned} cannot serve this call`)
    return ch
  }
  const all = [...engine.state.channels.values()].filter((ch) => enabled(ch) && ch.groups.includes(group))
  const top = Math.max(...all.map((ch) => ch.priority))
  const best = all.filter((ch) => ch.priority === top)
  if (best.length === 0) throw new TaskError(503, 'channel_not_found', `no channel of this platform is available in the group ${group}`)
  return best[Math.floor(engine.random() * best.length)]
}

async function forward(engine: RelayEngine, c: Context<Env>, p: Passthrough): Promise<Response> {
  const caller = await callerOf(engine, c)
  const ch = channelOf(engine, p.type, caller.group, caller.pinned)
  const url = new URL(c.req.url)
  const at = reachOf(ch, engine.ctx.options)
  const path = p.upstream ? p.upstream(url.pathname, engine) : url.pathname
  const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD'
  const headers: Record<string, string> = { authorization: `Bearer ${ch.key}` }
  const type = c.req.header('content-type')
  if (hasBody && type) headers['content-type'] = type
  let res: Awaited<ReturnType<typeof upstreamFetch>>
  try {
    res = await upstreamFetch(
      `${at.base}${path}${url.search}`,
      {
        method: c.req.method,
        headers,
        body: hasBody ? new Uint8Array(await c.req.arrayBuffer()) : undefined,
        signal: AbortSignal.timeout(120_000),
      },
      at,
    )
  } catch (err) {
    throw new TaskError(502, 'do_request_failed', `the upstream could not be reached: ${(err as Error).message}`)
  }
  return new Response(await res.arrayBuffer(), {
    status: res.status,
    headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' },
  })
}

export function passthroughRoutes(app: Hono<Env>, engine: RelayEngine): void {
  for (const p of PASSTHROUGHS) {
    for (const path of p.paths) {
      const run = taskHandler(restRefuse, (c) => forward(engine, c, p))
      app.get(path, run)
      app.post(path, run)
    }
  }
}
