import type { Selectable } from 'kysely'
import type { AppContext } from '../context.ts'
import type { ChannelsTable, TokensTable, UsersTable } from '../db/schema.ts'
import type { Fresh } from './ledger-batch.ts'
import { splitList } from '../../domain/text.ts'
import { DEFAULT_GROUP } from '../../domain/roles.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'

/** A user as the relay needs it. quota/used/count are the database values as last read (or flushed). */
export interface UserState {
  id: number
  username: string
  role: number
  status: number
  group: string
  deleted: boolean
  quota: number
  used: number
  count: number
  /** quota held by requests in flight (pre-consumed, not yet settled); memory only */
  reserved: number
}

export interface TokenState {
  id: number
  userId: number
  key: string
  name: string
  status: number
  expiredTime: number
  unlimited: boolean
  modelLimits: Set<string> | null
  allowIps: string[] | null
  group: string
  remain: number
  used: number
  reserved: number
}

export interface ChannelState {
  id: number
  type: number
  name: string
  key: string
  status: number
  baseUrl: string
  organization: string
  other: string
  models: string[]
  groups: string[]
  modelMapping: Record<string, string> | null
  statusCodeMapping: Record<string, string> | null
  priority: number
  weight: number
  autoBan: boolean
  testModel: string
}

interface Level {
  priority: number
  channels: ChannelState[]
}

type UserRow = Pick<
  Selectable<UsersTable>,
  'id' | 'username' | 'role' | 'status' | 'group' | 'quota' | 'used_quota' | 'request_count' | 'deleted_at'
>

function parseMap(s: string): Record<string, string> | null {
  if (!s || !s.trim()) return null
  try {
    const v = JSON.parse(s) as unknown
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null
    const out: Record<string, string> = {}
    let any = false
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (typeof val === 'string' || typeof val === 'number') {
        out[k] = String(val)
        any = true
      }
    }
    return any ? out : null
  } catch {
    return null
  }
}

export function channelFromRow(r: Selectable<ChannelsTable>): ChannelState {
  return {
    id: Number(r.id),
    type: Number(r.type),
    name: r.name,
    key: r.key.trim(),
    status: Number(r.status),
    baseUrl: (r.base_url ?? '').trim().replace(/\/+$/, ''),
    organization: (r.openai_organization ?? '').trim(),
    other: (r.other ?? '').trim(),
    models: splitList(r.models ?? ''),
    groups: splitList(r.group || DEFAULT_GROUP),
    modelMapping: parseMap(r.model_mapping ?? ''),
    statusCodeMapping: parseMap(r.status_code_mapping ?? ''),
    priority: Number(r.priority) || 0,
    weight: Math.max(0, Number(r.weight) || 0),
    autoBan: Number(r.auto_ban) === 1,
    testModel: (r.test_model ?? '').trim(),
  }
}

function tokenFromRow(r: Selectable<TokensTable>): TokenState {
  const limits = Number(r.model_limits_enabled) === 1 ? new Set(splitList(r.model_limits ?? '')) : null
  const ips = splitList(r.allow_ips ?? '', /[\n,]/)
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    key: r.key,
    name: r.name,
    status: Number(r.status),
    expiredTime: Number(r.expired_time),
    unlimited: Number(r.unlimited_quota) === 1,
    modelLimits: limits,
    allowIps: ips.length ? ips : null,
    group: (r.group ?? '').trim(),
    remain: Number(r.remain_quota),
    used: Number(r.used_quota),
    reserved: 0,
  }
}

function applyUser(target: UserState | undefined, r: UserRow): UserState {
  const u = target ?? ({ reserved: 0 } as UserState)
  u.id = Number(r.id)
  u.username = r.username
  u.role = Number(r.role)
  u.status = Number(r.status)
  u.group = r.group || DEFAULT_GROUP
  u.deleted = r.deleted_at !== null && r.deleted_at !== undefined
  u.quota = Number(r.quota)
  u.used = Number(r.used_quota)
  u.count = Number(r.request_count)
  return u
}

const PAGE = 2000
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

const USER_COLUMNS = ['id', 'username', 'role', 'status', 'group', 'quota', 'used_quota', 'request_count', 'deleted_at'] as const

