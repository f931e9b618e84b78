/**
 * Seed data at scale, written fast and in the shapes the server writes it: users, their tokens,
 * channels, usage-log rows, the dashboard's hourly buckets summed from those rows, and tasks. Used
 * by `scripts/seed-logs.ts` and by `npm run bench:console` (tests/bench/console-scale.ts).
 *
 * Rows look like what the relay writes: mostly consumption (type 2) spread evenly over the last
 * `days` days (ids ascending with time), a skewed share per user, model, token and channel. The
 * generator is seeded, so two runs with the same arguments write the same rows. Seed users are
 * named seed_00001… and get a random password nobody knows.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import bcrypt from 'bcryptjs'
import type { Database } from '../server/db/index.ts'
import { insertLogsSql, LEDGER_LOG_COLUMNS } from '../server/db/log-rows.ts'
import { bucketsFrom } from '../server/db/log-stat.ts'
import { refillModelTotals, refillRollups } from '../server/db/quota-data.ts'
import { hashAccessToken } from '../server/middleware/session.ts'
import { DEFAULT_OPTIONS } from '../server/options.ts'
import { TIMEOUT_REASON } from '../server/relay/tasks/poll.ts'

/** mulberry32: a small seeded generator, so seeds are reproducible. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-3.5-turbo',
  'claude-3-5-sonnet-20241022',
  'gpt-4.1-mini',
  'deepseek-chat',
  'gemini-2.0-flash',
  'gpt-4o-2024-08-06',
  'claude-3-haiku-20240307',
  'o3-mini',
  'text-embedding-3-small',
  'gpt-4.1',
  'deepseek-reasoner',
  'gemini-1.5-pro',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'o1',
  'gpt-4-turbo',
  'claude-3-opus-20240229',
  'mj_imagine',
  'mj_upscale',
  'suno_music',
  'gpt-4.1-nano',
  'o1-mini',
]

/** A seed user: id, username, and the ids and names of their tokens. */
export interface SeedUser {
  id: number
  username: string
  tokens: Array<[number, string]>
}

/** How the rows spread: over which users, channels and days. */
export interface Shape {
  users: SeedUser[]
  /** channel ids the consumption rows name */
  channels: number[]
  days: number
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** Seed users: existing ones are kept, missing ones created; answers [id, username] in order. */
export async function seedUsers(database: Database, count: number): Promise<Array<[number, string]>> {
  const width = Math.max(4, String(count).length)
  const names = Array.from({ length: count }, (_, i) => `seed_${pad(i + 1, width)}`)
  const hash = await bcrypt.hash(randomBytes(24).toString('hex'), 10)
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < names.length; i += 500) {
    await database.db
      .insertInto('users')
      .values(
        names
          .slice(i, i + 500)
          .map((username) => ({ username, password: hash, display_name: username, group: 'default', created_time: now })),
      )
      .onConflict((oc) => oc.column('username').doNothing())
      .execute()
  }
  const byName = new Map<string, number>()
  for (let i = 0; i < names.length; i += 5000) {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', 'in', names.slice(i, i + 5000))
      .execute()
    for (const r of rows) byName.set(r.username, r.id)
  }
  return names.map((n) => [byName.get(n)!, n])
}

/**
 * `perUser` tokens for each user, named `<username>-key<i>`, created where missing. With
 * `perUser` 0 the rows name made-up tokens (id user*10+i) that no table holds.
 */
