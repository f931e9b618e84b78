import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { applyCheckVerdicts, channelsOfType, findChannel, type ChannelRow, type CheckVerdicts } from '../db/channels.ts'
import { fail, nowSeconds, nullIsAbsent, ok, readBody, readQuery, refuse, words, type Env } from '../http.ts'
import { localeOf, text, type Text } from '../i18n/index.ts'
import { requireRole } from '../middleware/session.ts'
import { ACCOUNT_CHECKS, checkAccount, fetchModelIds, inBatches, isAccountCheck } from '../lib/channel-checks.ts'
import { paramId } from '../lib/query.ts'
import { reason, sayReason } from '../lib/status-reason.ts'
import { canFetchModels } from '../../domain/channel-types.ts'
import { DEFAULT_GROUP, ROLE } from '../../domain/roles.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'
import { relayOf } from '../relay/index.ts'
import { loadChannel, startTestAll, testChannel, updateAllBalances, updateBalance } from '../relay/channel-ops.ts'

const testQuery = z.object({ model: z.string().trim().max(255).optional() })

const dooyBody = z.object({
  act: z.string().max(64),
  type: z.preprocess(nullIsAbsent, z.number().int().min(0).max(9999).optional()),
  status: z.preprocess(nullIsAbsent, z.number().int().min(1).max(3).default(CHANNEL_STATUS.enabled)),
})

/** The most channels one account-check call looks at, and how many it asks at once. */
const CHECK_LIMIT = 10_000
const CHECK_WIDTH = 8

interface CheckOutcome {
  ch: ChannelRow
  reason: Text | null
}

/**
 * What the account checks decide: an enabled auto-ban channel that failed is disabled
 * automatically (its reason stored as data, the check's own failure nested in it, as the relay
 * stores its own: see status-reason.ts), an automatically disabled one that passed is enabled again.
 */
function verdicts(outcomes: readonly CheckOutcome[], label: string): CheckVerdicts {
  return {
    disable: outcomes
      .filter((o) => o.reason !== null && o.ch.status === CHANNEL_STATUS.enabled && o.ch.auto_ban === 1)
      .map((o) => ({ id: o.ch.id, reason: reason('channel.checkFailed', { label, reason: o.reason! }) })),
    enable: outcomes.filter((o) => o.reason === null && o.ch.status === CHANNEL_STATUS.autoDisabled).map((o) => o.ch.id),
  }
}

/**
 * The statuses a check looks at. The console always sends status 1, meaning the channels the
 * server manages: enabled ones (disabled when they fail) and automatically disabled ones (enabled
 * again when they pass). 2 and 3 narrow the check to that status alone.
 */
function checkedStatuses(status: number): number[] {
  return status === CHANNEL_STATUS.enabled ? [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled] : [status]
}

/** POST /channel/dooy: checks the accounts of every Viggle or Suno channel of a status, and acts on the verdicts. */
async function accountChecks(ctx: AppContext, c: Context<Env>) {
  const body = await readBody(c, dooyBody)
  const act = body.act
  if (!isAccountCheck(act)) {
    refuse(text('channel.checkUnknown', { field: 'act', choices: Object.keys(ACCOUNT_CHECKS).join(', ') }), { field: 'act' })
  }
  const check = ACCOUNT_CHECKS[act]
  if (body.type !== undefined && body.type !== check.type) {
    refuse(text('channel.checkWrongType', { field: 'type', type: check.type, act }), { field: 'type' })
  }
  const channels = await channelsOfType(ctx.db, check.type, checkedStatuses(body.status), CHECK_LIMIT)
  const outcomes = await inBatches(channels, CHECK_WIDTH, async (ch) => ({ ch, reason: await checkAccount(act, ch, ctx.options) }))
  const { enabled, disabled } = await applyCheckVerdicts(ctx.db, verdicts(outcomes, check.label), nowSeconds())
  for (const id of [...enabled, ...disabled]) ctx.bus.emit('channels', id)
  const failed = outcomes.filter((o) => o.reason !== null)
  return ok(c, {
    checked: outcomes.length,
    enabled: enabled.length,
    disabled: disabled.length,
    failed: failed.map((o) => ({ id: o.ch.id, name: o.ch.name, reason: words(c, o.reason!).trim() })),
  })
}

/**
 * Operations that reach a channel's upstream (admin): the test call, the balance, the model list
 * and the account checks. Mounted before the channel CRUD routes so its static paths win over
 * /channel/:id.
 */
export function channelOpsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const tester = (c: Context<Env>) => {
    const u = c.get('user')
    return { id: u.id, username: u.username, group: u.group || DEFAULT_GROUP }
  }
  /** Both paths the console and the family's clients use, with and without the trailing slash. */
  const both = (path: string, handler: (c: Context<Env>) => Promise<Response> | Response) => {
    app.get(path, admin, handler)
    app.get(`${path}/`, admin, handler)
  }

  // one real call; `time` is the seconds it took (top level, as the console expects)
  both('/channel/test/:id{[0-9]+}', async (c) => {
    const id = paramId(c)
    const { model } = readQuery(c, testQuery)
    const engine = relayOf(ctx)
    const ch = await loadChannel(engine, id)
    if (!ch) return fail(c, 'channel.notFound')
    const r = await testChannel(engine, ch, tester(c), model)
    return c.json({
      success: r.success,
      message: r.success ? '' : sayReason(localeOf(c), reason('channel.testFailed', { reason: r.reason })),
      time: r.time,
    })
  })

  // every channel, in the background: answers at once
  both('/channel/test', (c) => {
    if (!startTestAll(relayOf(ctx), tester(c))) return fail(c, 'channel.testAllRunning')
    return c.json({ success: true, message: '' })
  })

  both('/channel/update_balance/:id{[0-9]+}', async (c) => {
    const engine = relayOf(ctx)
    const ch = await loadChannel(engine, paramId(c))
    if (!ch) return fail(c, 'channel.notFound')
    const r = await updateBalance(engine, ch)
    if (!r.success) {
      return c.json({ success: false, message: sayReason(localeOf(c), reason('channel.balanceFailed', { reason: r.reason })), balance: 0 })
    }
    return c.json({ success: true, message: '', balance: r.balance })
  })

  both('/channel/update_balance', async (c) => {
    await updateAllBalances(relayOf(ctx))
    return c.json({ success: true, message: '' })
  })

  app.get('/channel/fetch_models/:id{[0-9]+}', admin, async (c) => {
    const channel = await findChannel(ctx.db, paramId(c))
    if (!channel) return fail(c, 'channel.notFound')
    if (!canFetchModels(channel.type)) return fail(c, 'channel.openaiOnly')
    const r = await fetchModelIds(channel)
    if ('failed' in r) return fail(c, text('channel.fetchModelsFailed', { reason: words(c, r.failed).trim() }))
    return ok(c, r.ids)
  })

  app.post('/channel/dooy', admin, (c) => accountChecks(ctx, c))

  return app
}
