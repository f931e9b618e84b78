import { Hono, type Context } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { RelayEngine } from './engine.ts'
import { MODEL_CREATED } from '../../domain/channel-models.ts'
import { NEVER_EXPIRES } from '../../domain/token-rules.ts'
import { RelayError, errorResponse } from './errors.ts'
import { authenticate } from './authenticate.ts'
import type { Mode } from './adapters/index.ts'
import { retrieveResponse } from './doors/retrieve.ts'
import { doorRoutes, getModel, listModels } from './doors/routes.ts'
import { familyOf } from './doors/models.ts'
import { taskRelayRoutes } from './tasks/index.ts'

const engines = new WeakMap<AppContext, RelayEngine>()

/** The relay engine of a server (tests, channel tests and the benchmark reach it through this). */
export function relayOf(ctx: AppContext): RelayEngine {
  const e = engines.get(ctx)
  if (!e) throw new Error('the relay is not mounted on this server')
  return e
}

const RESYNC_MS = 60_000
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'Authorization, Content-Type, X-Api-Key, X-Goog-Api-Key, OpenAI-Organization, OpenAI-Beta, Anthropic-Version, Anthropic-Beta',
  'access-control-max-age': '86400',
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' } })
}

/**
 * The relay, mounted at the root of the server: OpenAI-compatible /v1/* and its front doors for
 * other clients (the Responses API, Anthropic Messages, the Gemini API under /v1beta).
 */
export function relayRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const engine = new RelayEngine(ctx)
  engines.set(ctx, engine)
  engine.ledger.start()
  // before followChanges: the poller stops before the engine closes
  taskRelayRoutes(app, engine)
  followChanges(ctx, engine)

  const relay = (mode: Mode, path: string) => (c: Context<Env>) => engine.handle(c, mode, path)

  app.options('/v1/*', () => new Response(null, { status: 204, headers: CORS }))
  app.post('/v1/chat/completions', relay('chat', '/chat/completions'))
  app.post('/v1/completions', relay('completions', '/completions'))
  app.post('/v1/embeddings', relay('embeddings', '/embeddings'))
  app.post('/v1/engines/:model/embeddings', relay('embeddings', '/embeddings'))
  app.post('/v1/images/generations', relay('images', '/images/generations'))
  app.post('/v1/moderations', relay('moderations', '/moderations'))
  app.post('/v1/audio/speech', relay('speech', '/audio/speech'))
  app.post('/v1/audio/transcriptions', relay('transcriptions', '/audio/transcriptions'))
  app.post('/v1/audio/translations', relay('translations', '/audio/translations'))
  app.post('/v1/messages', relay('messages', '/messages'))
  app.post('/v1/responses', relay('responses', '/responses'))
  app.get('/v1/responses/:id', (c) => retrieveResponse(engine, c))
  app.options('/v1beta/*', () => new Response(null, { status: 204, headers: CORS }))
  // Gemini's API, under the version its clients name (v1beta by default, v1 as well), and token counting
  doorRoutes(app, engine)

  modelRoutes(app, engine)
  billingRoutes(app, ctx, engine)

  const notImplemented = (c: Context<Env>) => relayError(c, new RelayError(501, 'API not implemented', 'api_not_implemented'))
  for (const p of [
    '/v1/images/edits',
    '/v1/images/variations',
    '/v1/edits',
    '/v1/files',
    '/v1/files/*',
    '/v1/fine-tunes',
    '/v1/fine-tunes/*',
    '/v1/fine_tuning/*',
  ]) {
    app.all(p, notImplemented)
  }
  app.all('/v1/*', (c) =>
    relayError(
      c,
      new RelayError(404, `Invalid URL (${c.req.method} ${new URL(c.req.url).pathname})`, 'invalid_url', 'invalid_request_error'),
    ),
  )
  return app
}

