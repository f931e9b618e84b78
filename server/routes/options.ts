/** The options (spec section 7, options): read, save one, reset the model ratios; the super administrator only. */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { nowSeconds, ok, readBody, refuse, type Env } from '../http.ts'
import { bucketsFrom } from '../db/log-stat.ts'
import { requireRole } from '../middleware/session.ts'
import { ROLE } from '../../domain/roles.ts'
import { DEFAULT_OPTIONS, isSecretOption } from '../options.ts'
import { checkOption, isJsonOption, isKnownOption } from '../lib/option-rules.ts'

const putBody = z.object({ key: z.string().trim().min(1).max(128), value: z.unknown() })

/** The value's string form: strings as they are, numbers and booleans printed, objects (JSON options only) as JSON. */
function stringForm(key: string, value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && isJsonOption(key)) return JSON.stringify(value, null, 2)
  refuse(value === undefined ? 'option.valueRequired' : 'option.valueType', { field: 'value' })
}

export function optionsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const root = requireRole(ctx, ROLE.root)

  app.on('GET', ['/option/', '/option'], root, (c) => {
    const list = ctx.options.all().map(({ key, value }) => ({ key, value: isSecretOption(key) ? '' : value }))
    return ok(c, list)
  })

  app.on('PUT', ['/option/', '/option'], root, async (c) => {
    const body = await readBody(c, putBody)
    if (!isKnownOption(body.key)) refuse({ key: 'option.unknownKey', params: { key: body.key } }, { field: 'key' })
    const verdict = checkOption(body.key, stringForm(body.key, body.value), (k) => ctx.options.get(k))
    if (!verdict.ok) refuse(verdict.message)
    const wasExporting = ctx.options.bool('DataExportEnabled')
    await ctx.options.set(body.key, verdict.value)
    // buckets were not written while it was off: they hold every request again from now on only
    if (body.key === 'DataExportEnabled' && !wasExporting && ctx.options.bool('DataExportEnabled')) await bucketsFrom(ctx.db, nowSeconds())
    ctx.bus.emit('options')
    return ok(c, null, 'option.saved')
  })

  app.post('/option/rest_model_ratio', root, async (c) => {
    await ctx.options.set('ModelRatio', DEFAULT_OPTIONS.ModelRatio!)
    await ctx.options.set('CompletionRatio', DEFAULT_OPTIONS.CompletionRatio!)
    ctx.bus.emit('options')
    return ok(c, null, 'option.ratiosReset')
  })

  return app
}
