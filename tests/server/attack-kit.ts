/**
 * The attack run (issue 10, `npm run attack` and its short version in tests/server/attack.test.ts),
 * against a real in-process server: an authorisation matrix over every /api route and role, a
 * bad-input fuzz over every `:id` and query parameter (never a 500), and the CSRF rules over
 * every write and state-changing GET. Each finding is a line; the figures are counted.
 */
import { Client, type TestServer } from './helpers.ts'
import { STATE_CHANGING_GETS } from '../../server/middleware/csrf.ts'

export interface Route {
  method: string
  path: string
}
export interface Figures {
  routes: number
  roles: number
  matrixCalls: number
  fuzzInputs: number
  csrfCalls: number
  failures: string[]
}

const ROLES = [0, 1, 10, 100] as const
type Role = (typeof ROLES)[number]

/** Every /api route the server answers (each method and path once). */
export function apiRoutes(s: TestServer): Route[] {
  const seen = new Map<string, Route>()
  for (const r of s.app.routes) {
    if (!r.path.startsWith('/api/') || r.method === 'ALL' || r.path.includes('*')) continue
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path })
  }
  return [...seen.values()]
}

const PUBLIC: readonly RegExp[] = [
  /^GET \/api\/(status|notice|about|home_page_content|pricing\/?|verification|reset_password|user\/logout|user\/epay\/notify)$/,
  /^POST \/api\/user\/(register|login|reset)$/,
  /^GET \/api\/oauth\/(state|github|wechat|telegram\/login)$/,
]
const USER: readonly RegExp[] = [
  / \/api\/user\/(self|token|aff|aff_transfer|models|topup|amount|pay)$/,
  / \/api\/token(\/|$)/,
  /^GET \/api\/models$/,
  /^GET \/api\/(log|data)\/self/,
  /^GET \/api\/[a-z]+(\/v2)?\/self(\/export)?\/?$/,
  /^GET \/api\/oauth\/(email\/bind|wechat\/bind|telegram\/state|telegram\/bind)$/,
]
const ROOT: readonly RegExp[] = [/ \/api\/option(\/|$)/, /^DELETE \/api\/log\/?$/]

/** The lowest role a route answers (spec section 7): 0 anyone, 1 user, 10 admin, 100 root. */
export function minRole(r: Route): Role {
  const key = `${r.method} ${r.path}`
  if (PUBLIC.some((re) => re.test(key))) return 0
  if (ROOT.some((re) => re.test(key))) return 100
  if (USER.some((re) => re.test(key))) return 1
  return 10
}

/** A concrete path: `:id{…}` becomes `id`. */
export const concrete = (path: string, id = '1') => path.replace(/:id(\{[^}]*\})?/g, id)

/** Calls that end the caller's session or account: made by a throwaway client of that role. */
const ENDS_SESSION = (r: Route) =>
  (r.method === 'GET' && r.path === '/api/user/logout') || (r.method === 'DELETE' && r.path === '/api/user/self')

export async function clients(s: TestServer): Promise<Record<Role, () => Promise<Client>>> {
  const keep: Partial<Record<Role, Client>> = { 0: s.anon, 100: await s.root() }
  keep[1] = await s.user()
  keep[10] = await s.user({ role: 10 })
  return {
    0: async () => s.anon,
    1: async () => keep[1]!,
    10: async () => keep[10]!,
    100: async () => keep[100]!,
  }
}

async function throwaway(s: TestServer, role: Role): Promise<Client> {
  if (role === 0) return new Client(s)
  if (role === 100) return s.root()
  return s.user({ role })
}

