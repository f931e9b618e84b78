import { sql, type Kysely } from 'kysely'
import { createHash } from 'node:crypto'
import { Migrator, type Migration } from 'kysely/migration'
import type { Dialect } from './index.ts'

import { big, int, text, withId, type Table } from './migration-columns.ts'
import {
  bucketsInAnswerOrder,
  quotaDayWrites,
  tasksByUser,
  logsByHour,
  logsByTokenId,
  quotaDays,
  quotaDims,
  quotaModels,
  tasksByPlatform,
  tokenSums,
  userBucketsByTime,
} from './migrations-usage.ts'

/** The users and their tokens. */
async function usersAndTokens(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let t: Table = withId(db.schema.createTable('users'), dialect)
  t = t.addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
  t = text(t, 'password')
  t = text(t, 'display_name')
  t = int(t, 'role', 1)
  t = int(t, 'status', 1)
  t = text(t, 'email')
  t = text(t, 'github_id')
  t = text(t, 'wechat_id')
  t = text(t, 'telegram_id')
  t = t.addColumn('access_token', 'varchar(64)', (c) => c.unique())
  t = big(t, 'quota')
  t = big(t, 'used_quota')
  t = big(t, 'request_count')
  t = t.addColumn('group', 'varchar(64)', (c) => c.notNull().defaultTo('default'))
  t = t.addColumn('aff_code', 'varchar(32)', (c) => c.unique())
  t = big(t, 'aff_count')
  t = big(t, 'aff_quota')
  t = big(t, 'aff_history_quota')
  t = big(t, 'inviter_id')
  t = big(t, 'created_time')
  t = t.addColumn('deleted_at', 'bigint')
  await t.execute()
  await db.schema.createIndex('users_email').on('users').column('email').execute()
  await db.schema.createIndex('users_group').on('users').column('group').execute()

  t = withId(db.schema.createTable('tokens'), dialect)
  t = big(t, 'user_id')
  t = t.addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
  t = int(t, 'status', 1)
  t = text(t, 'name')
  t = big(t, 'created_time')
  t = big(t, 'accessed_time')
  t = big(t, 'expired_time', -1)
  t = big(t, 'remain_quota')
  t = int(t, 'unlimited_quota')
  t = int(t, 'model_limits_enabled')
  t = text(t, 'model_limits')
  t = text(t, 'allow_ips')
  t = big(t, 'used_quota')
  t = text(t, 'group')
  await t.execute()
  await db.schema.createIndex('tokens_user_id').on('tokens').columns(['user_id', 'id']).execute()
  await db.schema.createIndex('tokens_name').on('tokens').column('name').execute()
}

