import { Hono, type Context } from 'hono'
import { sql, type Insertable, type Updateable } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import type { ChannelsTable } from '../db/schema.ts'
import { Refusal, check, fail, nowSeconds, ok, readBody, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { deleteAbilities, rebuildAbilities, type ChannelRow } from '../lib/abilities.ts'
import { problemText } from '../lib/problems.ts'
import { canFetchModels, CHANNEL_TYPE, otherWithDefault } from '../../domain/channel-types.ts'
import { builtinModelObjects, modelsByType } from '../../domain/channel-models.ts'
import {
  baseUrlProblem,
  channelKeys,
  clampWeight,
  modelMappingProblem,
  modelsProblem,
  nameAndKeyProblem,
  PRIORITY_MIN,
  statusMappingProblem,
  trimTrailingSlash,
} from '../../domain/channel-rules.ts'
import type { Problem } from '../../domain/problem.ts'
import { splitList } from '../../domain/text.ts'
import { DEFAULT_GROUP, ROLE } from '../../domain/roles.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'

const MSG = {
  notFound: 'channel not found, refresh and retry',
  nothingSelected: 'select channels to delete first',
  openaiOnly: 'only the OpenAI interface format is supported',
  fetchFailed: 'fetching model list failed',
}

/** Limits that keep one request from writing an unbounded number of rows. */
const LIMIT = {
  keys: 1000,
  modelName: 255,
  groupName: 64,
  models: 2000,
  groups: 100,
  abilitiesPerRequest: 200_000,
}

const UPSTREAM_TIMEOUT_MS = 15_000
const UPSTREAM_MAX_BYTES = 8 * 1024 * 1024

/** '' and null mean "not given" (the form sends an empty priority or weight that way). */
const blankIsNull = (v: unknown) => (v === '' ? null : v)
const flag = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)

const channelFields = {
  name: z.string().trim().max(128),
  type: z.number().int().min(0).max(9999),
  key: z.string().max(200_000),
  openai_organization: z.string().trim().max(255),
  max_input_tokens: z.number().int().min(0).max(1e9),
  base_url: z.string().trim().max(2048),
  other: z.string().trim().max(4096),
  model_mapping: z.string().trim().max(65_536),
  status_code_mapping: z.string().trim().max(8192),
  models: z.string().max(200_000),
  group: z.string().max(8192),
  auto_ban: z.preprocess(flag, z.number().int().min(0).max(1)),
  test_model: z.string().trim().max(LIMIT.modelName),
  status: z.number().int().min(1).max(3),
  priority: z.preprocess(blankIsNull, z.number().int().min(PRIORITY_MIN).max(1e9).nullable()),
  weight: z.preprocess(blankIsNull, z.number().int().min(-1e9).max(1e6).nullable()),
}

const createBody = z.object(channelFields).partial()
const updateBody = createBody.extend({ id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
type ChannelInput = z.infer<typeof createBody>

const listQuery = z.object({
  p: z.coerce.number().int().min(0).max(1e9).default(0),
  page_size: z.coerce.number().int().min(-1e9).max(1e9).default(10),
  id_sort: z.string().max(8).optional(),
})

const searchQuery = z.object({
  keyword: z.string().trim().max(255).default(''),
  group: z.string().trim().max(LIMIT.groupName).default(''),
  model: z.string().trim().max(LIMIT.modelName).default(''),
  status: z.preprocess(blankIsNull, z.coerce.number().int().min(1).max(3).nullish()),
  id_sort: z.string().max(8).optional(),
})

const idParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })

const batchBody = z.object({ ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).max(LIMIT.keys) })

const DOOY_ACTS = {
  check_viggle: { type: CHANNEL_TYPE.viggle, label: 'Viggle' },
  check_suno: { type: CHANNEL_TYPE.suno, label: 'Suno' },
} as const
type DooyAct = keyof typeof DOOY_ACTS

const dooyBody = z.object({
  act: z.string().max(64),
  type: z.number().int().min(0).max(9999).optional(),
  status: z.number().int().min(1).max(3).default(1),
})

/** The channel as lists show it: everything but the key. */
export function channelView(row: ChannelRow) {
  const { key: _key, ...rest } = row
  return rest
}

function bad(field: string, message: string): never {
  throw new Refusal(`${field} ${message}`, { field })
}

