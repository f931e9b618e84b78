import { Hono, type Context } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { nowSeconds, readBody, words, type Env, type Message } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { EPAY_TYPES, epayForm, epayVerify } from '../lib/epay.ts'
import { randomKey } from '../lib/users.ts'
import { ROLE } from '../../domain/roles.ts'
import type { OptionStore } from '../options.ts'
import { problemText } from '../lib/problems.ts'
import { quotaOfDollars } from '../../domain/quota.ts'
import { minTopUpOr, PAYMENT_METHODS, PRICE_DEFAULT, topUpProblem } from '../../domain/wallet-rules.ts'

/** Dollars per order; keeps money and quota far inside safe integers and doubles. */
const AMOUNT_MAX = 100_000_000

const amountBody = z.object({
  amount: z.coerce.number().int().max(AMOUNT_MAX),
  top_up_code: z.string().max(64).optional(),
})
const payBody = amountBody.extend({
  payment_method: z.enum(PAYMENT_METHODS),
})

export const NOT_ENABLED = 'admin has not enabled online top-up'

/** Online top-up works only when the epay address, merchant id and key are all set. */
export function onlineTopUpEnabled(o: OptionStore): boolean {
  return o.get('PayAddress').trim() !== '' && o.get('EpayId').trim() !== '' && o.get('EpayKey') !== ''
}

/** Money to pay, in cents: amount (US$) x Price x the top-up ratio of the user's group (default 1). */
export function payableCents(o: OptionStore, amount: number, group: string): number {
  const ratios = o.json<Record<string, unknown>>('TopupGroupRatio', {})
  const r = ratios && typeof ratios === 'object' ? ratios[group] : undefined
  const ratio = typeof r === 'number' && Number.isFinite(r) && r >= 0 ? r : 1
  const price = o.num('Price', PRICE_DEFAULT)
  // toPrecision trims binary noise such as 7.3 x 3 x 100 = 2189.9999999999995
  return Math.round(Number((amount * price * ratio * 100).toPrecision(12)))
}

const money = (cents: number) => (cents / 100).toFixed(2)

/** The answer shape of the wallet calls: message 'success' or 'error', data the payload or the reason. */
function walletError(c: Context, reason: Message) {
  return c.json({ success: false, message: 'error', data: words(c, reason) })
}

export function topupRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const o = ctx.options
  const user = requireRole(ctx, ROLE.user)

  /** The amount check shared by /amount and /pay: a reason to refuse, or the payable cents. */
  function price(amount: number, group: string): { reason: Message } | { cents: number } {
    const low = topUpProblem(amount, minTopUpOr(o.num('MinTopUp')))
    if (low) return { reason: problemText(low) }
    const cents = payableCents(o, amount, group)
    if (cents < 1) return { reason: 'the payable money is too low' }
    return { cents }
  }

  app.post('/user/amount', user, async (c) => {
    const body = await readBody(c, amountBody)
    const p = price(body.amount, c.get('user').group)
    if ('reason' in p) return walletError(c, p.reason)
    return c.json({ success: true, message: 'success', data: money(p.cents) })
  })

  app.post('/user/pay', user, async (c) => {
    const body = await readBody(c, payBody)
    if (!onlineTopUpEnabled(o)) return walletError(c, NOT_ENABLED)
    const serverAddress = o.get('ServerAddress').trim().replace(/\/+$/, '')
    if (!serverAddress) return walletError(c, 'the administrator has not set the server address')
    const me = c.get('user')
    const p = price(body.amount, me.group)
    if ('reason' in p) return walletError(c, p.reason)

    const now = nowSeconds()
    const tradeNo = `USR${me.id}NO${randomKey(6)}${now}`
    const type = EPAY_TYPES[body.payment_method]
    const callback = (o.get('CustomCallbackAddress').trim() || serverAddress).replace(/\/+$/, '')
    const form = epayForm(
      {
        pid: o.get('EpayId').trim(),
        type,
        out_trade_no: tradeNo,
        notify_url: `${callback}/api/user/epay/notify`,
        return_url: `${serverAddress}/log`,
        name: `TUC${body.amount}`,
        money: money(p.cents),
      },
      o.get('EpayKey'),
    )
    await ctx.db
      .insertInto('top_ups')
      .values({
        user_id: me.id,
        amount: body.amount,
        money: p.cents / 100,
        trade_no: tradeNo,
        payment_method: type,
        create_time: now,
        status: 'pending',
      })
      .execute()
    return c.json({ success: true, message: 'success', data: form, url: `${o.get('PayAddress').trim().replace(/\/+$/, '')}/submit.php` })
  })

  /**
   * The payment platform's callback. A good signature on TRADE_SUCCESS credits the order exactly
   * once: the pending -> success flip is the guard, in the same transaction as the quota credit.
   */
  app.get('/user/epay/notify', async (c) => {
    const params = c.req.query()
    if (!onlineTopUpEnabled(o) || !epayVerify(params, o.get('EpayKey'))) return c.text('fail')
    if (params.pid !== o.get('EpayId').trim()) return c.text('fail')
    if (params.trade_status !== 'TRADE_SUCCESS') return c.text('success')
    const tradeNo = params.out_trade_no ?? ''
    const order = await ctx.db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst()
    if (!order) return c.text('fail')
    if (!(Math.abs(Number(params.money) - order.money) < 0.005)) return c.text('fail')

    const credit = quotaOfDollars(order.amount, o.quotaPerUnit)
    const now = nowSeconds()
    const credited = await ctx.db.transaction().execute(async (tx) => {
      const flip = await tx
        .updateTable('top_ups')
        .set({ status: 'success', complete_time: now })
        .where('id', '=', order.id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (Number(flip.numUpdatedRows) !== 1) return false
      await tx
        .updateTable('users')
        .set({ quota: sql`quota + ${credit}` })
        .where('id', '=', order.user_id)
        .execute()
      const owner = await tx.selectFrom('users').select('username').where('id', '=', order.user_id).executeTakeFirst()
      await tx
        .insertInto('logs')
        .values({
          user_id: order.user_id,
          username: owner?.username ?? '',
          created_at: now,
          type: 1,
          quota: credit,
          content: `online top-up succeeded: ${order.amount} USD (${credit} quota), paid ${money(Math.round(order.money * 100))} (${order.payment_method}, ${tradeNo})`,
        })
        .execute()
      return true
    })
    if (credited) ctx.bus.emit('users', order.user_id)
    return c.text('success')
  })

  return app
}
