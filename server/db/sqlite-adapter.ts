import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

export function bindable(value: unknown): SQLInputValue {
  if (value === undefined) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  return value as SQLInputValue
}

/** Lets Kysely's SqliteDialect drive Node's built-in `node:sqlite` (no native addon to compile). */
export function nodeSqliteDatabase(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const stmt = db.prepare(sql)
      const params = (p: ReadonlyArray<unknown>) => p.map(bindable)
      return {
        reader: stmt.columns().length > 0,
        all: (p) => stmt.all(...params(p)),
        iterate: (p) => stmt.iterate(...params(p)),
        run: (p) => {
          const r = stmt.run(...params(p))
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid }
        },
      }
    },
  }
}