export async function seedTokens(database: Database, users: Array<[number, string]>, perUser: number): Promise<SeedUser[]> {
  if (perUser === 0) {
    return users.map(([id, username]) => ({
      id,
      username,
      tokens: Array.from({ length: 3 }, (_, t) => [id * 10 + t, `${username}-key${t}`] as [number, string]),
    }))
  }
  const now = Math.floor(Date.now() / 1000)
  const rows = users.flatMap(([id, username]) =>
    Array.from({ length: perUser }, (_, t) => ({
      user_id: id,
      key: `seed${pad(id, 10)}${t}${randomBytes(15).toString('hex')}`,
      name: `${username}-key${t}`,
      created_time: now,
      accessed_time: now,
      expired_time: -1,
      remain_quota: 500000,
      unlimited_quota: 1,
      group: '',
    })),
  )
  const existing = new Set(
    (await database.db.selectFrom('tokens').select('name').where('name', 'like', 'seed_%').execute()).map((r) => r.name),
  )
  const missing = rows.filter((r) => !existing.has(r.name))
  for (let i = 0; i < missing.length; i += 500)
    await database.db
      .insertInto('tokens')
      .values(missing.slice(i, i + 500))
      .execute()
  const byUser = new Map<number, Array<[number, string]>>()
  const all = await database.db
    .selectFrom('tokens')
    .select(['id', 'user_id', 'name'])
    .where('name', 'like', 'seed_%')
    .orderBy('id')
    .execute()
  for (const t of all) {
    const list = byUser.get(t.user_id) ?? []
    list.push([t.id, t.name])
    byUser.set(t.user_id, list)
  }
  return users.map(([id, username]) => ({ id, username, tokens: byUser.get(id) ?? [] }))
}

/** `count` OpenAI channels named seed-channel-N (created where missing); answers their ids. */
export async function seedChannels(database: Database, count: number): Promise<number[]> {
  const now = Math.floor(Date.now() / 1000)
  const have = await database.db.selectFrom('channels').select('id').where('name', 'like', 'seed-channel-%').orderBy('id').execute()
  const rows = Array.from({ length: Math.max(0, count - have.length) }, (_, i) => ({
    type: 1,
    key: `sk-seed-${have.length + i + 1}`,
    name: `seed-channel-${have.length + i + 1}`,
    models: 'gpt-4o-mini,gpt-4o',
    group: 'default',
    created_time: now,
    status: 1,
  }))
  for (let i = 0; i < rows.length; i += 500)
    await database.db
      .insertInto('channels')
      .values(rows.slice(i, i + 500))
      .execute()
  const ids = await database.db.selectFrom('channels').select('id').where('name', 'like', 'seed-channel-%').orderBy('id').execute()
  return ids.map((r) => r.id).slice(0, count)
}

/** The columns the relay writes, in its order: a Row holds them in that order. */
type Row = [number, number, number, string, string, string, number, string, number, number, number, number, number, number, string]

/** Row `i` of `count`: the i-th row in time order. */
export function logGenerator(shape: Shape, count: number) {
  const rand = rng(0x5eed)
  const end = Math.floor(Date.now() / 1000)
  const start = end - shape.days * 86400
  const step = (end - start) / Math.max(1, count)
  const ratios = MODELS.map(() => Math.round(rand() * 1500) / 100 + 0.05)
  const { users, channels } = shape
  return (i: number): Row => {
    // Squaring skews toward the first users and models: a few heavy ones, a long light tail.
    const user = users[Math.floor(users.length * rand() ** 2)]!
    const m = Math.floor(MODELS.length * rand() ** 2)
    const r = rand()
    const type = r < 0.94 ? 2 : r < 0.97 ? 1 : r < 0.98 ? 3 : 4
    const [tokenId, tokenName] = user.tokens[Math.floor(rand() * user.tokens.length)] ?? [0, '']
    const channel = channels[Math.floor(channels.length * rand() ** 1.5)] ?? 0
    const prompt = type === 2 ? Math.floor(rand() * 4000) : 0
    const completion = type === 2 ? Math.floor(rand() * 1500) : 0
    const quota = type === 2 ? Math.max(1, Math.round((prompt + completion * 3) * ratios[m]!)) : type === 1 ? 500000 : 0
    const created = Math.floor(start + i * step + rand() * 5)
    const other =
      type === 2
        ? JSON.stringify({
            model_ratio: ratios[m],
            completion_ratio: 3,
            group_ratio: 1,
            model_price: -1,
            frt: Math.floor(rand() * 2000),
            admin_info: { use_channel: [channel] },
          })
        : ''
    const content =
      type === 2
        ? `model ratio ${ratios[m]!.toFixed(2)}, completion ratio 3.00, group ratio 1.00`
        : type === 1
          ? 'topped up 500000 quota with redemption code id 1'
          : 'system note'
    return [
      user.id,
      created,
      type,
      content,
      user.username,
      type === 2 ? tokenName : '',
      type === 2 ? tokenId : 0,
      type === 2 ? MODELS[m]! : '',
      quota,
      prompt,
      completion,
      type === 2 ? Math.floor(rand() * 30) : 0,
      type === 2 && rand() < 0.6 ? 1 : 0,
      type === 2 ? channel : 0,
      other,
    ]
  }
}