/** The channels and the abilities (group, model → channel) the relay picks from. */
async function channelsAndAbilities(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let t: Table = withId(db.schema.createTable('channels'), dialect)
  t = int(t, 'type', 1)
  t = text(t, 'key')
  t = text(t, 'openai_organization')
  t = int(t, 'max_input_tokens')
  t = text(t, 'test_model')
  t = int(t, 'status', 1)
  t = text(t, 'name')
  t = int(t, 'weight')
  t = big(t, 'created_time')
  t = big(t, 'test_time')
  t = int(t, 'response_time')
  t = text(t, 'base_url')
  t = text(t, 'other')
  t = t.addColumn('balance', 'double precision', (c) => c.notNull().defaultTo(0))
  t = big(t, 'balance_updated_time')
  t = text(t, 'models')
  t = t.addColumn('group', 'varchar(255)', (c) => c.notNull().defaultTo('default'))
  t = big(t, 'used_quota')
  t = text(t, 'model_mapping')
  t = text(t, 'status_code_mapping')
  t = big(t, 'priority')
  t = int(t, 'auto_ban', 1)
  t = text(t, 'other_info')
  await t.execute()
  await db.schema.createIndex('channels_name').on('channels').column('name').execute()

  await db.schema
    .createTable('abilities')
    .addColumn('group', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(255)', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute()
  await db.schema.createIndex('abilities_channel_id').on('abilities').column('channel_id').execute()
}

/** Redemption codes and the logs. */
async function redemptionsAndLogs(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let t: Table = withId(db.schema.createTable('redemptions'), dialect)
  t = big(t, 'user_id')
  t = t.addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
  t = int(t, 'status', 1)
  t = text(t, 'name')
  t = big(t, 'quota', 100)
  t = big(t, 'created_time')
  t = big(t, 'redeemed_time')
  t = big(t, 'used_user_id')
  await t.execute()
  await db.schema.createIndex('redemptions_name').on('redemptions').column('name').execute()

  t = withId(db.schema.createTable('logs'), dialect)
  t = big(t, 'user_id')
  t = big(t, 'created_at')
  t = int(t, 'type')
  t = text(t, 'content')
  t = text(t, 'username')
  t = text(t, 'token_name')
  t = big(t, 'token_id')
  t = text(t, 'model_name')
  t = big(t, 'quota')
  t = big(t, 'prompt_tokens')
  t = big(t, 'completion_tokens')
  t = int(t, 'use_time')
  t = int(t, 'is_stream')
  t = big(t, 'channel')
  t = text(t, 'other')
  await t.execute()
  await db.schema.createIndex('logs_created_at').on('logs').column('created_at').execute()
  await db.schema.createIndex('logs_user_id_id').on('logs').columns(['user_id', 'id']).execute()
  await db.schema.createIndex('logs_type_id').on('logs').columns(['type', 'id']).execute()
  await db.schema.createIndex('logs_model_name').on('logs').column('model_name').execute()
  await db.schema.createIndex('logs_token_name').on('logs').column('token_name').execute()
  await db.schema.createIndex('logs_username').on('logs').column('username').execute()
  await db.schema.createIndex('logs_channel').on('logs').column('channel').execute()
}

/** The options (key → value) and the top-ups. */
async function optionsAndTopUps(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('options')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    .execute()

  let t: Table = withId(db.schema.createTable('top_ups'), dialect)
  t = big(t, 'user_id')
  t = big(t, 'amount')
  t = t.addColumn('money', 'double precision', (c) => c.notNull().defaultTo(0))
  t = t.addColumn('trade_no', 'varchar(64)', (c) => c.notNull().unique())
  t = text(t, 'payment_method')
  t = big(t, 'create_time')
  t = big(t, 'complete_time')
  t = t.addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
  await t.execute()
  await db.schema.createIndex('top_ups_user_id').on('top_ups').column('user_id').execute()
}

/** The asynchronous tasks and the dashboard's quota buckets. */
async function tasksAndQuotaData(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let t: Table = withId(db.schema.createTable('tasks'), dialect)
  t = t.addColumn('platform', 'varchar(32)', (c) => c.notNull())
  t = big(t, 'user_id')
  t = big(t, 'channel_id')
  t = t.addColumn('task_id', 'varchar(191)', (c) => c.notNull().defaultTo(''))
  t = text(t, 'action')
  t = int(t, 'code')
  t = text(t, 'status')
  t = text(t, 'progress')
  t = text(t, 'prompt')
  t = text(t, 'prompt_en')
  t = text(t, 'description')
  t = text(t, 'fail_reason')
  t = text(t, 'url')
  t = big(t, 'quota')
  t = big(t, 'submit_time')
  t = big(t, 'start_time')
  t = big(t, 'finish_time')
  t = big(t, 'created_at')
  t = big(t, 'updated_at')
  t = text(t, 'properties')
  t = text(t, 'data')
  t = text(t, 'buttons')
  await t.execute()
  await db.schema.createIndex('tasks_platform_user').on('tasks').columns(['platform', 'user_id', 'id']).execute()
  await db.schema.createIndex('tasks_platform_submit').on('tasks').columns(['platform', 'submit_time']).execute()
  await db.schema.createIndex('tasks_task_id').on('tasks').column('task_id').execute()

  t = withId(db.schema.createTable('quota_data'), dialect)
  t = big(t, 'user_id')
  t = text(t, 'username')
  t = t.addColumn('model_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
  t = big(t, 'created_at')
  t = big(t, 'token_used')
  t = big(t, 'count')
  t = big(t, 'quota')
  await t.execute()
  await db.schema.createIndex('quota_data_bucket').on('quota_data').columns(['user_id', 'model_name', 'created_at']).unique().execute()
  await db.schema.createIndex('quota_data_created_at').on('quota_data').column('created_at').execute()
}

/** The first schema: every table of the first release, created in this order. */
function init(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await usersAndTokens(db, dialect)
      await channelsAndAbilities(db, dialect)
      await redemptionsAndLogs(db, dialect)
      await optionsAndTopUps(db, dialect)
      await tasksAndQuotaData(db, dialect)
    },
  }
}

/**
 * Task fields the console's task lists show that the first schema lacked: a sub-platform (the Pika
 * list's `platfrom` filter), title and text (song title, lyrics, describe output), the media URLs
 * by kind, a result, and the length of the produced video or audio in seconds.
 */
