/** Wire types of the console API (spec sections 3 and 7). */

export interface Envelope<T> {
  success: boolean
  message: string
  data: T
}

export interface User {
  id: number
  username: string
  display_name: string
  email: string
  github_id: string
  wechat_id: string
  telegram_id: string
  group: string
  quota: number
  used_quota: number
  request_count: number
  aff_code?: string | null
  aff_count: number
  aff_quota: number
  aff_history_quota: number
  inviter_id: number
  role: number
  status: number
  DeletedAt: string | null
}

/** GET /api/status: what every page may know about the site. */
export interface PublicStatus {
  version?: string
  start_time?: number
  system_name: string
  logo: string
  footer_html: string
  quota_per_unit: number
  display_in_currency: boolean
  enable_drawing: boolean
  enable_data_export: boolean
  data_export_default_time: string
  /** minutes between the dashboard's writes (ours; the family's status has no such field) */
  data_export_interval?: number
  default_collapse_sidebar: boolean
  mj_notify_enabled: boolean
  chat_link: string
  chat_link2: string
  email_verification: boolean
  turnstile_check: boolean
  turnstile_site_key: string
  github_oauth: boolean
  github_client_id: string
  wechat_login: boolean
  wechat_qrcode: string
  telegram_oauth: boolean
  telegram_bot_name: string
  server_address: string
  top_up_link: string
  min_topup: number
  enable_online_topup: boolean
  price?: number
  password_login?: boolean
  password_register?: boolean
  register_enabled?: boolean
  display_token_stat?: boolean
}

/** An access token (API key) of the signed-in user. `key` comes without the sk- prefix (the client adds it). */
export interface Token {
  id: number
  user_id: number
  name: string
  key: string
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted */
  status: number
  created_time: number
  accessed_time: number
  /** unix seconds, or -1: never expires */
  expired_time: number
  remain_quota: number
  used_quota: number
  unlimited_quota: boolean
  model_limits_enabled: boolean
  /** comma-joined model names */
  model_limits: string
}

/** One model of GET /api/pricing. */
export interface PricingEntry {
  model_name: string
  /** the caller's group can use the model */
  available: boolean
  /** 1 per call (model_price), 0 per usage (model_ratio) */
  quota_type: number
  model_ratio: number
  completion_ratio: number
  /** dollars per call; -1 when billed per usage */
  model_price: number
}

/** GET /api/option/: one option, all values strings (secrets come back as ''). */
export interface OptionEntry {
  key: string
  value: string
}

/** A usage log row (GET /api/log/ and /api/log/self/). */
export interface Log {
  id?: number
  created_at: number
  user_id: number
  username: string
  type: number
  content: string
  token_name: string
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** seconds */
  use_time: number
  is_stream: boolean | number
  channel: number
  /** JSON text: model_ratio, model_price, completion_ratio, group_ratio, admin_info.use_channel */
  other: string
}

/** GET /api/log/stat and /api/log/self/stat. */
export interface LogStat {
  quota: number
  token: number
}

/**
 * GET /api/data/ and /api/data/self: one hourly usage bucket of one model. The admin totals
 * (no username filter) carry no id, user_id or username.
 */
export interface QuotaDataRow {
  id?: number
  user_id?: number
  username?: string
  model_name: string
  /** start of the hour, unix seconds */
  created_at: number
  token_used: number
  count: number
  quota: number
}

/** A channel as the list and search calls send it (no key); GET /api/channel/{id} adds the key. */
export interface Channel {
  id: number
  name: string
  type: number
  key?: string
  openai_organization: string
  max_input_tokens: number
  base_url: string
  other: string
  model_mapping: string
  status_code_mapping: string
  /** comma-separated on the wire */
  models: string
  /** comma-separated on the wire */
  group: string
  auto_ban: number | boolean
  test_model: string
  status: number
  /** ms; 0 means untested */
  response_time: number
  balance: number
  used_quota: number
  priority: number
  weight: number
  created_time: number
  test_time: number
  balance_updated_time: number
  other_info?: string
}

export interface Redemption {
  id: number
  name: string
  key: string
  status: number
  quota: number
  created_time: number
  redeemed_time?: number
  used_user_id: number
  user_id?: number
}

/**
 * A task record of any provider kind (GET /api/mj/, /api/suno/, … and their /self). The provider
 * task id arrives under the platform's own name (mj_id, suno_id, …).
 */
export interface TaskRecord {
  id: number
  created_at: number
  channel_id?: number
  user_id?: number
  platform: string
  sub_platform?: string
  action: string
  code: number
  status: string
  progress: string
  url: string
  image_url: string
  audio_url: string
  result: string
  prompt: string
  prompt_en: string
  description?: string
  fail_reason: string
  title: string
  text: string
  /** milliseconds */
  submit_time: number
  start_time: number
  finish_time: number
  /** seconds queued and seconds until finished */
  qtime: number
  duration: number
  video_duration: number
  videoDuration?: number
  data: unknown
  [idName: string]: unknown
}