const PG_TYPES = [
  'bigint',
  'bigint',
  'int',
  'text',
  'text',
  'text',
  'bigint',
  'text',
  'bigint',
  'bigint',
  'bigint',
  'int',
  'int',
  'bigint',
  'text',
]

/** Writes `count` rows of `row` in batches: prepared inserts in transactions on SQLite, unnest on PostgreSQL. */
export async function seedLogs(
  database: Database,
  row: (i: number) => Row,
  count: number,
  batch: number,
  progress?: (done: number) => void,
) {
  let written = 0
  if (database.dialect === 'sqlite') {
    const raw = database.sqlite!
    const insert = raw.prepare(insertLogsSql(1, '?'))
    while (written < count) {
      const n = Math.min(batch, count - written)
      raw.exec('begin')
      try {
        for (let i = 0; i < n; i++) insert.run(...row(written + i))
        raw.exec('commit')
      } catch (e) {
        raw.exec('rollback')
        throw e
      }
      written += n
      progress?.(written)
    }
    return
  }
  while (written < count) {
    const n = Math.min(batch, count - written)
    const cols: unknown[][] = LEDGER_LOG_COLUMNS.map(() => new Array(n))
    for (let i = 0; i < n; i++) {
      const r = row(written + i)
      for (let c = 0; c < r.length; c++) cols[c]![i] = r[c]
    }
    // One statement per batch: the columns travel as arrays and unnest turns them into rows.
    const arrays = sql.join(cols.map((values, c) => sql`${values}::${sql.raw(PG_TYPES[c]!)}[]`))
    await sql`insert into logs (${sql.join(LEDGER_LOG_COLUMNS.map((c) => sql.ref(c)))}) select * from unnest(${arrays})`.execute(
      database.db,
    )
    written += n
    progress?.(written)
  }
}

/**
 * The dashboard's buckets (quota_data per user and model, quota_dims per token and channel, and
 * what is summed from those: quota_models, the users' and everyone's quota_dims, quota_days)
 * summed from the consumption rows, as the ledger would have added them; existing buckets are
 * replaced. Run once after the rows are written.
 */
export async function seedBuckets(database: Database): Promise<void> {
  const { db } = database
  const hour = sql`created_at - created_at % 3600`
  const sums = sql`sum(prompt_tokens + completion_tokens), count(*), sum(quota)`
  await db.deleteFrom('quota_data').execute()
  await db.deleteFrom('quota_dims').execute()
  await sql`insert into quota_data (user_id, username, model_name, created_at, token_used, count, quota)
    select user_id, max(username), model_name, ${hour}, ${sums} from logs where type = 2 group by user_id, model_name, ${hour}`.execute(db)
  await sql`insert into quota_dims (dim, key_id, user_id, created_at, token_used, count, quota)
    select 'token', token_id, max(user_id), ${hour}, ${sums} from logs where type = 2 and token_id > 0 group by token_id, ${hour}`.execute(
    db,
  )
  await sql`insert into quota_dims (dim, key_id, user_id, created_at, token_used, count, quota)
    select 'channel', channel, 0, ${hour}, ${sums} from logs where type = 2 and channel > 0 group by channel, ${hour}`.execute(db)
  await refillModelTotals(db)
  await refillRollups(db)
  await bucketsFromFirstRow(database)
}

