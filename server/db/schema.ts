import type { ColumnType, Generated } from 'kysely'

/** A column with a database default: optional on insert. */
type D<T> = ColumnType<T, T | undefined, T>

/** Booleans are stored as 0/1 integers so SQLite and PostgreSQL read back the same thing. */
type Flag = D<number>

export interface UsersTable {
  id: Generated<number>
  username: string
  password: D<string>
  display_name: D<string>
  role: D<number>
  status: D<number>
  email: D<string>
  github_id: D<string>
  wechat_id: D<string>
  telegram_id: D<string>
  access_token: D<string | null>
  quota: D<number>
  used_quota: D<number>
  request_count: D<number>
  group: string
  aff_code: D<string | null>
  aff_count: D<number>
  aff_quota: D<number>
  aff_history_quota: D<number>
  inviter_id: D<number>
  created_time: D<number>
  deleted_at: D<number | null>
}

export interface TokensTable {
  id: Generated<number>
  user_id: D<number>
  key: string
  status: D<number>
  name: D<string>
  created_time: D<number>
  accessed_time: D<number>
  expired_time: D<number>
  remain_quota: D<number>
  unlimited_quota: Flag
  model_limits_enabled: Flag
  model_limits: D<string>
  allow_ips: D<string>
  used_quota: D<number>
  group: string
}

export interface ChannelsTable {
  id: Generated<number>
  type: D<number>
  key: string
  openai_organization: D<string>
  max_input_tokens: D<number>
  test_model: D<string>
  status: D<number>
  name: D<string>
  weight: D<number>
  created_time: D<number>
  test_time: D<number>
  response_time: D<number>
  base_url: D<string>
  other: D<string>
  balance: D<number>
  balance_updated_time: D<number>
  models: D<string>
  group: string
  used_quota: D<number>
  model_mapping: D<string>
  status_code_mapping: D<string>
  priority: D<number>
  auto_ban: Flag
  other_info: D<string>
}

export interface AbilitiesTable {
  group: string
  model: string
  channel_id: number
  enabled: Flag
  priority: D<number>
  weight: D<number>
}

export interface RedemptionsTable {
  id: Generated<number>
  user_id: D<number>
  key: string
  status: D<number>
  name: D<string>
  quota: D<number>
  created_time: D<number>
  redeemed_time: D<number>
  used_user_id: D<number>
}

export interface LogsTable {
  id: Generated<number>
  user_id: D<number>
  created_at: D<number>
  type: D<number>
  content: D<string>
  username: string
  token_name: D<string>
  token_id: D<number>
  model_name: D<string>
  quota: D<number>
  prompt_tokens: D<number>
  completion_tokens: D<number>
  use_time: D<number>
  is_stream: Flag
  channel: D<number>
  other: D<string>
}

export interface OptionsTable {
  key: string
  value: string
}

export interface TopUpsTable {
  id: Generated<number>
  user_id: D<number>
  amount: D<number>
  money: D<number>
  trade_no: string
  payment_method: D<string>
  create_time: D<number>
  complete_time: D<number>
  status: D<string>
}

/** One table for every provider kind of task (midjourney, suno, luma, …), told apart by platform. */
export interface TasksTable {
  id: Generated<number>
  platform: string
  user_id: D<number>
  channel_id: number
  task_id: D<string>
  action: D<string>
  code: D<number>
  status: D<string>
  progress: D<string>
  prompt: D<string>
  prompt_en: D<string>
  description: D<string>
  fail_reason: D<string>
  url: D<string>
  quota: D<number>
  /** milliseconds since the epoch */
  submit_time: D<number>
  start_time: D<number>
  finish_time: D<number>
  created_at: D<number>
  updated_at: D<number>
  properties: D<string>
  data: D<string>
  buttons: D<string>
  /** added by 0003_tasks */
  sub_platform: D<string>
  title: D<string>
  text: D<string>
  image_url: D<string>
  audio_url: D<string>
  result: D<string>
  /** length of the produced video or audio, seconds */
  video_duration: D<number>
  /** added by 0014_task_polling: the token charged */
  token_id: D<number>
  /** milliseconds until which one instance polls the task */
  lease_until: D<number>
  /** failed polls in a row */
  poll_errors: D<number>
  /** 1 once the charge was given back */
  refunded: D<number>
}

/** Hourly usage buckets for the data dashboard: created_at is the start of the hour (seconds). */
export interface QuotaDataTable {
  id: Generated<number>
  user_id: D<number>
  username: string
  model_name: D<string>
  created_at: D<number>
  token_used: D<number>
  count: D<number>
  quota: D<number>
}

/** An hourly usage bucket of one user, token or channel, or of everyone (server/db/quota-data.ts). */
export interface QuotaDimsTable {
  id: Generated<number>
  dim: 'user' | 'token' | 'channel' | 'all'
  key_id: D<number>
  /** the user, or the token's owner (0 for a channel and for everyone) */
  user_id: D<number>
  created_at: D<number>
  token_used: D<number>
  count: D<number>
  quota: D<number>
}

/**
 * quota_dims' users, tokens and channels per UTC day (0018_quota_days; created_at the day's
 * start), written in the same transaction: a breakdown over months finds its top keys in a few
 * thousand rows, not millions.
 */
export interface QuotaDaysTable extends Omit<QuotaDimsTable, 'dim'> {
  dim: 'user' | 'token' | 'channel'
}

/**
 * Everyone's usage per model and hour (0016_quota_models): quota_data summed over its users,
 * written in the same statement batch, so the console's totals read a few thousand rows where
 * quota_data holds one per user, model and hour.
 */
export interface QuotaModelsTable {
  id: Generated<number>
  model_name: D<string>
  created_at: D<number>
  token_used: D<number>
  count: D<number>
  quota: D<number>
}

/** A signed-in session (DESIGN: sessions live on the server); the secret is kept only as its SHA-256. */
export interface SessionsTable {
  id: string
  user_id: number
  secret_hash: string
  kind: 'cookie' | 'embed'
  origin: string | null
  created_at: number
  last_seen_at: number
  expires_at: number
  user_agent: D<string>
}

/** Per journal generation, the highest entry the ledger applied (server/db/ledger-journal.ts). */
export interface LedgerJournalTable {
  gen: string
  seq: D<number>
}

/** Short-lived guard state every instance shares (server/db/guards.ts); times in milliseconds. */
export interface GuardEntriesTable {
  id: string
  value: Generated<string>
  count: Generated<number>
  started_at: D<number>
  last_at: D<number>
  expires_at: D<number>
}

export interface DB {
  sessions: SessionsTable
  users: UsersTable
  tokens: TokensTable
  channels: ChannelsTable
  abilities: AbilitiesTable
  redemptions: RedemptionsTable
  logs: LogsTable
  options: OptionsTable
  top_ups: TopUpsTable
  tasks: TasksTable
  quota_data: QuotaDataTable
  quota_dims: QuotaDimsTable
  quota_models: QuotaModelsTable
  quota_days: QuotaDaysTable
  buckets_since: { id: number; since: number }
  /** ledger batches written into each UTC day's buckets (0024_quota_day_writes) */
  quota_day_writes: { created_at: number; writes: number }
  ledger_journal: LedgerJournalTable
  guard_entries: GuardEntriesTable
}
