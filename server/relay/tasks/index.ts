/**
 * The task relays (DESIGN §8): Midjourney-proxy, Suno and the REST-style image, music and video
 * platforms (with the model APIs Replicate, bfl.ai and fal.ai), mounted at the root of the server beside /v1, and the one poller that follows their
 * tasks to the end.
 */
import type { Hono } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { AppContext } from '../../context.ts'
import { TaskPoller } from './poll.ts'
import { closeReach } from './types.ts'
import { midjourneyPoll, midjourneyRoutes } from './midjourney.ts'
import { sunoPoll, sunoRoutes } from './suno.ts'
import { sunoWebRoutes } from './suno-web.ts'
import { passthroughRoutes } from './passthrough.ts'
import { restPoll, restRoutes, type RestPlatform } from './rest.ts'
import { lumaPlatform, lumaV2Platform } from './luma.ts'
import { runwayPlatform, runwaymlPlatform } from './runway.ts'
import { klingPlatform } from './kling.ts'
import { pikaPlatform, pixversePlatform, riffusionPlatform } from './feed.ts'
import { vigglePlatform } from './viggle.ts'
import { ideogramPlatform } from './ideogram.ts'
import { udioPlatform } from './udio.ts'
import { replicatePlatform } from './replicate.ts'
import { bflPlatform } from './bfl.ts'
import { falPlatform } from './fal.ts'

export const REST_PLATFORMS: readonly RestPlatform[] = [
  lumaPlatform,
  lumaV2Platform,
  runwayPlatform,
  runwaymlPlatform,
  klingPlatform,
  pikaPlatform,
  pixversePlatform,
  riffusionPlatform,
  vigglePlatform,
  ideogramPlatform,
  udioPlatform,
  replicatePlatform,
  bflPlatform,
  falPlatform,
]

/** How the poller reads each kind of channel. */
export const TASK_POLLS = [midjourneyPoll, sunoPoll, ...REST_PLATFORMS.map((p) => p.poll ?? restPoll(p))]

const pollers = new WeakMap<AppContext, TaskPoller>()

/** The task poller of a server (the tests run its rounds directly). */
export function pollerOf(ctx: AppContext): TaskPoller {
  const p = pollers.get(ctx)
  if (!p) throw new Error('the task relays are not mounted on this server')
  return p
}

/** Mounts every task relay and starts the poller (stopped when the server closes). */
export function taskRelayRoutes(app: Hono<Env>, engine: RelayEngine): void {
  const poller = new TaskPoller(engine, TASK_POLLS)
  pollers.set(engine.ctx, poller)
  midjourneyRoutes(app, engine, poller)
  sunoRoutes(app, engine)
  sunoWebRoutes(app, engine)
  for (const p of REST_PLATFORMS) restRoutes(app, engine, p)
  passthroughRoutes(app, engine)
  if (engine.ctx.config.taskPolling) poller.start()
  engine.ctx.onClose.push(async () => {
    await poller.stop()
    await closeReach(engine.ctx.options)
  })
}
