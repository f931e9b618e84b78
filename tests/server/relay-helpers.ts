/**
 * Fixtures for the relay tests: a real server listening on 127.0.0.1 (so the openai SDK talks to
 * it over HTTP), the fake upstream, and rows inserted straight into the database.
 */
import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import type { Server as HttpServer } from 'node:http'
import { startServer, type Dialect, type TestServer } from './helpers.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream.ts'
import { relayOf } from '../../server/relay/index.ts'
import type { RelayEngine } from '../../server/relay/engine.ts'
import { randomKey } from '../../server/lib/users.ts'

export interface RelayFixture {
  s: TestServer
  fake: FakeUpstream
  engine: RelayEngine
  /** http://127.0.0.1:<port> of the listening server */
  base: string
  user(opts?: { quota?: number; group?: string; role?: number; username?: string }): Promise<number>
  token(userId: number, opts?: Partial<TokenOpts>): Promise<{ id: number; key: string }>
  channel(opts?: Partial<ChannelOpts>): Promise<number>
  /** reloads every cache (after direct inserts) */
  refresh(): Promise<void>
  /** waits for settles and writes the ledger */
  idle(): Promise<void>
  /** calls the relay in-process (no socket) with a bearer key */
  call(key: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  close(): Promise<void>
}

export interface TokenOpts {
  name: string
  remain: number
  unlimited: boolean
  status: number
  expired: number
  modelLimits: string
  group: string
  allowIps: string
}

export interface ChannelOpts {
  type: number
  key: string
  name: string
  models: string
  group: string
  priority: number
  weight: number
  status: number
  baseUrl: string
  modelMapping: string
  statusCodeMapping: string
  autoBan: number
  other: string
  organization: string
  testModel: string
}

/** A small deterministic generator (xorshift32) so weighted picks are the same every run. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x / 4294967296
  }
}

let n = 0

type Db = TestServer['ctx']['db']

/** Inserts a user (role 1, a million quota, the default group unless told) and loads it into the ledger. */
async function insertUser(db: Db, engine: RelayEngine, o: Parameters<RelayFixture['user']>[0] = {}): Promise<number> {
  const username = o.username ?? `r${process.pid % 1000}_${++n}`.slice(0, 12)
  const row = await db
    .insertInto('users')
    .values({
      username,
      password: 'x',
      display_name: username,
      role: o.role ?? 1,
      status: 1,
      quota: o.quota ?? 1_000_000,
      group: o.group ?? 'default',
      created_time: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await engine.ledger.reloadUser(Number(row.id))
  return Number(row.id)
}

/** Inserts an enabled token of `userId` (500,000 quota, never expiring unless told) and loads it into the ledger. */
async function insertToken(db: Db, engine: RelayEngine, userId: number, o: Partial<TokenOpts> = {}) {
  const key = randomKey(48)
  const row = await db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key,
      status: o.status ?? 1,
      name: o.name ?? `token ${++n}`,
      created_time: 0,
      expired_time: o.expired ?? -1,
      remain_quota: o.remain ?? 500_000,
      unlimited_quota: o.unlimited ? 1 : 0,
      model_limits_enabled: o.modelLimits ? 1 : 0,
      model_limits: o.modelLimits ?? '',
      allow_ips: o.allowIps ?? '',
      group: o.group ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await engine.ledger.reloadToken(Number(row.id))
  return { id: Number(row.id), key: `sk-${key}` }
}

/** Inserts an enabled channel to `baseUrl` (the fake upstream unless told) and reloads the channels. */
async function insertChannel(db: Db, engine: RelayEngine, baseUrl: string, o: Partial<ChannelOpts> = {}): Promise<number> {
  const row = await db
    .insertInto('channels')
    .values({
      type: o.type ?? 1,
      key: o.key ?? `ch-key-${++n}`,
      name: o.name ?? `channel ${n}`,
      models: o.models ?? 'gpt-3.5-turbo,gpt-4o,text-embedding-3-small',
      group: o.group ?? 'default',
      priority: o.priority ?? 0,
      weight: o.weight ?? 0,
      status: o.status ?? 1,
      base_url: o.baseUrl ?? baseUrl,
      model_mapping: o.modelMapping ?? '',
      status_code_mapping: o.statusCodeMapping ?? '',
      auto_ban: o.autoBan ?? 1,
      other: o.other ?? '',
      openai_organization: o.organization ?? '',
      test_model: o.testModel ?? '',
      created_time: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await engine.state.loadChannels()
  return Number(row.id)
}

/** The app listening on a free port of 127.0.0.1. */
function listen(s: TestServer): Promise<ServerType> {
  return new Promise((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
}

/** Closes the listening server, dropping its open connections. */
function stopListening(http: ServerType): Promise<void> {
  return new Promise<void>((resolve) => {
    ;(http as HttpServer).closeAllConnections()
    http.close(() => resolve())
  })
}

export async function relayFixture(dialect: Dialect, options: Record<string, string> = {}): Promise<RelayFixture> {
  const s = await startServer(dialect)
  const fake = await startFakeUpstream()
  for (const [k, v] of Object.entries(options)) await s.ctx.options.set(k, v)
  const engine = relayOf(s.ctx)
  await engine.whenReady()
  engine.random = seeded(42)
  const http = await listen(s)
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const db = s.ctx.db
  const f: RelayFixture = {
    s,
    fake,
    engine,
    base,
    user: (o) => insertUser(db, engine, o),
    token: (userId, o) => insertToken(db, engine, userId, o),
    channel: (o) => insertChannel(db, engine, fake.url, o),
    async refresh() {
      await engine.loadAll()
    },
    idle: () => engine.idle(),
    call(key, method, path, body, headers = {}) {
      const h: Record<string, string> = { authorization: `Bearer ${key}`, ...headers }
      let payload: string | undefined
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body)
        h['content-type'] ??= 'application/json'
      }
      return Promise.resolve(s.app.request(`http://localhost${path}`, { method, headers: h, body: payload }))
    },
    async close() {
      await stopListening(http)
      await s.close()
      await fake.close()
    },
  }
  return f
}

/** Polls a condition every 10 ms, for at most 3 s (for work the bus starts in the background). */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Sums of a user's and token's log rows against their counters. */
export async function ledgerOf(f: RelayFixture, userId: number, tokenId: number) {
  await f.idle()
  const db = f.s.ctx.db
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota', 'status'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow()
  const logs = await db.selectFrom('logs').select(['quota']).where('token_id', '=', tokenId).where('type', '=', 2).execute()
  return {
    user: { quota: Number(user.quota), used: Number(user.used_quota), count: Number(user.request_count) },
    token: { remain: Number(token.remain_quota), used: Number(token.used_quota), status: Number(token.status) },
    logSum: logs.reduce((a, l) => a + Number(l.quota), 0),
    logCount: logs.length,
  }
}
