import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { fail, fields, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { DEFAULT_GROUP, ROLE } from '../../domain/roles.ts'
import { relayOf } from '../relay/index.ts'
import { loadChannel, startTestAll, testChannel, updateAllBalances, updateBalance } from '../relay/channel-ops.ts'

const NOT_FOUND = 'channel not found, refresh and retry'

/** Channel test and balance calls (admin), mounted before the channel CRUD routes. */
export function channelOpsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const tester = (c: Context<Env>) => {
    const u = c.get('user')
    return { id: u.id, username: u.username, group: u.group || DEFAULT_GROUP }
  }

  // one real call; `time` is the seconds it took (top level, as the console expects)
  const testOne = async (c: Context<Env>) => {
    const id = fields.id.parse(c.req.param('id'))
    const { model } = readQuery(c, z.object({ model: z.string().trim().max(255).optional() }))
    const engine = relayOf(ctx)
    const ch = await loadChannel(engine, id)
    if (!ch) return fail(c, NOT_FOUND)
    const r = await testChannel(engine, ch, tester(c), model)
    return c.json({ success: r.success, message: r.message, time: r.time })
  }
  app.get('/channel/test/:id{[0-9]+}', admin, testOne)
  app.get('/channel/test/:id{[0-9]+}/', admin, testOne)

  // every channel, in the background: answers at once
  const testAll = (c: Context<Env>) => {
    if (!startTestAll(relayOf(ctx), tester(c))) return fail(c, 'a test of all channels is already running')
    return c.json({ success: true, message: '' })
  }
  app.get('/channel/test', admin, testAll)
  app.get('/channel/test/', admin, testAll)

  const balanceOne = async (c: Context<Env>) => {
    const id = fields.id.parse(c.req.param('id'))
    const engine = relayOf(ctx)
    const ch = await loadChannel(engine, id)
    if (!ch) return fail(c, NOT_FOUND)
    const r = await updateBalance(engine, ch)
    if (!r.success) return c.json({ success: false, message: r.message, balance: 0 })
    return c.json({ success: true, message: '', balance: r.balance })
  }
  app.get('/channel/update_balance/:id{[0-9]+}', admin, balanceOne)
  app.get('/channel/update_balance/:id{[0-9]+}/', admin, balanceOne)

  const balanceAll = async (c: Context<Env>) => {
    await updateAllBalances(relayOf(ctx))
    return c.json({ success: true, message: '' })
  }
  app.get('/channel/update_balance', admin, balanceAll)
  app.get('/channel/update_balance/', admin, balanceAll)

  return app
}