/**
 * Tokens, users and channels held in memory, and the routing index built from the enabled
 * channels (group x model -> priority levels). Loads are plain reads; the ledger serialises the
 * ones that touch balances with its flushes.
 */
export class RelayState {
  /**
   * Takes the rows as they stand after a batch: the ledger's deltas plus whatever other instances
   * (or the console) wrote meanwhile, so balances never lag more than one flush for active accounts.
   */
  refresh(fresh: Fresh): void {
    for (const [id, quota, used, count] of fresh.users) {
      const u = this.users.get(id)
      if (u) {
        u.quota = quota
        u.used = used
        u.count = count
      }
    }
    for (const [id, remain, used] of fresh.tokens) {
      const t = this.tokensById.get(id)
      if (t) {
        t.remain = remain
        t.used = used
      }
    }
  }

  tokensByKey = new Map<string, TokenState>()
  tokensById = new Map<number, TokenState>()
  users = new Map<number, UserState>()
  channels = new Map<number, ChannelState>()
  /** group -> model -> levels, highest priority first */
  private index = new Map<string, Map<string, Level[]>>()
  /** group -> sorted distinct models */
  private groupModels = new Map<string, string[]>()
  private missing = new Map<string, number>()
  /**
   * Status changes made in memory (setChannelStatus), numbered in order: a channel load whose read
   * began before a change keeps the change, since its rows may predate the write behind it.
   */
  private statusChanges = new Map<number, { status: number; n: number }>()
  private statusCount = 0
  /** channel loads started, and the latest whose rows are in memory (an older one answering late is dropped) */
  private loadsStarted = 0
  private loadShown = 0
  private ctx: AppContext

  constructor(ctx: AppContext) {
    this.ctx = ctx
  }

  /**
   * Every user, a page at a time with a turn of the event loop between pages: node:sqlite is
   * synchronous, and one read of a large table would stall every request in flight.
   */
  async loadUsers(): Promise<void> {
    const seen = new Set<number>()
    for (let after = 0; ;) {
      const rows = await this.ctx.db.selectFrom('users').select(USER_COLUMNS).where('id', '>', after).orderBy('id').limit(PAGE).execute()
      for (const r of rows) {
        const id = Number(r.id)
        seen.add(id)
        this.users.set(id, applyUser(this.users.get(id), r))
      }
      if (rows.length < PAGE) break
      after = Number(rows[rows.length - 1].id)
      await yieldTurn()
    }
    for (const id of this.users.keys()) if (!seen.has(id)) this.users.delete(id)
  }

  async loadUser(id: number): Promise<UserState | undefined> {
    const r = await this.ctx.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst()
    if (!r) {
      this.users.delete(id)
      return undefined
    }
    const u = applyUser(this.users.get(id), r)
    this.users.set(id, u)
    return u
  }

  /**
   * Updates the cached token in place: requests in flight hold a reference to it, and their
   * holds must come off the same object the next request checks.
   */
  private putToken(t: TokenState): TokenState {
    const old = this.tokensById.get(t.id)
    let kept = t
    if (old) {
      if (old.key !== t.key && this.tokensByKey.get(old.key) === old) this.tokensByKey.delete(old.key)
      t.reserved = old.reserved
      kept = Object.assign(old, t)
    }
    this.tokensById.set(kept.id, kept)
    this.tokensByKey.set(kept.key, kept)
    this.missing.delete(kept.key)
    return kept
  }

  private dropToken(id: number): void {
    const old = this.tokensById.get(id)
    if (!old) return
    this.tokensById.delete(id)
    if (this.tokensByKey.get(old.key) === old) this.tokensByKey.delete(old.key)
  }

  async loadTokens(): Promise<void> {
    const seen = new Set<number>()
    for (let after = 0; ;) {
      const rows = await this.ctx.db.selectFrom('tokens').selectAll().where('id', '>', after).orderBy('id').limit(PAGE).execute()
      for (const r of rows) {
        const t = tokenFromRow(r)
        seen.add(t.id)
        this.putToken(t)
      }
      if (rows.length < PAGE) break
      after = Number(rows[rows.length - 1].id)
      await yieldTurn()
    }
    for (const id of [...this.tokensById.keys()]) if (!seen.has(id)) this.dropToken(id)
  }

