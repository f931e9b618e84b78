/**
 * Test fixtures for the server: a real server (routes, database, options) built in-process,
 * driven through `app.request` (no port). SQLite always; PostgreSQL when TEST_DATABASE_URL is set
 * (each server gets a fresh database of its own on that PostgreSQL, dropped on close).
 */
import { after, before, beforeEach } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createServer, type Server } from '../../server/app.ts'
import { loadConfig, type Config } from '../../server/config.ts'

export type Dialect = 'sqlite' | 'postgres'

/** The databases this run covers: SQLite, plus PostgreSQL when TEST_DATABASE_URL is set. */
export const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']

/**
 * The fixture of the tests of the describe() block it is called in: `start` runs before them, the
 * fixture's close() after them and `each` (a reset) before every test. The tests read its fields
 * inside them (they are filled in by then).
 */
export function suiteFixture<F extends { close(): unknown }>(start: () => Promise<F>, each?: (fx: F) => unknown): F {
  const fx = {} as F
  before(async () => {
    Object.assign(fx, await start())
  })
  after(() => fx.close())
  if (each) beforeEach(() => each(fx))
  return fx
}

/**
 * A server and a client signed in as root for the tests of the describe() it is called in: started
 * before them, closed after them, handed to `got` once started.
 */
export function rootServer(dialect: Dialect, got: (s: TestServer, root: Client) => void): void {
  let server: TestServer | undefined
  before(async () => {
    server = await startServer(dialect)
    got(server, await server.root())
  })
  after(() => server?.close())
}

export interface TestServer extends Server {
  dialect: Dialect
  /** a signed-out client */
  anon: Client
  /** a client signed in as root (role 100) */
  root(): Promise<Client>
  /** registers (directly in the database) and signs in a user with the given role */
  user(opts?: { role?: number; quota?: number; username?: string; group?: string }): Promise<Client & { id: number; username: string }>
}

export interface Reply<T = any> {
  status: number
  body: { success: boolean; message: string; data: T; [k: string]: unknown }
  headers: Headers
}

export class Client {
  cookie = ''
  bearer = ''
  /** send `X-Tollgate-Client: 1` as the console does (off: a link or form an attacker makes the browser follow) */
  console = true
  private server: Server
  constructor(server: Server) {
    this.server = server
  }

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const h: Record<string, string> = this.console ? { 'x-tollgate-client': '1', ...headers } : { ...headers }
    if (this.cookie) h.cookie = this.cookie
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`
    let payload: string | undefined
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body)
      // a test may send another type, or none ('')
      h['content-type'] ??= 'application/json'
      if (h['content-type'] === '') delete h['content-type']
    }
    const res = await this.server.app.request(`http://localhost${path}`, { method, headers: h, body: payload })
    const setCookie = res.headers.get('set-cookie')
    if (setCookie) {
      const m = /tollgate_session=([^;]*)/.exec(setCookie)
      if (m) this.cookie = m[1] ? `tollgate_session=${m[1]}` : ''
    }
    const text = await res.text()
    let parsed: any
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = { success: false, message: text, data: null }
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }
  get<T = any>(path: string) {
    return this.call<T>('GET', path)
  }
  post<T = any>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body ?? {})
  }
  put<T = any>(path: string, body?: unknown) {
    return this.call<T>('PUT', path, body ?? {})
  }
  del<T = any>(path: string) {
    return this.call<T>('DELETE', path)
  }
}

export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!)
  const name = `tollgate_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: base.toString() })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: base.toString() })
      await a.connect()
      // pg's Pool.end() resolves before its sockets have closed; a FORCE drop would then kill
      // backends the pool is still ending, and that error surfaces as an uncaught exception.
      for (let i = 0; i < 100; i++) {
        const r = await a.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])
        if (r.rows[0].n === 0) break
        await new Promise((done) => setTimeout(done, 20))
      }
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await a.end()
    },
  }
}

let counter = 0

export async function startServer(dialect: Dialect = 'sqlite', overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-test-'))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl: string | undefined
  if (dialect === 'postgres') {
    const pgdb = await freshPostgres()
    databaseUrl = pgdb.url
    drop = pgdb.drop
  }
  const config = loadConfig(
    { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    { sessionSecret: 'test-secret', criticalRateLimit: 10_000, apiRateLimit: 0, staticDir: join(dataDir, 'no-static'), ...overrides },
  )
  const server = await createServer(config)
  const close = server.close
  const ts: TestServer = Object.assign(server, {
    dialect,
    anon: new Client(server),
    async root() {
      const c = new Client(server)
      const r = await c.post('/api/user/login', { username: 'root', password: config.rootPassword })
      if (!r.body.success) throw new Error(`root login failed: ${r.body.message}`)
      return c
    },
    async user(opts: { role?: number; quota?: number; username?: string; group?: string } = {}) {
      const username = opts.username ?? `u${process.pid % 1000}_${++counter}`.slice(0, 12)
      const { hashPassword } = await import('../../server/lib/users.ts')
      const row = await server.ctx.db
        .insertInto('users')
        .values({
          username,
          password: await hashPassword('password123'),
          display_name: username,
          role: opts.role ?? 1,
          status: 1,
          email: '',
          github_id: '',
          wechat_id: '',
          telegram_id: '',
          quota: opts.quota ?? 0,
          used_quota: 0,
          request_count: 0,
          group: opts.group ?? 'default',
          aff_code: null,
          aff_count: 0,
          aff_quota: 0,
          aff_history_quota: 0,
          inviter_id: 0,
          created_time: Math.floor(Date.now() / 1000),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const c = new Client(server)
      const r = await c.post('/api/user/login', { username, password: 'password123' })
      if (!r.body.success) throw new Error(`login failed: ${r.body.message}`)
      return Object.assign(c, { id: row.id, username })
    },
    async close() {
      await close()
      if (drop) await drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  })
  return ts
}

/**
 * A refused request (DESIGN §3): HTTP 200 with success false, as the family's clients expect; with
 * `field`, the refusal names that field in data.field.
 */
export function assertRefused(r: Reply, what = '', field?: string): void {
  assert.equal(r.status, 200, `${what} -> HTTP ${r.status} ${r.body?.message ?? ''}`.trim())
  assert.equal(r.body.success, false, `${what} -> success ${r.body.success}`.trim())
  if (field !== undefined) assert.equal(r.body.data?.field, field, what)
}

/**
 * A CSV export as text, asked with the client's credential (cookie or bearer) and these headers:
 * the answer, its text kept whole (a plain decode would drop the byte-order mark), and its lines.
 */
export async function downloadCsv(s: TestServer, c: Client, path: string, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers }
  if (c.cookie) h.cookie = c.cookie
  if (c.bearer) h.authorization = `Bearer ${c.bearer}`
  const res = await s.app.request(`http://localhost${path}`, { headers: h })
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer())
  return {
    res,
    text,
    lines: text
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n'),
  }
}
