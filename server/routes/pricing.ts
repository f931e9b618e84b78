import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { optionalUser } from '../middleware/session.ts'
import { UNKNOWN_MODEL_RATIO } from '../lib/ratios.ts'

const DEFAULT_GROUP = 'default'

function numberMap(value: unknown): Record<string, number> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : {}
}

function lookup(map: Record<string, number>, key: string): number | undefined {
  const v = Object.hasOwn(map, key) ? map[key] : undefined
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

export function pricingRoutes(ctx: AppContext) {
  const app = new Hono<Env>()

  app.on('GET', ['/pricing', '/pricing/'], optionalUser(ctx), async (c) => {
    const group = c.get('user')?.group || DEFAULT_GROUP
    const rows = await ctx.db.selectFrom('abilities').select(['model', 'group']).distinct().where('enabled', '=', 1).execute()
    const available = new Set(rows.filter((r) => r.group === group).map((r) => r.model))
    const models = [...new Set(rows.map((r) => r.model))].sort()

    const prices = numberMap(ctx.options.json('ModelPrice', {}))
    const ratios = numberMap(ctx.options.json('ModelRatio', {}))
    const completion = numberMap(ctx.options.json('CompletionRatio', {}))
    const groups = numberMap(ctx.options.json('GroupRatio', {}))

    const data = models.map((model) => {
      const price = lookup(prices, model)
      const perCall = price !== undefined
      return {
        model_name: model,
        available: available.has(model),
        quota_type: perCall ? 1 : 0,
        model_ratio: lookup(ratios, model) ?? (perCall ? 0 : UNKNOWN_MODEL_RATIO),
        completion_ratio: lookup(completion, model) ?? 1,
        model_price: perCall ? price : -1,
      }
    })
    // Only the caller's own group: the ratios of other (possibly hidden) groups never leave the server.
    return c.json({ success: true, message: '', data, group_ratio: { [group]: lookup(groups, group) ?? 1 } })
  })

  return app
}