  async loadToken(id: number): Promise<TokenState | undefined> {
    const r = await this.ctx.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst()
    if (!r) {
      this.dropToken(id)
      return undefined
    }
    return this.putToken(tokenFromRow(r))
  }

  /**
   * A key not in memory: maybe created by another instance since the last resync. One indexed
   * read, remembered as absent for a few seconds so a flood of bad keys costs the database nothing.
   */
  async lookupMissingToken(key: string): Promise<TokenState | undefined> {
    const now = Date.now()
    const until = this.missing.get(key)
    if (until !== undefined && until > now) return undefined
    const r = await this.ctx.db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirst()
    if (!r) {
      if (this.missing.size > 50_000) this.missing.clear()
      this.missing.set(key, now + 5000)
      return undefined
    }
    const t = this.putToken(tokenFromRow(r))
    // a user this instance has not seen has no unwritten deltas, so a plain read is safe here
    if (!this.users.has(t.userId)) await this.loadUser(t.userId)
    return t
  }

  async loadChannels(): Promise<void> {
    const load = ++this.loadsStarted
    const since = this.statusCount
    const rows = await this.ctx.db.selectFrom('channels').selectAll().execute()
    if (load < this.loadShown) return
    this.loadShown = load
    const next = new Map<number, ChannelState>()
    for (const r of rows) next.set(Number(r.id), channelFromRow(r))
    for (const [id, change] of this.statusChanges) {
      // a change made before this read began is in the rows (its write comes first, or its own reload follows)
      if (change.n <= since) this.statusChanges.delete(id)
      else {
        const ch = next.get(id)
        if (ch) next.set(id, { ...ch, status: change.status })
      }
    }
    this.channels = next
    this.rebuildIndex()
  }

  /** Applies a status change at once (auto-disable) without waiting for a reload. */
  setChannelStatus(id: number, status: number): void {
    this.statusChanges.set(id, { status, n: ++this.statusCount })
    const ch = this.channels.get(id)
    if (!ch || ch.status === status) return
    this.channels.set(id, { ...ch, status })
    this.rebuildIndex()
  }

  rebuildIndex(): void {
    const index = new Map<string, Map<string, Level[]>>()
    for (const ch of this.channels.values()) {
      if (ch.status !== CHANNEL_STATUS.enabled) continue
      for (const g of ch.groups) {
        let byModel = index.get(g)
        if (!byModel) index.set(g, (byModel = new Map()))
        for (const m of ch.models) {
          let levels = byModel.get(m)
          if (!levels) byModel.set(m, (levels = []))
          let level = levels.find((l) => l.priority === ch.priority)
          if (!level) levels.push((level = { priority: ch.priority, channels: [] }))
          level.channels.push(ch)
        }
      }
    }
    const groupModels = new Map<string, string[]>()
    for (const [g, byModel] of index) {
      for (const levels of byModel.values()) {
        levels.sort((a, b) => b.priority - a.priority)
        for (const l of levels) l.channels.sort((a, b) => a.id - b.id)
      }
      groupModels.set(g, [...byModel.keys()].sort())
    }
    this.index = index
    this.groupModels = groupModels
  }

  modelsOf(group: string): string[] {
    return this.groupModels.get(group) ?? []
  }

  hasRoute(group: string, model: string): boolean {
    return !!this.index.get(group)?.get(model)
  }

  /**
   * Picks a channel for (group, model). Attempt i uses the i-th priority level (the lowest once
   * they run out); within a level a weighted random pick with weight + 10, so weight 0 still gets
   * traffic. Channels already tried are skipped while the level has others.
   */
  pick(group: string, model: string, attempt: number, tried: readonly number[], random: () => number): ChannelState | null {
    const levels = this.index.get(group)?.get(model)
    if (!levels || levels.length === 0) return null
    const level = levels[Math.min(attempt, levels.length - 1)]
    let candidates = level.channels
    if (tried.length) {
      const fresh = candidates.filter((c) => !tried.includes(c.id))
      if (fresh.length) candidates = fresh
    }
    if (candidates.length === 1) return candidates[0]
    let total = 0
    for (const c of candidates) total += c.weight + 10
    let r = random() * total
    for (const c of candidates) {
      r -= c.weight + 10
      if (r < 0) return c
    }
    return candidates[candidates.length - 1]
  }
}