/** Records that the buckets hold every request from the first seeded row on (they were summed from the rows). */
export async function bucketsFromFirstRow(database: Database): Promise<void> {
  const first = await database.db
    .selectFrom('logs')
    .select(sql<number>`min(created_at)`.as('t'))
    .executeTakeFirst()
  await bucketsFrom(database.db, Number(first?.t ?? 0))
}

const TASK_PLATFORMS = ['midjourney', 'suno', 'luma', 'lumav2', 'viggle', 'runway', 'pika', 'kling', 'ideogram'] as const
const TASK_STATUS = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILURE', 'IN_PROGRESS', 'SUBMITTED'] as const

/**
 * `count` finished and running tasks over the platforms, spread like the log rows. As on a gateway
 * that has been running: only tasks of the last TaskTimeout (an hour by default) may still be
 * running; an older one drawn as running has failed on its timeout, as the poller leaves it. (Seeded
 * running a month back, a quarter of them were failed and refunded by the poller of the timed server
 * while it was being timed.)
 */
export async function seedTasks(database: Database, shape: Shape, count: number): Promise<void> {
  const rand = rng(0x7a5c)
  const end = Date.now()
  const runningSince = end - Number(DEFAULT_OPTIONS.TaskTimeout) * 1000
  const step = (shape.days * 86400_000) / Math.max(1, count)
  for (let i = 0; i < count; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - i) }, (_, k) => {
      const n = i + k
      const user = shape.users[Math.floor(shape.users.length * rand() ** 2)]!
      const platform = TASK_PLATFORMS[Math.floor(TASK_PLATFORMS.length * rand() ** 1.5)]!
      const submit = Math.floor(end - shape.days * 86400_000 + n * step)
      const drawn = TASK_STATUS[Math.floor(rand() * TASK_STATUS.length)]!
      const timedOut = (drawn === 'IN_PROGRESS' || drawn === 'SUBMITTED') && submit < runningSince
      const status = timedOut ? 'FAILURE' : drawn
      return {
        platform,
        user_id: user.id,
        channel_id: shape.channels[Math.floor(shape.channels.length * rand())] ?? 0,
        task_id: `seed-${platform}-${n}`,
        action: platform === 'midjourney' ? 'IMAGINE' : 'generate',
        status,
        progress: status === 'SUCCESS' || status === 'FAILURE' ? '100%' : '40%',
        prompt: `a seeded prompt number ${n}`,
        quota: 1000 + Math.floor(rand() * 9000),
        submit_time: submit,
        start_time: submit + 1000,
        finish_time: status === 'SUCCESS' || status === 'FAILURE' ? submit + 60_000 : 0,
        created_at: Math.floor(submit / 1000),
        updated_at: Math.floor(submit / 1000),
        url: status === 'SUCCESS' ? `https://cdn.example.com/${n}.png` : '',
        fail_reason: timedOut ? TIMEOUT_REASON : '',
      }
    })
    await database.db.insertInto('tasks').values(rows).execute()
  }
}

/**
 * Gives root and the `heavy` and `light` users fresh access tokens for timing calls through the
 * routes (answers them by name, with root's id); the caller removes them afterwards.
 */
export async function timingTokens(database: Database, heavy: number, light: number) {
  const { db } = database
  const root = await db.selectFrom('users').select('id').where('role', '>=', 100).orderBy('id').executeTakeFirstOrThrow()
  const tokens = { root: '', heavy: '', light: '' }
  for (const [who, id] of [
    ['root', root.id],
    ['heavy', heavy],
    ['light', light],
  ] as const) {
    tokens[who] = `bench-${who}-${randomBytes(12).toString('hex')}`
    await db
      .updateTable('users')
      .set({ access_token: hashAccessToken(tokens[who]) })
      .where('id', '=', id)
      .execute()
  }
  return { tokens, rootId: root.id }
}
