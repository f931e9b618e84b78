import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'

export function topupRoutes(_ctx: AppContext) {
  const app = new Hono<Env>()
  return app
}
