import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import {
  deleteChannels,
  deleteDisabledChannels,
  findChannel,
  insertChannels,
  listChannels,
  rebuildEveryAbility,
  searchChannels,
  updateChannel,
  type ChannelChanges,
  type ChannelRow,
  type NewChannel,
} from '../db/channels.ts'
import { fail, nowSeconds, nullIsAbsent, ok, readBody, readQuery, refuse, type Env } from '../http.ts'
import { localeOf, text } from '../i18n/index.ts'
import { requireRole } from '../middleware/session.ts'
import { problemText } from '../lib/problems.ts'
import { pageSizeQuery, paramId } from '../lib/query.ts'
import { localizedInfo } from '../lib/status-reason.ts'
import { CHANNEL_TYPE, otherWithDefault } from '../../domain/channel-types.ts'
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

/** Limits that keep one request from writing an unbounded number of rows. */
const LIMIT = {
  keys: 1000,
  modelName: 255,
  groupName: 64,
  models: 2000,
  groups: 100,
  abilitiesPerRequest: 200_000,
}

/** '' and null mean "not given" (the form sends an empty priority or weight that way). */
const blankIsAbsent = (v: unknown) => (v === '' || v === null ? undefined : v)
const flag = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(nullIsAbsent, schema.optional())

const channelFields = {
  name: optional(z.string().trim().max(128)),
  type: optional(z.number().int().min(0).max(9999)),
  key: optional(z.string().max(200_000)),
  openai_organization: optional(z.string().trim().max(255)),
  max_input_tokens: optional(z.number().int().min(0).max(1e9)),
  base_url: optional(z.string().trim().max(2048)),
  other: optional(z.string().trim().max(4096)),
  model_mapping: optional(z.string().trim().max(65_536)),
  status_code_mapping: optional(z.string().trim().max(8192)),
  models: optional(z.string().max(200_000)),
  group: optional(z.string().max(8192)),
  auto_ban: z.preprocess((v) => flag(nullIsAbsent(v)), z.number().int().min(0).max(1).optional()),
  test_model: optional(z.string().trim().max(LIMIT.modelName)),
  status: optional(z.number().int().min(1).max(3)),
  priority: z.preprocess(blankIsAbsent, z.number().int().min(PRIORITY_MIN).max(1e9).optional()),
  weight: z.preprocess(blankIsAbsent, z.number().int().min(-1e9).max(1e6).optional()),
}