/** A comma list normalised (trimmed, no blanks, no repeats), with each entry's length checked. */
function normaliseList(field: 'models' | 'group', value: string): string[] {
  const list = splitList(value)
  const max = field === 'models' ? LIMIT.modelName : LIMIT.groupName
  const count = field === 'models' ? LIMIT.models : LIMIT.groups
  if (list.length > count) bad(field, `must list at most ${count} entries`)
  const long = list.find((s) => s.length > max)
  if (long !== undefined) bad(field, `entries must be at most ${max} characters`)
  return list
}

/** A field rule's problem is a 400 naming the field. */
function refuse(field: string, p: Problem | null): void {
  if (p) throw new Refusal(problemText(p, field), { field })
}

type ChannelChanges = Updateable<ChannelsTable>

/**
 * The column values a create or update body asks for, validated and normalised. Fields absent
 * from the body stay absent; a business refusal is thrown as a Refusal.
 */
function channelChanges(body: ChannelInput, isNew: boolean): ChannelChanges {
  const out: ChannelChanges = {}
  if (body.name !== undefined) {
    const blank = nameAndKeyProblem(body.name, '', false)
    if (blank) throw new Refusal(problemText(blank))
    out.name = body.name
  }
  if (body.type !== undefined) out.type = body.type
  if (body.openai_organization !== undefined) out.openai_organization = body.openai_organization
  if (body.max_input_tokens !== undefined) out.max_input_tokens = body.max_input_tokens
  if (body.base_url !== undefined) {
    out.base_url = trimTrailingSlash(body.base_url)
    refuse('base_url', baseUrlProblem(out.base_url))
  }
  if (body.other !== undefined) out.other = body.other
  if (body.model_mapping !== undefined) {
    refuse('model_mapping', modelMappingProblem(body.model_mapping))
    out.model_mapping = body.model_mapping
  }
  if (body.status_code_mapping !== undefined) {
    refuse('status_code_mapping', statusMappingProblem(body.status_code_mapping))
    out.status_code_mapping = body.status_code_mapping
  }
  if (body.models !== undefined || isNew) {
    const models = normaliseList('models', body.models ?? '')
    const p = modelsProblem(models)
    if (p) throw new Refusal(problemText(p))
    out.models = models.join(',')
  }
  if (body.group !== undefined) {
    const groups = normaliseList('group', body.group)
    out.group = groups.length ? groups.join(',') : DEFAULT_GROUP
  }
  if (body.auto_ban !== undefined) out.auto_ban = body.auto_ban
  if (body.test_model !== undefined) out.test_model = body.test_model
  if (body.status !== undefined) out.status = body.status
  if (body.priority !== undefined && body.priority !== null) out.priority = body.priority
  if (body.weight !== undefined && body.weight !== null) out.weight = clampWeight(body.weight)
  return out
}

/** Azure and iFlytek need a version in `other`; an empty one gets the type's default. */
function withDefaultOther(changes: ChannelChanges, current?: Pick<ChannelRow, 'type' | 'other'>): void {
  const type = changes.type ?? current?.type ?? CHANNEL_TYPE.openai
  const other = changes.other ?? current?.other ?? ''
  const filled = otherWithDefault(type, other)
  if (filled !== other) changes.other = filled
}

function countOf(list: string | undefined, fallback: number): number {
  return list === undefined ? fallback : Math.max(1, splitList(list).length)
}

interface UpstreamReply {
  status: number
  text: string
  json: unknown
}

/** GET with a bearer key, a time limit and a size limit; throws with a readable reason. */
async function upstreamGet(url: string, key: string): Promise<UpstreamReply> {
  let res: Response
  try {
    res = await fetch(url, {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    })
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } }
    if (err.name === 'TimeoutError') throw new Error(`no answer within ${UPSTREAM_TIMEOUT_MS / 1000} s`)
    throw new Error(err.cause?.code ?? err.cause?.message ?? err.message)
  }
  const length = Number(res.headers.get('content-length') ?? 0)
  if (length > UPSTREAM_MAX_BYTES) {
    await res.body?.cancel()
    throw new Error('the upstream reply is too large')
  }
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json }
}

/** The upstream's own error message, if its reply carries one (OpenAI style or plain). */
function upstreamMessage(reply: UpstreamReply): string {
  const j = reply.json as { error?: { message?: unknown } | string; message?: unknown } | undefined
  const m = typeof j?.error === 'object' ? j.error?.message : (j?.error ?? j?.message)
  const text = typeof m === 'string' && m ? m : reply.text
  return text.replace(/\s+/g, ' ').trim().slice(0, 300)
}

