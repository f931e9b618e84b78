import type { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { statusRoutes } from './status.ts'
import { accountRoutes } from './account.ts'

/** Every sub-app of the console API, mounted under /api in this order. */
export const apiRoutes: Array<(ctx: AppContext) => Hono<Env>> = [statusRoutes, accountRoutes]
