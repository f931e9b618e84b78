/**
 * Online top-up (spec section 7, wallet): the amount payable, the order, and the payment
 * platform's callback. /amount and /pay answer in the family's wallet envelope: message 'success'
 * with the payload, or 'error' with the reason in data.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { nowSeconds, readBody, words, type Env, type Message } from '../http.ts'
import { optional } from '../lib/wire.ts'
import { requireRole } from '../middleware/session.ts'
import { epayVerify } from '../lib/epay.ts'
import { epayOrder, moneyText, onlineTopUpEnabled, quote } from '../lib/wallet.ts'
import { creditTopUp, findTopUpByTradeNo, insertTopUp } from '../db/topups.ts'
import { ROLE } from '../../domain/roles.ts'
import { quotaOfDollars } from '../../domain/quota.ts'
import { PAYMENT_METHODS } from '../../domain/wallet-rules.ts'

/** Dollars per order; keeps money and quota far inside safe integers and doubles. */
const AMOUNT_MAX = 100_000_000

const amountBody = z.object({
  amount: z.coerce.number().int().max(AMOUNT_MAX),
  top_up_code: optional(z.string().max(64).optional()),
})
const payBody = amountBody.extend({
  payment_method: z.enum(PAYMENT_METHODS),
})

type C = Context<Env>

function walletError(c: C, reason: Message) {
  return c.json({ success: false, message: 'error', data: words(c, reason) })
}

async function amountPayable(c: C) {
  const body = await readBody(c, amountBody)
  const q = quote(c.get('ctx').options, body.amount, c.get('user').group)
  if ('reason' in q) return walletError(c, q.reason)
  return c.json({ success: true, message: 'success', data: moneyText(q.cents) })
}

async function pay(c: C) {
  const { db, options: o } = c.get('ctx')
  const body = await readBody(c, payBody)
  if (!onlineTopUpEnabled(o)) return walletError(c, 'wallet.notEnabled')
  if (!o.get('ServerAddress').trim()) return walletError(c, 'wallet.noServerAddress')
  const me = c.get('user')
  const q = quote(o, body.amount, me.group)
  if ('reason' in q) return walletError(c, q.reason)
  const at = nowSeconds()
  const order = epayOrder(o, { userId: me.id, amount: body.amount, cents: q.cents, method: body.payment_method, at })
  await insertTopUp(db, {
    user_id: me.id,
    amount: body.amount,
    money: q.cents / 100,
    trade_no: order.tradeNo,
    payment_method: order.type,
    create_time: at,
  })
  return c.json({ success: true, message: 'success', data: order.form, url: order.url })
}

/**
 * The payment platform's callback. A good signature on TRADE_SUCCESS credits the order exactly
 * once, for the money the order asked.
 */
async function epayNotify(c: C) {
  const { db, options: o, bus } = c.get('ctx')
  const params = c.req.query()
  if (!onlineTopUpEnabled(o) || !epayVerify(params, o.get('EpayKey'))) return c.text('fail')
  if (params.pid !== o.get('EpayId').trim()) return c.text('fail')
  if (params.trade_status !== 'TRADE_SUCCESS') return c.text('success')
  const order = await findTopUpByTradeNo(db, params.out_trade_no ?? '')
  if (!order || !(Math.abs(Number(params.money) - order.money) < 0.005)) return c.text('fail')
  if (await creditTopUp(db, order, quotaOfDollars(order.amount, o.quotaPerUnit), nowSeconds())) bus.emit('users', order.user_id)
  return c.text('success')
}

export function topupRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const user = requireRole(ctx, ROLE.user)
  app.post('/user/amount', user, amountPayable)
  app.post('/user/pay', user, pay)
  app.get('/user/epay/notify', epayNotify)
  return app
}
