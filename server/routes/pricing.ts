import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { optionalUser } from '../middleware/session.ts'
import { groupRatioOf, isPerCall, lookupRatio, modelPricing, type PriceTables } from '../../domain/pricing.ts'
import { DEFAULT_GROUP } from '../../domain/roles.ts'
import { BILLING_TYPE } from '../../domain/statuses.ts'

export function pricingRoutes(ctx: AppContext) {
  const app = new Hono<Env>()

  app.on('GET', ['/pricing', '/pricing/'], optionalUser(ctx), async (c) => {
    const group = c.get('user')?.group || DEFAULT_GROUP
    const rows = await ctx.db.selectFrom('abilities').select(['model', 'group']).distinct().where('enabled', '=', 1).execute()
    const available = new Set(rows.filter((r) => r.group === group).map((r) => r.model))
    const models = [...new Set(rows.map((r) => r.model))].sort()

    const tables: PriceTables = {
      ModelPrice: ctx.options.json('ModelPrice', {}),
      ModelRatio: ctx.options.json('ModelRatio', {}),
      CompletionRatio: ctx.options.json('CompletionRatio', {}),
    }

    // the same lookup the relay charges with, so the page shows what a request pays
    const data = models.map((model) => {
      const p = modelPricing(model, tables)
      const perCall = isPerCall(p)
      return {
        model_name: model,
        available: available.has(model),
        quota_type: perCall ? BILLING_TYPE.perCall : BILLING_TYPE.perUsage,
        // a model priced per call shows its own ratio only when it has one
        model_ratio: perCall ? (lookupRatio(tables.ModelRatio, model) ?? 0) : p.modelRatio,
        completion_ratio: p.completionRatio,
        model_price: p.modelPrice,
      }
    })
    // Only the caller's own group: the ratios of other (possibly hidden) groups never leave the server.
    return c.json({ success: true, message: '', data, group_ratio: { [group]: groupRatioOf(ctx.options.json('GroupRatio', {}), group) } })
  })

  return app
}