/** First key of a channel (a channel may hold several keys, one per line). */
function firstKey(key: string): string {
  return (
    key
      .split('\n')
      .map((k) => k.trim())
      .find(Boolean) ?? ''
  )
}

/**
 * The account checks of POST /channel/dooy. There is no public reference for this call; each
 * check is one authenticated GET against the channel's upstream, the same way the relay reaches
 * it (`Authorization: Bearer <key>`):
 * - Viggle: `GET {base_url}/viggle/template2/tag`, a cheap listing every Viggle upstream of this
 *   gateway family serves; any 2xx passes.
 * - Suno: `GET {base_url}/api/get_limit` (the credits call of the common Suno API servers); a 2xx
 *   passes unless it reports `credits_left` of 0 or less. An empty base_url falls back to the
 *   SunoServer option.
 */
async function accountCheck(act: DooyAct, channel: ChannelRow, sunoServer: string): Promise<string | null> {
  const base = (channel.base_url || (act === 'check_suno' ? sunoServer : '')).replace(/\/+$/, '')
  if (!base) return 'the channel has no base_url'
  const key = firstKey(channel.key)
  if (!key) return 'the channel has no key'
  const path = act === 'check_viggle' ? '/viggle/template2/tag' : '/api/get_limit'
  let reply: UpstreamReply
  try {
    reply = await upstreamGet(base + path, key)
  } catch (e) {
    return (e as Error).message
  }
  if (reply.status < 200 || reply.status >= 300) return `HTTP ${reply.status} ${upstreamMessage(reply)}`.trim()
  if (act === 'check_suno') {
    const credits = (reply.json as { credits_left?: unknown } | undefined)?.credits_left
    if (typeof credits === 'number' && credits <= 0) return 'no credits left'
  }
  return null
}