function tasksExtra(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('tasks')
        .addColumn('sub_platform', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute()
      for (const col of ['title', 'text', 'image_url', 'audio_url', 'result']) {
        await db.schema
          .alterTable('tasks')
          .addColumn(col, 'text', (c) => c.notNull().defaultTo(''))
          .execute()
      }
      await db.schema
        .alterTable('tasks')
        .addColumn('video_duration', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('tasks_platform_sub').on('tasks').columns(['platform', 'sub_platform', 'id']).execute()
    },
  }
}

/**
 * The token a task was charged to (its refund goes back there too), and what the task poller needs: a lease (milliseconds; the instance that set it polls the task until
 * then, so several instances on one database never poll one task at once), the failed polls in a
 * row (the lease grows with them: back-off), and whether the charge was refunded (exactly once).
 */
function taskPolling(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const col of ['token_id', 'lease_until', 'poll_errors', 'refunded']) {
        await db.schema
          .alterTable('tasks')
          .addColumn(col, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute()
      }
      await db.schema.createIndex('tasks_due').on('tasks').columns(['progress', 'lease_until']).execute()
    },
  }
}

/**
 * Indexes for the console's log queries on millions of rows: the stat sums read only covering
 * indexes (consumption rows by time, and per user), and the model filter (exact or prefix, a range)
 * seeks by model and time. PostgreSQL keeps that index in the "C" collation, which is what the
 * prefix range compares in whatever the database's own collation is.
 */
function logIndexes(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      const statements =
        dialect === 'postgres'
          ? [
              'create index logs_type_created_sum on logs (type, created_at) include (quota, prompt_tokens, completion_tokens)',
              'create index logs_user_type_created_sum on logs (user_id, type, created_at) include (quota, prompt_tokens, completion_tokens)',
              'drop index logs_model_name',
              'create index logs_model_created on logs (model_name collate "C", created_at)',
            ]
          : [
              'create index logs_type_created_sum on logs (type, created_at, quota, prompt_tokens, completion_tokens)',
              'create index logs_user_type_created_sum on logs (user_id, type, created_at, quota, prompt_tokens, completion_tokens)',
              'drop index logs_model_name',
              'create index logs_model_created on logs (model_name, created_at)',
            ]
      for (const statement of statements) await sql.raw(statement).execute(db)
    },
  }
}

/**
 * Server-side sessions (cookie and embed credentials), and access tokens kept as their SHA-256:
 * the tokens already written in the clear are hashed in place.
 */
function sessions(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('origin', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute()
      const plain = await db.selectFrom('users').select(['id', 'access_token']).where('access_token', 'is not', null).execute()
      for (const row of plain) {
        const hash = createHash('sha256').update(String(row.access_token)).digest('hex')
        await db.updateTable('users').set({ access_token: hash }).where('id', '=', row.id).execute()
      }
    },
  }
}

/** The ledger's journal marks (server/db/ledger-journal.ts). */
function ledgerJournal(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_journal')
        .addColumn('gen', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute()
    },
  }
}

/**
 * Guard state shared by every instance (server/db/guards.ts): one-time answers and states,
 * e-mail codes and reset links (as hashes), sign-in failure counters.
 */
function guards(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('guard_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('guard_entries_expires_at').on('guard_entries').column('expires_at').execute()
    },
  }
}

export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({
        '0001_init': init(dialect),
        '0002_log_indexes': logIndexes(dialect),
        '0003_tasks': tasksExtra(),
        '0005_ledger_journal': ledgerJournal(),
        '0010_sessions': sessions(),
        '0010_shared_guards': guards(),
        '0014_task_polling': taskPolling(),
        '0015_quota_dims': quotaDims(dialect),
        '0016_quota_models': quotaModels(dialect),
        '0017_token_sums': tokenSums(dialect),
        '0018_quota_days': quotaDays(dialect),
        '0019_user_buckets_by_time': userBucketsByTime(),
        '0020_tasks_by_platform': tasksByPlatform(),
        '0021_logs_by_hour': logsByHour(),
        '0022_logs_by_token_id': logsByTokenId(),
        '0023_buckets_in_answer_order': bucketsInAnswerOrder(),
        '0024_quota_day_writes': quotaDayWrites(),
        '0025_tasks_by_user': tasksByUser(),
      }),
    },
    migrationTableName: 'tollgate_migrations',
    migrationLockTableName: 'tollgate_migrations_lock',
    // helpers add numbered migrations in parallel (0002_…, 0003_…); a database that already ran a
    // later number must still accept an earlier one added afterwards
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`)
  }
}
