import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { Refusal, fail, ok, readBody, type Env } from '../http.ts'
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
  throw new Refusal(value === undefined ? 'value is required' : 'value must be a string, number or boolean', { field: 'value' })
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
    if (!isKnownOption(body.key)) throw new Refusal(`key ${body.key.slice(0, 128)} is not a known option`, { field: 'key' })
    const verdict = checkOption(body.key, stringForm(body.key, body.value), (k) => ctx.options.get(k))
    if (!verdict.ok) return fail(c, verdict.message)
    await ctx.options.set(body.key, verdict.value)
    ctx.bus.emit('options')
    return ok(c, null, 'saved')
  })

  app.post('/option/rest_model_ratio', root, async (c) => {
    await ctx.options.set('ModelRatio', DEFAULT_OPTIONS.ModelRatio!)
    await ctx.options.set('CompletionRatio', DEFAULT_OPTIONS.CompletionRatio!)
    ctx.bus.emit('options')
    return ok(c, null, 'model ratios reset to the defaults')
  })

  return app
}
