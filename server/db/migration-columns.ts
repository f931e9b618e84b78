/** Column helpers for the migrations: the same column types on SQLite and PostgreSQL. */
import type { CreateTableBuilder } from 'kysely'
import type { Dialect } from './index.ts'

export type Table = CreateTableBuilder<any, any>

export function withId(t: Table, dialect: Dialect): Table {
  return dialect === 'postgres'
    ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

export const big = (t: Table, name: string, def = 0) => t.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(def))
export const int = (t: Table, name: string, def = 0) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(def))
export const text = (t: Table, name: string, def = '') => t.addColumn(name, 'text', (c) => c.notNull().defaultTo(def))
