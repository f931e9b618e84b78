import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { randomBytes } from 'node:crypto'
import bcrypt from 'bcryptjs'
import type { Config } from './config.ts'
import { ChangeBus, type AppContext } from './context.ts'
import { openDatabase } from './db/index.ts'
import { ApiError, Refusal, refuseNulQuery, type Env } from './http.ts'
import { localeOf, render, say, type Locale } from './i18n/index.ts'
import { OptionStore } from './options.ts'
import { RateLimiter, rateLimit } from './middleware/rate-limit.ts'
import { csrfGuard } from './middleware/csrf.ts'
import { apiCors } from './middleware/cors.ts'
import { securityHeaders } from './middleware/headers.ts'
import { apiRoutes } from './routes/index.ts'
import { serveConsole } from './static.ts'
import { relayRoutes } from './relay/index.ts'
import { startBroadcast } from './lib/broadcast.ts'
import { DEFAULT_GROUP, ROLE, USER_STATUS } from '../domain/roles.ts'
import { nowSeconds } from './http.ts'

const CORS_HEADERS = ['Authorization', 'Content-Type', 'Accept-Language', 'New-API-User', 'X-Tollgate-Client']

/** Request ids: a random prefix per process and a counter (no random bytes per request). */
const REQUEST_ID_PREFIX = randomBytes(5).toString('hex')
let requestSeq = 0

export interface Server {
  app: Hono<Env>
  ctx: AppContext
  close(): Promise<void>
}

/** First start on an empty database: the super administrator `root`. */
async function ensureRoot(ctx: AppContext): Promise<void> {
  const any = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst()
  if (any) return
  await ctx.db
    .insertInto('users')
    .values({
      username: 'root',
      password: await bcrypt.hash(ctx.config.rootPassword, 10),
      display_name: 'Root User',
      role: ROLE.root,
      status: USER_STATUS.enabled,
      email: '',
      github_id: '',
      wechat_id: '',
      telegram_id: '',
      quota: 100_000_000,
      used_quota: 0,
      request_count: 0,
      group: DEFAULT_GROUP,
      aff_code: null,
      aff_count: 0,
      aff_quota: 0,
      aff_history_quota: 0,
      inviter_id: 0,
      created_time: nowSeconds(),
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .execute()
}

/**
 * The answer to a thrown error (DESIGN §3): a Refusal is HTTP 200 with success false; an ApiError
 * keeps its status (401, 403, 413, 415, 429, or 400 for a body that is not JSON); anything else is
 * a 500 and is logged. Messages are written in the caller's language.
 */
function errorBody(err: unknown, locale: Locale): { status: number; body: { success: false; message: string; data: unknown } } {
  if (err instanceof Refusal) {
    const data = err.data !== undefined ? err.data : err.field ? { field: err.field } : null
    return { status: 200, body: { success: false, message: render(locale, err.text), data } }
  }
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: { success: false, message: render(locale, err.text), data: err.field ? { field: err.field } : null },
    }
  }
  if (err instanceof HTTPException) {
    const status = err.status
    return { status, body: { success: false, message: status === 413 ? say(locale, 'body.tooLarge') : err.message, data: null } }
  }
  return { status: 500, body: { success: false, message: say(locale, 'server.internal'), data: null } }
}

/** An /api path that no route answers. */
function noSuchCall(c: Context) {
  const message = say(localeOf(c), 'api.noSuchCall', { method: c.req.method, path: new URL(c.req.url).pathname })
  return c.json({ success: false, message, data: null }, 404)
}

/** Builds the whole server (database, options, routes) without opening a port. */
export async function createServer(config: Config): Promise<Server> {
  const database = await openDatabase(config)
  const options = new OptionStore(database.db)
  await options.load()
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    options,
    bus: new ChangeBus(),
    limiter: new RateLimiter(),
    onClose: [],
  }
  await ensureRoot(ctx)
  await startBroadcast(ctx)

  const app = new Hono<Env>()
  app.use('*', securityHeaders(ctx))
  app.use('*', async (c, next) => {
    const id = c.req.header('x-request-id')?.slice(0, 64) || `${REQUEST_ID_PREFIX}${(++requestSeq).toString(36)}`
    c.set('requestId', id)
    c.set('ctx', ctx)
    await next()
    c.res.headers.set('X-Request-Id', id)
  })

  const api = new Hono<Env>()
  // any site may call the API without credentials (the bearer embed credential, public reads);
  // never with cookies: no Access-Control-Allow-Credentials
  // Content-Disposition: an embedding page reads an export's file name
  api.use('*', apiCors({ allowHeaders: CORS_HEADERS, exposeHeaders: ['Content-Disposition'], maxAge: 600 }))
  api.use('*', csrfGuard(ctx))
  api.use('*', async (c, next) => {
    refuseNulQuery(c)
    await next()
  })
  api.use('*', bodyLimit({ maxSize: 1024 * 1024 }))
  api.use(
    '*',
    rateLimit(
      ctx.limiter,
      'api',
      () => ctx.config.apiRateLimit,
      () => ctx.config.apiRateWindowSeconds,
    ),
  )
  for (const routes of apiRoutes) api.route('/', routes(ctx))
  api.notFound(noSuchCall)
  api.onError((err, c) => {
    const { status, body } = errorBody(err, localeOf(c))
    if (status >= 500) console.error(`[${c.get('requestId')}]`, err)
    return c.json(body, status as 400)
  })
  app.route('/api', api)
  // hono does not use a mounted sub-app's notFound, so unknown /api paths are answered here.
  app.all('/api/*', noSuchCall)
  app.route('/', relayRoutes(ctx))

  app.use('*', serveConsole(config.staticDir))
  app.notFound((c) => c.text('not found', 404))

  let closed = false
  return {
    app,
    ctx,
    async close() {
      if (closed) return
      closed = true
      for (const fn of ctx.onClose) await fn()
      await database.close()
    },
  }
}