/** The caches follow the console's writes at once (the bus), and other instances' within a minute. */
export function followChanges(ctx: Pick<AppContext, 'bus' | 'options' | 'onClose'>, engine: RelayEngine): void {
  let channelReload: NodeJS.Timeout | null = null
  const offBus = ctx.bus.on((kind, id) => {
    if (kind === 'channels') {
      if (channelReload) return
      channelReload = setTimeout(() => {
        channelReload = null
        engine.state.loadChannels().catch((err) => console.error('relay: channel reload failed:', err))
      }, 5)
    } else if (kind === 'tokens') {
      void (id ? engine.ledger.reloadToken(id) : engine.ledger.reloadTokens()).catch((err) =>
        console.error('relay: token reload failed:', err),
      )
    } else if (kind === 'users') {
      void (id ? engine.ledger.reloadUser(id) : engine.ledger.reloadUsers()).catch((err) =>
        console.error('relay: user reload failed:', err),
      )
    } else if (kind === 'options') {
      engine.pricing.clear()
    }
  })
  const offOptions = ctx.options.onChange(() => engine.pricing.clear())
  // one resync at a time, and a stop waits for the one under way: closing the database under it
  // failed its reads (a SQLite reader thread stopped)
  let resyncing: Promise<void> | null = null
  const resync = setInterval(() => {
    resyncing ??= engine
      .loadAll()
      .catch((err) => console.error('relay: resync failed:', err))
      .finally(() => (resyncing = null))
  }, RESYNC_MS)
  resync.unref()
  ctx.onClose.push(async () => {
    clearInterval(resync)
    await resyncing
    if (channelReload) clearTimeout(channelReload)
    offBus()
    offOptions()
    await engine.close()
  })
}

/**
 * /v1/models: the models the caller's key may use, and one of them; in Anthropic's or Gemini's
 * shape for their clients (doors/models.ts), OpenAI's otherwise.
 */
function modelRoutes(app: Hono<Env>, engine: RelayEngine): void {
  app.get('/v1/models', async (c) => {
    const family = familyOf(c)
    if (family !== 'openai') return listModels(engine, c, family)
    try {
      const caller = await authenticate(engine, c)
      const data = engine.modelsFor(caller).map((id) => ({ id, object: 'model', created: MODEL_CREATED, owned_by: engine.ownerOf(id) }))
      return json({ object: 'list', data })
    } catch (err) {
      return relayError(c, err)
    }
  })
  app.get('/v1/models/:model{.+}', async (c) => {
    const family = familyOf(c)
    if (family !== 'openai') return getModel(engine, c, family, c.req.param('model'))
    try {
      const caller = await authenticate(engine, c)
      const id = c.req.param('model')
      if (!engine.modelsFor(caller).includes(id))
        throw new RelayError(
          404,
          `the model ${id} does not exist or this API key may not use it`,
          'model_not_found',
          'invalid_request_error',
        )
      return json({ id, object: 'model', created: MODEL_CREATED, owned_by: engine.ownerOf(id) })
    } catch (err) {
      return relayError(c, err)
    }
  })
}

/** OpenAI's old billing endpoints, which many clients still call to show a balance. */
function billingRoutes(app: Hono<Env>, ctx: AppContext, engine: RelayEngine): void {
  const subscription = async (c: Context<Env>) => {
    try {
      const { token, user } = await authenticate(engine, c)
      const o = ctx.options
      let amount: number
      if (o.bool('DisplayTokenStatEnabled'))
        amount = token.unlimited ? 100_000_000 * o.quotaPerUnit : engine.ledger.tokenRemain(token) + engine.ledger.tokenUsed(token)
      else amount = engine.ledger.userQuota(user) + engine.ledger.userUsed(user)
      if (o.bool('DisplayInCurrencyEnabled')) amount /= o.quotaPerUnit
      return json({
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: amount,
        hard_limit_usd: amount,
        system_hard_limit_usd: amount,
        access_until: token.expiredTime === NEVER_EXPIRES ? 0 : token.expiredTime,
      })
    } catch (err) {
      return relayError(c, err)
    }
  }
  const usage = async (c: Context<Env>) => {
    try {
      const { token, user } = await authenticate(engine, c)
      const o = ctx.options
      let used = o.bool('DisplayTokenStatEnabled') ? engine.ledger.tokenUsed(token) : engine.ledger.userUsed(user)
      if (o.bool('DisplayInCurrencyEnabled')) used /= o.quotaPerUnit
      return json({ object: 'list', total_usage: used * 100 })
    } catch (err) {
      return relayError(c, err)
    }
  }
  app.get('/dashboard/billing/subscription', subscription)
  app.get('/v1/dashboard/billing/subscription', subscription)
  app.get('/dashboard/billing/usage', usage)
  app.get('/v1/dashboard/billing/usage', usage)
}

function relayError(c: Context<Env>, err: unknown): Response {
  if (err instanceof RelayError) return errorResponse(err, c.get('requestId'))
  console.error(`[${c.get('requestId')}] relay failure:`, err)
  return errorResponse(new RelayError(500, 'the relay failed to process this request', 'relay_error'), c.get('requestId'))
}
