import { DatabaseSync } from 'node:sqlite'
import { join } from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { DB } from './schema.ts'
import { nodeSqliteDatabase } from './sqlite-adapter.ts'
import { SplitSqliteDialect } from './sqlite-read-split.ts'
import { migrate } from './migrations.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  /** SQLite only: the raw handle, for batched writes in one synchronous transaction */
  sqlite?: DatabaseSync
  close(): Promise<void>
}

// PostgreSQL returns bigint (int8) and numeric as strings; our quota values fit in a double.
pg.types.setTypeParser(20, (v) => Number(v))
pg.types.setTypeParser(1700, (v) => Number(v))

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  let database: Database
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 })
    // JIT off: the console's and the relay's statements are short; on a table of millions of rows
    // without statistics the planner's cost estimates switch JIT compilation on, which alone took
    // 70 ms of a 3 ms log page. No parallel workers either: the console reads pages and buckets
    // on indexes, and a parallel walk of the primary key for a page 10,000 rows deep took 55-75
    // ms, the workers' start and the merge included, against 3-12 ms in one process. Set per
    // connection rather than as startup options, which PgBouncer refuses, and in one statement (a
    // second one queued behind it is what node-postgres deprecates); a server without JIT (before
    // PostgreSQL 11) refuses both, which changes nothing but the speed.
    pool.on('connect', (client) => {
      client.query('SET jit = off; SET max_parallel_workers_per_gather = 0').catch(() => {})
    })
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    database = { db, dialect: 'postgres', close: () => db.destroy() }
  } else if (opts.databaseUrl && !opts.databaseUrl.startsWith('sqlite:') && opts.databaseUrl !== ':memory:') {
    throw new Error(`DATABASE_URL must start with postgres:// (or be unset for SQLite), got ${opts.databaseUrl.split(':')[0]}:`)
  } else {
    const file =
      opts.databaseUrl === ':memory:' || opts.databaseUrl === 'sqlite::memory:'
        ? ':memory:'
        : opts.databaseUrl?.startsWith('sqlite:')
          ? opts.databaseUrl.slice('sqlite:'.length)
          : join(opts.dataDir, 'tollgate.db')
    const raw = new DatabaseSync(file)
    raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;')
    const config = { database: nodeSqliteDatabase(raw) }
    // a file can be opened again by reader threads, so the console's reads leave the event loop
    const db = new Kysely<DB>({ dialect: file === ':memory:' ? new SqliteDialect(config) : new SplitSqliteDialect(config, file) })
    database = { db, dialect: 'sqlite', sqlite: raw, close: () => db.destroy() }
  }
  await migrate(database.db, database.dialect)
  return database
}
