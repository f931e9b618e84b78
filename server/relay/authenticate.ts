import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Env } from '../http.ts'
import type { RelayEngine } from './engine.ts'
import type { Ledger } from './ledger.ts'
import { RelayError } from './errors.ts'
import type { TokenState, UserState } from './state.ts'
import { ROLE } from '../../domain/roles.ts'
import { TOKEN_STATUS } from '../../domain/statuses.ts'
import { tokenLimitStatus } from '../../domain/token-rules.ts'

/** Who is calling: the token, its owner, the group that prices and routes, a pinned channel. */
export interface Caller {
  token: TokenState
  user: UserState
  group: string
  /** the channel id of an administrator's sk-KEY-<channel id>, else 0 */
  pinned: number
}

/**
 * Stage 1: the API key from `Authorization: Bearer` (or `x-api-key`, `x-goog-api-key`, `?key=`), checked against the
 * in-memory caches: the token usable, its owner enabled, the caller's address allowed.
 */
export async function authenticate(engine: RelayEngine, c: Context<Env>): Promise<Caller> {
  if (!engine.ready) await engine.whenReady()
  const { key, pinned } = parseKey(keyHeader(c))
  const { state, ledger } = engine
  const token = state.tokensByKey.get(key) ?? (key.length <= 64 ? await state.lookupMissingToken(key) : undefined)
  if (!token) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
  refuseUnusableToken(ledger, token)
  const user = state.users.get(token.userId) ?? (await ledger.reloadUser(token.userId))
  if (!user || user.deleted) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
  if (user.status !== 1) throw new RelayError(403, 'the owner of this API key is disabled', 'user_disabled')
  if (token.allowIps) refuseOtherAddresses(c, token.allowIps)
  if (pinned && user.role < ROLE.admin)
    throw new RelayError(403, 'only administrators may pin a channel with sk-KEY-<channel id>', 'channel_pin_forbidden')
  return { token, user, group: token.group || user.group, pinned }
}

/** The key each client convention sends: OpenAI's bearer, Anthropic's x-api-key, Gemini's header or query key. */
function keyHeader(c: Context<Env>): string {
  return c.req.header('authorization') ?? c.req.header('x-api-key') ?? c.req.header('x-goog-api-key') ?? c.req.query('key') ?? ''
}

/** The token key without "Bearer " and "sk-", and the channel id after a second dash. */
function parseKey(header: string): { key: string; pinned: number } {
  let key = header.length > 7 && header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : header.trim()
  if (!key) throw new RelayError(401, 'no API key provided: send Authorization: Bearer sk-...', 'missing_api_key')
  if (key.startsWith('sk-')) key = key.slice(3)
  const dash = key.indexOf('-')
  if (dash < 0) return { key, pinned: 0 }
  const id = key.slice(dash + 1)
  if (!/^[0-9]{1,12}$/.test(id)) throw new RelayError(401, 'invalid API key', 'invalid_api_key')
  return { key: key.slice(0, dash), pinned: Number(id) }
}

/**
 * Refuses a token that is disabled, expired or used up. A token that has just passed its expiry
 * time or run out of quota is marked so (in memory now, in the database with the next batch).
 */
export function refuseUnusableToken(ledger: Ledger, token: TokenState): void {
  if (token.status === TOKEN_STATUS.exhausted) throw new RelayError(401, 'this API key has used up its quota', 'token_exhausted')
  if (token.status === TOKEN_STATUS.expired) throw new RelayError(401, 'this API key has expired', 'token_expired')
  if (token.status !== TOKEN_STATUS.enabled) throw new RelayError(401, 'this API key is disabled', 'token_disabled')
  const reached = tokenLimitStatus(
    { expired_time: token.expiredTime, unlimited_quota: token.unlimited, remain_quota: token.unlimited ? 0 : ledger.tokenRemain(token) },
    Math.floor(Date.now() / 1000),
  )
  if (reached === null) return
  ledger.setTokenStatus(token, reached)
  if (reached === TOKEN_STATUS.expired) throw new RelayError(401, 'this API key has expired', 'token_expired')
  throw new RelayError(401, 'this API key has used up its quota', 'token_exhausted')
}

/** Refuses a caller whose address is not on the token's allow list (IPv4-mapped IPv6 matches IPv4). */
function refuseOtherAddresses(c: Context<Env>, allowIps: readonly string[]): void {
  let ip = ''
  try {
    ip = getConnInfo(c).remote.address ?? ''
  } catch {
    ip = ''
  }
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  if (!allowIps.includes(ip) && !allowIps.includes(plain)) {
    throw new RelayError(403, `this API key may not be used from ${plain || 'this address'}`, 'ip_not_allowed')
  }
}
