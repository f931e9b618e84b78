import type { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { statusRoutes } from './status.ts'
import { accountRoutes } from './account.ts'
import { usersRoutes } from './users.ts'
import { tokensRoutes } from './tokens.ts'
import { redemptionsRoutes } from './redemptions.ts'
import { optionsRoutes } from './options.ts'
import { logsRoutes } from './logs.ts'
import { dataRoutes } from './data.ts'
import { pricingRoutes } from './pricing.ts'
import { channelOpsRoutes } from './channel-ops.ts'
import { channelsRoutes } from './channels.ts'
import { tasksRoutes } from './tasks.ts'
import { topupRoutes } from './topup.ts'
import { mailRoutes } from './mail.ts'
import { oauthRoutes } from './oauth.ts'

/**
 * Every sub-app of the console API, mounted under /api in this order. channel-ops (test,
 * update_balance) comes before channels so its static paths win over /channel/:id.
 */
export const apiRoutes: Array<(ctx: AppContext) => Hono<Env>> = [
  statusRoutes,
  accountRoutes,
  usersRoutes,
  tokensRoutes,
  redemptionsRoutes,
  optionsRoutes,
  logsRoutes,
  dataRoutes,
  pricingRoutes,
  channelOpsRoutes,
  channelsRoutes,
  tasksRoutes,
  topupRoutes,
  mailRoutes,
  oauthRoutes,
]
