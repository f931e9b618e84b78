/** Model pricing (spec sections 7 and 9): public; a signed-in caller sees their own group's prices. */
import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { optionalUser } from '../middleware/session.ts'
import { groupsByModel } from '../db/abilities.ts'
import { groupRatioOf, isPerCall, lookupRatio, modelPricing, type PriceTables } from '../../domain/pricing.ts'
import { DEFAULT_GROUP } from '../../domain/roles.ts'
import { BILLING_TYPE } from '../../domain/statuses.ts'

export function pricingRoutes(ctx: AppContext) {
  const app = new Hono<Env>()

  app.on('GET', ['/pricing', '/pricing/'], optionalUser(ctx), async (c) => {
    const group = c.get('user')?.group || DEFAULT_GROUP
    const byModel = await groupsByModel(ctx.db)
    const tables: PriceTables = {
      ModelPrice: ctx.options.json('ModelPrice', {}),
      ModelRatio: ctx.options.json('ModelRatio', {}),
      CompletionRatio: ctx.options.json('CompletionRatio', {}),
    }
    // the same lookup the relay charges with, so the page shows what a request pays
    const data = [...byModel.keys()].sort().map((model) => {
      const p = modelPricing(model, tables)
      const perCall = isPerCall(p)
      return {
        model_name: model,
        available: byModel.get(model)!.has(group),
        quota_type: perCall ? BILLING_TYPE.perCall : BILLING_TYPE.perUsage,
        // a model priced per call shows its own ratio only when it has one
        model_ratio: perCall ? (lookupRatio(tables.ModelRatio, model) ?? 0) : p.modelRatio,
        completion_ratio: p.completionRatio,
        model_price: p.modelPrice,
      }
    })
    // group_ratio is the caller's own group's number (the family's console multiplies by it);
    // the ratios of other (possibly hidden) groups never leave the server
    const groupRatio = groupRatioOf(ctx.options.json('GroupRatio', {}), group)
    return c.json({ success: true, message: '', data, group_ratio: groupRatio, group })
  })

  return app
}
