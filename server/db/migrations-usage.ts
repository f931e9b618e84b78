/** The migrations of the usage buckets the dashboard and the log statistics read. */
import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from './index.ts'
import { big, withId } from './migration-columns.ts'
import { refillRollups } from './quota-data.ts'

/** A table of usage per key and period: quota_dims (hours), quota_days (days). */
async function keyedBuckets(db: Kysely<any>, name: string, dialect: Dialect) {
  let t = withId(db.schema.createTable(name), dialect)
  t = t.addColumn('dim', 'varchar(8)', (c) => c.notNull())
  for (const column of ['key_id', 'user_id', 'created_at', 'token_used', 'count', 'quota']) t = big(t, column)
  await t.execute()
}

/**
 * Hourly usage buckets per token and per channel for the dashboard's breakdowns (the by-user and
 * by-model ones read quota_data). The ledger adds to them with the logs, like quota_data, so they
 * stay exact; a token's bucket keeps its owner for the users' own breakdowns.
 */
export function quotaDims(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await keyedBuckets(db, 'quota_dims', dialect)
      await db.schema.createIndex('quota_dims_bucket').on('quota_dims').columns(['dim', 'key_id', 'created_at']).unique().execute()
      await db.schema.createIndex('quota_dims_dim_created').on('quota_dims').columns(['dim', 'created_at']).execute()
      await db.schema.createIndex('quota_dims_user').on('quota_dims').columns(['user_id', 'dim', 'created_at']).execute()
    },
  }
}

/**
 * Everyone's hourly usage per model: the admin dashboard, the by-model breakdown and the log
 * statistics read it instead of summing quota_data's row per user. Filled from quota_data once.
 * With it buckets_since: the time from which the buckets are known to hold every settled request
 * (moved to "now" whenever DataExportEnabled is turned back on).
 */
export function quotaModels(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      let t = withId(db.schema.createTable('quota_models'), dialect)
      t = t.addColumn('model_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      t = big(t, 'created_at')
      t = big(t, 'token_used')
      t = big(t, 'count')
      t = big(t, 'quota')
      await t.execute()
      await db.schema.createIndex('quota_models_bucket').on('quota_models').columns(['model_name', 'created_at']).unique().execute()
      await db.schema.createIndex('quota_models_created_at').on('quota_models').column('created_at').execute()
      // the admin dashboard and the statistics name a user by username: without it they read every user's buckets
      await db.schema.createIndex('quota_data_username').on('quota_data').columns(['username', 'created_at']).execute()
      await sql`insert into quota_models (model_name, created_at, token_used, count, quota)
        select model_name, created_at, sum(token_used), sum(count), sum(quota) from quota_data group by model_name, created_at`.execute(db)
      // since when the buckets hold every settled request: from now on (what came before is unknown)
      await db.schema
        .createTable('buckets_since')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('since', 'bigint', (c) => c.notNull())
        .execute()
      await db
        .insertInto('buckets_since')
        .values({ id: 1, since: Math.floor(Date.now() / 1000) })
        .execute()
    },
  }
}

/**
 * A token's log statistics sum its rows (the buckets are kept by token id, the filter names the
 * token): from an index that holds what they add up, as for a user's.
 */
export function tokenSums(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql
        .raw(
          dialect === 'postgres'
            ? 'create index logs_token_type_created_sum on logs (token_name, type, created_at) include (user_id, quota, prompt_tokens, completion_tokens)'
            : 'create index logs_token_type_created_sum on logs (token_name, type, created_at, user_id, quota, prompt_tokens, completion_tokens)',
        )
        .execute(db)
    },
  }
}

/**
 * Daily rows per user, token and channel (quota_days), and quota_dims' hourly buckets per user and
 * for everyone: a breakdown by user, token or channel over months reads the top of each day's
 * list and the named keys' rows, where summing the hourly buckets of every key took seconds. The
 * users' and everyone's buckets are filled from quota_data, the days from quota_dims.
 */
export function quotaDays(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await keyedBuckets(db, 'quota_days', dialect)
      await db.schema.createIndex('quota_days_bucket').on('quota_days').columns(['dim', 'key_id', 'created_at']).unique().execute()
      // each day's keys by usage: the breakdown reads the top of every day's list
      await db.schema.createIndex('quota_days_top').on('quota_days').columns(['dim', 'created_at', 'quota']).execute()
      await refillRollups(db)
    },
  }
}

/**
 * One user's dashboard (their own, or an administrator's look by id) reads their buckets of a
 * range in hour order: on (user_id, model_name, created_at) that was every bucket they ever had,
 * sorted.
 */
export function userBucketsByTime(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('quota_data_user_created').on('quota_data').columns(['user_id', 'created_at']).execute()
    },
  }
}

/**
 * A platform's task list, newest first (`/api/mj/`, `/api/task/?platform=`): without an index in
 * that order every task of the platform was read and sorted to draw a page.
 */
export function tasksByPlatform(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('tasks_platform_id').on('tasks').columns(['platform', 'id']).execute()
    },
  }
}

/**
 * A window of the log list far behind the newest rows (one day a month ago), newest first: each
 * hour's ids in order on this index, merged (the hours walk in logs.ts), where the time index
 * alone gave hundreds of thousands of rows to sort by id.
 */
export function logsByHour(): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`create index logs_hour_id on logs ((created_at / 3600), id)`.execute(db)
    },
  }
}

/**
 * The statistics of a token name from its tokens' buckets (log-stat.ts, tokensOnlyNamed): the
 * tokens that wrote rows under the name, and whether one of them wrote under another. The
 * (token_name, token_id) index serves all that the (token_name) one did.
 */
export function logsByTokenId(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('logs_token_name').execute()
      await db.schema.createIndex('logs_token_name_id').on('logs').columns(['token_name', 'token_id']).execute()
      await db.schema.createIndex('logs_token_id_name').on('logs').columns(['token_id', 'token_name']).execute()
    },
  }
}

/**
 * The dashboard's month of buckets in the order it answers them (hour, then model) straight from
 * an index, day by day (quota-data.ts, jsonPieces): each index replaces one that stopped at the hour.
 */
export function bucketsInAnswerOrder(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('quota_data_user_created').execute()
      await db.schema
        .createIndex('quota_data_user_created_model')
        .on('quota_data')
        .columns(['user_id', 'created_at', 'model_name'])
        .execute()
      await db.schema.dropIndex('quota_data_username').execute()
      await db.schema
        .createIndex('quota_data_username_created_model')
        .on('quota_data')
        .columns(['username', 'created_at', 'model_name'])
        .execute()
      await db.schema.dropIndex('quota_models_created_at').execute()
      await db.schema.createIndex('quota_models_created_model').on('quota_models').columns(['created_at', 'model_name']).execute()
    },
  }
}

/**
 * How many ledger batches have written into each UTC day's buckets (quota_day_writes): the
 * dashboard keeps the JSON of closed days it has read and reads a day again only once its count
 * has moved (dashboard-days.ts). Days with no row count as never written.
 */
export function quotaDayWrites(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('quota_day_writes')
        .addColumn('created_at', 'bigint', (c) => c.primaryKey())
        .addColumn('writes', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute()
    },
  }
}

/**
 * A user's own task list, newest first (`/api/task/self`, every platform but Midjourney): no
 * index led with the user, so a user with four tasks had every task read to find them (17-28 ms
 * of a 100,000-task table on SQLite, and a cold read of 157).
 */
export function tasksByUser(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('tasks_user_id').on('tasks').columns(['user_id', 'id']).execute()
    },
  }
}
