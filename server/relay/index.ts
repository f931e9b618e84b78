import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'

/** The relay: OpenAI-compatible /v1/* and the task relays, mounted at the root of the server. */
export function relayRoutes(_ctx: AppContext) {
  const app = new Hono<Env>()
  return app
}