/** The matrix: every route as every role; denied (401/403) exactly below its lowest role. */
export async function authzMatrix(s: TestServer, routes: Route[], f: Figures): Promise<void> {
  const as = await clients(s)
  for (const r of routes) {
    const min = minRole(r)
    for (const role of ROLES) {
      const c = ENDS_SESSION(r) ? await throwaway(s, role) : await as[role]()
      const res = await c.call(r.method, concrete(r.path), r.method === 'GET' ? undefined : {})
      f.matrixCalls++
      const denied = res.status === 401 || res.status === 403
      if (res.status >= 500) f.failures.push(`matrix ${r.method} ${r.path} as ${role}: HTTP ${res.status}`)
      else if (denied !== role < min) f.failures.push(`matrix ${r.method} ${r.path} as ${role}: HTTP ${res.status}, lowest role ${min}`)
    }
  }
}

export const BAD_IDS = [
  '0',
  '-1',
  '1.5',
  'abc',
  '99999999999999999999',
  '9007199254740993',
  '1e3',
  '%20',
  '00',
  '0x10',
  '%00',
  '%F0%9F%92%A9',
]
export const BAD_VALUES = ['-1', '99999999999999999999', 'abc', '', "'", '%25', '%00', '1e400', '[]', 'x'.repeat(3000)]
export const QUERY_NAMES = [
  'p',
  'page_size',
  'keyword',
  'group',
  'type',
  'username',
  'token_name',
  'model_name',
  'channel',
  'start_timestamp',
  'end_timestamp',
  'target_timestamp',
  'id',
  'model',
  'code',
  'state',
  'email',
  'token',
  'mj_id',
  'task_id',
  'status',
  'platfrom',
  'purpose',
  'quota',
  'default_time',
]

/**
 * Bad input as root (who reaches every route): each `:id` with every bad id, and every GET with
 * the query names set to each bad value (all at once, or one name at a time when `each`). A 500
 * is a finding.
 */
export async function fuzz(s: TestServer, routes: Route[], f: Figures, each = false): Promise<void> {
  const root = await s.root()
  const probe = async (method: string, path: string) => {
    const res = await root.call(method, path, method === 'GET' ? undefined : {})
    f.fuzzInputs++
    if (res.status >= 500) f.failures.push(`fuzz ${method} ${path.slice(0, 120)}: HTTP ${res.status}`)
  }
  for (const r of routes) {
    if (ENDS_SESSION(r)) continue
    if (r.path.includes(':id')) for (const id of BAD_IDS) await probe(r.method, concrete(r.path, id))
    if (r.method !== 'GET') continue
    for (const v of BAD_VALUES) {
      const names = each ? QUERY_NAMES.map((n) => [n]) : [QUERY_NAMES]
      for (const group of names) await probe('GET', `${concrete(r.path)}?${group.map((n) => `${n}=${v}`).join('&')}`)
    }
  }
}

/**
 * The CSRF rules over every route, as root with the cookie: a form-encoded or text/plain write
 * is 415; a JSON write from another site is 403; a state-changing GET reached by a link is 403.
 */
export async function csrf(s: TestServer, routes: Route[], f: Figures): Promise<void> {
  const root = await s.root()
  root.console = false
  const expect = async (r: Route, want: number, body: unknown, headers: Record<string, string>, what: string) => {
    const res = await root.call(r.method, concrete(r.path), body, headers)
    f.csrfCalls++
    if (res.status !== want) f.failures.push(`csrf ${what} ${r.method} ${r.path}: HTTP ${res.status}, want ${want}`)
  }
  const sibling = { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-site' }
  for (const r of routes) {
    if (r.method !== 'GET') {
      await expect(r, 415, 'a=1', { ...sibling, 'content-type': 'application/x-www-form-urlencoded' }, 'form')
      await expect(r, 415, '{}', { ...sibling, 'content-type': 'text/plain' }, 'text/plain')
      await expect(r, 403, {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, 'cross-site JSON')
    } else if (STATE_CHANGING_GETS.some((re) => re.test(r.path.replace(/^\/api/, '')))) {
      await expect(r, 403, undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, 'link')
      await expect(r, 403, undefined, { 'sec-fetch-site': 'same-origin' }, 'no header')
    }
  }
}

export function newFigures(): Figures {
  return { routes: 0, roles: ROLES.length, matrixCalls: 0, fuzzInputs: 0, csrfCalls: 0, failures: [] }
}
