import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'

export interface Config {
  port: number
  host: string
  dataDir: string
  /** unset: SQLite file under dataDir; postgres://…: PostgreSQL */
  databaseUrl?: string
  sessionSecret: string
  rootPassword: string
  redisUrl?: string
  /** requests per window on login, register, verification and reset, per client address */
  criticalRateLimit: number
  criticalRateWindowSeconds: number
  /** requests per window on every other /api call, per client address */
  apiRateLimit: number
  apiRateWindowSeconds: number
  /** where the built console (vite output) lives; served at / */
  staticDir: string
  /** origins allowed to call the console API with credentials (cross-origin embeds) */
  corsOrigins: string[]
  /** this instance polls the image, music and video tasks (UPDATE_TASK, default true; instances share the work through the database) */
  taskPolling: boolean
  /** RELAY_TIMEOUT: seconds an upstream may take to answer (and to pause mid-answer); 0 = 600 s for headers, 300 s in the body */
  relayTimeoutSeconds: number
}

function intFrom(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return value !== undefined && value !== '' && Number.isFinite(n) ? Math.trunc(n) : fallback
}

/** The secret is kept in DATA_DIR so sessions survive a restart when SESSION_SECRET is unset. */
function sessionSecretFor(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv
  const file = join(dataDir, 'session-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data')
  mkdirSync(dataDir, { recursive: true })
  return {
    port: intFrom(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sessionSecret: overrides.sessionSecret ?? sessionSecretFor(dataDir, env.SESSION_SECRET),
    rootPassword: env.ROOT_PASSWORD || '123456',
    redisUrl: env.REDIS_URL || undefined,
    criticalRateLimit: intFrom(env.CRITICAL_RATE_LIMIT, 20),
    criticalRateWindowSeconds: intFrom(env.CRITICAL_RATE_WINDOW, 1200),
    apiRateLimit: intFrom(env.API_RATE_LIMIT, 600),
    apiRateWindowSeconds: intFrom(env.API_RATE_WINDOW, 180),
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    taskPolling: env.UPDATE_TASK !== 'false',
    relayTimeoutSeconds: Math.max(0, intFrom(env.RELAY_TIMEOUT, 0)),
    ...overrides,
  }
}