const createBody = z.object(channelFields)
const updateBody = createBody.extend({ id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
type ChannelInput = z.infer<typeof createBody>

const listQuery = z.object({
  p: z.coerce.number().int().min(0).max(1e9).default(0),
  page_size: pageSizeQuery,
  id_sort: z.string().max(8).optional(),
})

const searchQuery = z.object({
  keyword: z.string().trim().max(255).default(''),
  group: z.string().trim().max(LIMIT.groupName).default(''),
  model: z.string().trim().max(LIMIT.modelName).default(''),
  status: z.preprocess(blankIsAbsent, z.coerce.number().int().min(1).max(3).optional()),
  id_sort: z.string().max(8).optional(),
})

const batchBody = z.object({ ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).max(LIMIT.keys) })

/** The channel as the reader sees it: why it was disabled automatically, in their language. */
function readable<R extends Pick<ChannelRow, 'other_info'>>(c: Context<Env>, row: R): R {
  return { ...row, other_info: localizedInfo(row.other_info, localeOf(c)) ?? row.other_info }
}

/** The channels as lists show them: everything but the key. */
function channelViews(c: Context<Env>, rows: readonly ChannelRow[]) {
  return rows.map(({ key: _key, ...rest }) => readable(c, rest))
}

/** A field rule's problem is a refusal naming the field. */
function refuseIf(field: string, p: Problem | null): void {
  if (p) refuse(problemText(p, field), { field })
}

/** A comma list normalised (trimmed, no blanks, no repeats), with each entry's length checked. */
function normaliseList(field: 'models' | 'group', value: string): string[] {
  const list = splitList(value)
  const max = field === 'models' ? LIMIT.modelName : LIMIT.groupName
  const count = field === 'models' ? LIMIT.models : LIMIT.groups
  if (list.length > count) refuse(text('channel.tooManyEntries', { field, max: count }), { field })
  if (list.some((s) => s.length > max)) refuse(text('channel.entryTooLong', { field, max }), { field })
  return list
}

/** The text fields a body may set as sent (trimmed by the wire shape). */
const PLAIN_FIELDS = ['type', 'openai_organization', 'max_input_tokens', 'other', 'auto_ban', 'test_model', 'status'] as const

/**
 * The column values a create or update body asks for, validated and normalised. Fields absent
 * from the body stay absent; a business refusal is thrown.
 */
function channelChanges(body: ChannelInput, isNew: boolean): ChannelChanges {
  const out: ChannelChanges = {}
  for (const f of PLAIN_FIELDS) if (body[f] !== undefined) (out as Record<string, unknown>)[f] = body[f]
  if (body.name !== undefined) {
    const blank = nameAndKeyProblem(body.name, '', false)
    if (blank) refuse(problemText(blank))
    out.name = body.name
  }
  if (body.base_url !== undefined) {
    out.base_url = trimTrailingSlash(body.base_url)
    refuseIf('base_url', baseUrlProblem(out.base_url))
  }
  if (body.model_mapping !== undefined) {
    refuseIf('model_mapping', modelMappingProblem(body.model_mapping))
    out.model_mapping = body.model_mapping
  }
  if (body.status_code_mapping !== undefined) {
    refuseIf('status_code_mapping', statusMappingProblem(body.status_code_mapping))
    out.status_code_mapping = body.status_code_mapping
  }
  if (body.models !== undefined || isNew) {
    const models = normaliseList('models', body.models ?? '')
    const p = modelsProblem(models)
    if (p) refuse(problemText(p))
    out.models = models.join(',')
  }
  if (body.group !== undefined) {
    const groups = normaliseList('group', body.group)
    out.group = groups.length ? groups.join(',') : DEFAULT_GROUP
  }
  if (body.priority !== undefined) out.priority = body.priority
  if (body.weight !== undefined) out.weight = clampWeight(body.weight)
  return out
}

/** Azure and iFlytek need a version in `other`; an empty one gets the type's default. */
function withDefaultOther(changes: ChannelChanges, current?: Pick<ChannelRow, 'type' | 'other'>): ChannelChanges {
  const type = changes.type ?? current?.type ?? CHANNEL_TYPE.openai
  const other = changes.other ?? current?.other ?? ''
  const filled = otherWithDefault(type, other)
  return filled === other ? changes : { ...changes, other: filled }
}

const countOf = (list: string | undefined): number => (list === undefined ? 1 : Math.max(1, splitList(list).length))

/** The rows a create body asks for: one channel per key (batch create takes one key per line). */
function newChannels(body: ChannelInput): NewChannel[] {
  const keys = channelKeys(body.key ?? '')
  const missing = nameAndKeyProblem(body.name ?? '', keys.join('\n'), true)
  if (missing) refuse(problemText(missing))
  if (keys.length > LIMIT.keys) refuse(text('channel.tooManyKeys', { field: 'key', max: LIMIT.keys }), { field: 'key' })
  const changes = withDefaultOther(channelChanges(body, true))
  if (countOf(changes.models) * countOf(changes.group) * keys.length > LIMIT.abilitiesPerRequest) {
    refuse(text('channel.tooManyAbilities', { field: 'models' }), { field: 'models' })
  }
  const now = nowSeconds()
  const fixed = changes as Omit<NewChannel, 'key' | 'group'>
  return keys.map((key) => ({ ...fixed, key, group: changes.group ?? DEFAULT_GROUP, created_time: now }))
}

/** Channel CRUD (admin), the model lists, and the abilities rebuild. Tests and checks are in channel-ops. */
export function channelsRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const user = requireRole(ctx, ROLE.user)
  const { db } = ctx
  const changed = (ids: readonly number[]) => {
    for (const id of ids) ctx.bus.emit('channels', id)
  }

  app.get('/models', user, (c) => ok(c, modelsByType()))

  app.get('/channel/models', admin, (c) => ok(c, builtinModelObjects()))

  app.get('/channel/', admin, async (c) => {
    const q = readQuery(c, listQuery)
    const rows = await listChannels(db, { page: q.p, size: q.page_size, idSort: q.id_sort === 'true' })
    return ok(c, channelViews(c, rows))
  })

  app.get('/channel/search', admin, async (c) => {
    const q = readQuery(c, searchQuery)
    const rows = await searchChannels(db, { ...q, idSort: q.id_sort === 'true' })
    return ok(c, channelViews(c, rows))
  })

  app.get('/channel/:id{[0-9]+}', admin, async (c) => {
    const channel = await findChannel(db, paramId(c))
    return channel ? ok(c, readable(c, channel)) : fail(c, 'channel.notFound')
  })

  app.post('/channel/', admin, async (c) => {
    const created = await insertChannels(db, newChannels(await readBody(c, createBody)))
    changed(created.map((r) => r.id))
    const message = created.length === 1 ? text('channel.created') : text('channel.createdMany', { count: created.length })
    return ok(c, channelViews(c, created), message)
  })

  app.put('/channel/', admin, async (c) => {
    const { id, key, ...rest } = await readBody(c, updateBody)
    const changes = channelChanges(rest, false)
    if (key?.trim()) changes.key = key.trim()
    const updated = await updateChannel(ctx.database, id, changes, (current) => withDefaultOther(changes, current))
    if (!updated) return fail(c, 'channel.notFound')
    changed([id])
    return ok(c, channelViews(c, [updated])[0], 'channel.updated')
  })

  app.delete('/channel/disabled', admin, async (c) => {
    const gone = await deleteDisabledChannels(db)
    changed(gone)
    return ok(c, gone.length)
  })

  app.post('/channel/batch', admin, async (c) => {
    const { ids } = await readBody(c, batchBody)
    if (ids.length === 0) return fail(c, 'channel.nothingSelected')
    const gone = await deleteChannels(db, [...new Set(ids)])
    changed(gone)
    return ok(c, gone.length)
  })

  app.post('/channel/fix', admin, async (c) => {
    const count = await rebuildEveryAbility(ctx.database)
    ctx.bus.emit('channels')
    return ok(c, count)
  })

  const removeOne = async (c: Context<Env>) => {
    const id = paramId(c)
    if ((await deleteChannels(db, [id])).length === 0) return fail(c, 'channel.notFound')
    changed([id])
    return ok(c, null, 'channel.deleted')
  }
  app.delete('/channel/:id{[0-9]+}', admin, removeOne)
  app.delete('/channel/:id{[0-9]+}/', admin, removeOne)

  return app
}
