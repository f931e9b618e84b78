import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
import type { Database } from './db/index.ts'
import type { DB } from './db/schema.ts'
import type { OptionStore } from './options.ts'
import type { RateLimiter } from './middleware/rate-limit.ts'

export type ChangeKind = 'users' | 'tokens' | 'channels' | 'options'

/**
 * Tells in-memory caches (the relay's tokens, users, channels) that rows changed, so they
 * refresh at once instead of on a timer. `id` undefined means "everything of that kind".
 */
export class ChangeBus {
  private listeners = new Set<(kind: ChangeKind, id?: number) => void>()
  emit(kind: ChangeKind, id?: number): void {
    for (const l of this.listeners) l(kind, id)
  }
  on(listener: (kind: ChangeKind, id?: number) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

export interface AppContext {
  config: Config
  database: Database
  db: Kysely<DB>
  options: OptionStore
  bus: ChangeBus
  limiter: RateLimiter
  /** run, in order, when the server stops (flush batched writes, close pools) */
  onClose: Array<() => Promise<void> | void>
}