/** Runs `fn` over `items` with at most `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))))
  return out
}

export function channelsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const db = ctx.db
  // PostgreSQL runs writers side by side: every transaction that rebuilds or removes a channel's
  // abilities first writes or locks the channel row, so two of them never interleave on one channel
  // and a delete always sees the abilities an update just wrote (SQLite has a single writer)
  const pg = ctx.database.dialect === 'postgres'

  const emitAll = (ids: readonly number[]) => {
    for (const id of ids) ctx.bus.emit('channels', id)
  }

  app.get('/models', user, (c) => ok(c, modelsByType()))

  app.get('/channel/models', admin, (c) => ok(c, builtinModelObjects()))

  app.get('/channel/', admin, async (c) => {
    const q = readQuery(c, listQuery)
    const size = q.page_size < 1 ? 10 : Math.min(q.page_size, 100)
    let query = db.selectFrom('channels').selectAll()
    query = q.id_sort === 'true' ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc')
    const rows = await query
      .limit(size)
      .offset(q.p * size)
      .execute()
    return ok(c, rows.map(channelView))
  })

  app.get('/channel/search', admin, async (c) => {
    const q = readQuery(c, searchQuery)
    let query = db.selectFrom('channels').selectAll()
    if (q.keyword) {
      const id = /^[0-9]{1,15}$/.test(q.keyword) ? Number(q.keyword) : null
      const pattern = `%${q.keyword.toLowerCase().replace(/[\\%_]/g, (ch) => '\\' + ch)}%`
      query = query.where((eb) =>
        eb.or([
          ...(id !== null ? [eb('id', '=', id)] : []),
          eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
          eb('key', '=', q.keyword),
        ]),
      )
    }
    if (q.status !== null && q.status !== undefined) query = query.where('status', '=', q.status)
    query = q.id_sort === 'true' ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc')
    let rows = await query.execute()
    if (q.group) rows = rows.filter((r) => splitList(r.group).includes(q.group))
    if (q.model) rows = rows.filter((r) => splitList(r.models).includes(q.model))
    return ok(c, rows.map(channelView))
  })

  app.get('/channel/fetch_models/:id{[0-9]+}', admin, async (c) => {
    const { id } = check(idParam, c.req.param())
    const channel = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
    if (!channel) return fail(c, MSG.notFound)
    if (!canFetchModels(channel.type)) return fail(c, MSG.openaiOnly)
    const base = (channel.base_url || 'https://api.openai.com').replace(/\/+$/, '')
    let reply: UpstreamReply
    try {
      reply = await upstreamGet(`${base}/v1/models`, firstKey(channel.key))
    } catch (e) {
      return fail(c, `${MSG.fetchFailed}: ${(e as Error).message}`)
    }
    if (reply.status < 200 || reply.status >= 300)
      return fail(c, `${MSG.fetchFailed}: HTTP ${reply.status} ${upstreamMessage(reply)}`.trim())
    const list = (reply.json as { data?: unknown } | undefined)?.data
    if (!Array.isArray(list)) return fail(c, `${MSG.fetchFailed}: the upstream reply has no model list`)
    const ids = [...new Set(list.map((m) => (m as { id?: unknown })?.id).filter((v): v is string => typeof v === 'string' && v !== ''))]
    return ok(c, ids)
  })

  app.get('/channel/:id{[0-9]+}', admin, async (c) => {
    const { id } = check(idParam, c.req.param())
    const channel = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
    if (!channel) return fail(c, MSG.notFound)
    return ok(c, channel)
  })

  app.post('/channel/', admin, async (c) => {
    const body = await readBody(c, createBody)
    const keys = channelKeys(body.key ?? '')
    const missing = nameAndKeyProblem(body.name ?? '', keys.join('\n'), true)
    if (missing) return fail(c, problemText(missing))
    if (keys.length > LIMIT.keys) bad('key', `must hold at most ${LIMIT.keys} keys, one per line`)
    const changes = channelChanges(body, true)
    withDefaultOther(changes)
    if (countOf(changes.models, 1) * countOf(changes.group, 1) * keys.length > LIMIT.abilitiesPerRequest) {
      bad('models', 'x group x keys would grant too many abilities at once')
    }
    const now = nowSeconds()
    const values: Insertable<ChannelsTable>[] = keys.map((key) => ({
      ...(changes as Omit<Insertable<ChannelsTable>, 'key' | 'group'>),
      key,
      group: changes.group ?? DEFAULT_GROUP,
      created_time: now,
    }))
    const created = await db.transaction().execute(async (tx) => {
      const rows: ChannelRow[] = []
      for (let i = 0; i < values.length; i += 200) {
        rows.push(
          ...(await tx
            .insertInto('channels')
            .values(values.slice(i, i + 200))
            .returningAll()
            .execute()),
        )
      }
      await rebuildAbilities(tx, rows)
      return rows
    })
    emitAll(created.map((r) => r.id))
    return ok(c, created.map(channelView), 'channel created')
  })

  app.put('/channel/', admin, async (c) => {
    const body = await readBody(c, updateBody)
    const { id, key, ...rest } = body
    const changes = channelChanges(rest, false)
    const newKey = (key ?? '').trim()
    if (newKey) changes.key = newKey
    const updated = await db.transaction().execute(async (tx) => {
      let find = tx.selectFrom('channels').select(['type', 'other']).where('id', '=', id)
      if (pg) find = find.forUpdate()
      const current = await find.executeTakeFirst()
      if (!current) return null
      withDefaultOther(changes, current)
      if (Object.keys(changes).length) await tx.updateTable('channels').set(changes).where('id', '=', id).execute()
      const row = await tx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      await rebuildAbilities(tx, [row])
      return row
    })
    if (!updated) return fail(c, MSG.notFound)
    ctx.bus.emit('channels', id)
    return ok(c, channelView(updated), 'channel updated')
  })

  app.delete('/channel/disabled', admin, async (c) => {
    const ids = await db.transaction().execute(async (tx) => {
      // the status test sits in the DELETE itself, so a channel enabled meanwhile is kept
      const rows = await tx
        .deleteFrom('channels')
        .where('status', 'in', [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled])
        .returning('id')
        .execute()
      const found = rows.map((r) => r.id)
      await deleteAbilities(tx, found)
      return found
    })
    emitAll(ids)
    return ok(c, ids.length)
  })

  app.post('/channel/batch', admin, async (c) => {
    const { ids } = await readBody(c, batchBody)
    const unique: number[] = [...new Set<number>(ids)]
    if (unique.length === 0) return fail(c, MSG.nothingSelected)
    const gone = await db.transaction().execute(async (tx) => {
      const rows = await tx.deleteFrom('channels').where('id', 'in', unique).returning('id').execute()
      const found = rows.map((r) => r.id)
      await deleteAbilities(tx, found)
      return found
    })
    emitAll(gone)
    return ok(c, gone.length)
  })

  app.post('/channel/fix', admin, async (c) => {
    const count = await db.transaction().execute(async (tx) => {
      if (pg) await tx.selectFrom('channels').select('id').forUpdate().execute()
      await tx.deleteFrom('abilities').execute()
      let done = 0
      let after = 0
      // page through the channels so a large table never sits in memory at once
      for (;;) {
        const rows = await tx
          .selectFrom('channels')
          .select(['id', 'group', 'models', 'status', 'priority', 'weight'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute()
        if (rows.length === 0) break
        await rebuildAbilities(tx, rows)
        done += rows.length
        after = rows[rows.length - 1]!.id
      }
      return done
    })
    ctx.bus.emit('channels')
    return ok(c, count)
  })

  const removeOne = async (c: Context<Env>) => {
    const { id } = check(idParam, c.req.param())
    const found = await db.transaction().execute(async (tx) => {
      const r = await tx.deleteFrom('channels').where('id', '=', id).executeTakeFirst()
      await deleteAbilities(tx, [id])
      return Number(r.numDeletedRows) === 1
    })
    if (!found) return fail(c, MSG.notFound)
    ctx.bus.emit('channels', id)
    return ok(c, null, 'channel deleted')
  }
  app.delete('/channel/:id{[0-9]+}', admin, removeOne)
  app.delete('/channel/:id{[0-9]+}/', admin, removeOne)

  app.post('/channel/dooy', admin, async (c) => {
    const body = await readBody(c, dooyBody)
    if (!(body.act in DOOY_ACTS)) bad('act', `must be one of ${Object.keys(DOOY_ACTS).join(', ')}`)
    const act = body.act as DooyAct
    const spec = DOOY_ACTS[act]
    if (body.type !== undefined && body.type !== spec.type) bad('type', `must be ${spec.type} for ${act}`)
    const channels = await db
      .selectFrom('channels')
      .selectAll()
      .where('type', '=', spec.type)
      .where('status', '=', body.status)
      .orderBy('id')
      .limit(10_000)
      .execute()
    const sunoServer = ctx.options.get('SunoServer')
    const outcomes = await inBatches(channels, 8, async (ch) => ({ ch, reason: await accountCheck(act, ch, sunoServer) }))
    const now = nowSeconds()
    const toDisable = outcomes.filter((o) => o.reason !== null && o.ch.status === CHANNEL_STATUS.enabled && o.ch.auto_ban === 1)
    const toEnable = outcomes.filter((o) => o.reason === null && o.ch.status === CHANNEL_STATUS.autoDisabled)
    const enabled: number[] = []
    const disabled: number[] = []
    await db.transaction().execute(async (tx) => {
      for (const { ch, reason } of toDisable) {
        const info = JSON.stringify({ status_reason: `${spec.label} account check failed: ${reason}`, status_time: now })
        const r = await tx
          .updateTable('channels')
          .set({ status: CHANNEL_STATUS.autoDisabled, other_info: info })
          .where('id', '=', ch.id)
          .where('status', '=', CHANNEL_STATUS.enabled)
          .executeTakeFirst()
        if (Number(r.numUpdatedRows) === 1) disabled.push(ch.id)
      }
      for (const { ch } of toEnable) {
        const r = await tx
          .updateTable('channels')
          .set({ status: CHANNEL_STATUS.enabled, other_info: '' })
          .where('id', '=', ch.id)
          .where('status', '=', CHANNEL_STATUS.autoDisabled)
          .executeTakeFirst()
        if (Number(r.numUpdatedRows) === 1) enabled.push(ch.id)
      }
      const changed = [...enabled, ...disabled]
      for (let i = 0; i < changed.length; i += 500) {
        const rows = await tx
          .selectFrom('channels')
          .selectAll()
          .where('id', 'in', changed.slice(i, i + 500))
          .execute()
        await rebuildAbilities(tx, rows)
      }
    })
    emitAll([...enabled, ...disabled])
    return ok(c, {
      checked: outcomes.length,
      enabled: enabled.length,
      disabled: disabled.length,
      failed: outcomes.filter((o) => o.reason !== null).map((o) => ({ id: o.ch.id, name: o.ch.name, reason: o.reason })),
    })
  })

  return app
}
