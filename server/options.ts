import type { Kysely } from 'kysely'
import type { DB } from './db/schema.ts'
import { insertMissingOptions, readOptions, saveOption } from './db/options.ts'
import { DEFAULT_COMPLETION_RATIO, DEFAULT_GROUP_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from './lib/ratios.ts'
import { SMTP_PORT } from '../domain/option-rules.ts'
import { GRANULARITIES } from '../domain/time.ts'
import { DEFAULT_QUOTA_PER_UNIT, quotaPerUnitOr } from '../domain/quota.ts'
import { MIN_TOPUP_DEFAULT, PRICE_DEFAULT } from '../domain/wallet-rules.ts'

const json = (v: unknown) => JSON.stringify(v, null, 2)

/** Every option key of the spec with its default. All values are strings, as on the wire. */
export const DEFAULT_OPTIONS: Readonly<Record<string, string>> = {
  // switches
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  WeChatAuthEnabled: 'false',
  TelegramOAuthEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  RegisterEnabled: 'true',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  SMTPSSLEnabled: 'false',
  // text and numbers
  Notice: '',
  SystemName: 'Tollgate',
  Logo: '',
  Footer: '',
  About: '',
  HomePageContent: '',
  ServerAddress: '',
  EmbedOrigins: '',
  WorkerUrl: '',
  WorkerValidKey: '',
  PayAddress: '',
  EpayId: '',
  EpayKey: '',
  CustomCallbackAddress: '',
  Price: String(PRICE_DEFAULT),
  MinTopUp: String(MIN_TOPUP_DEFAULT),
  TopupGroupRatio: json(DEFAULT_GROUP_RATIO),
  SMTPServer: '',
  SMTPPort: String(SMTP_PORT),
  SMTPAccount: '',
  SMTPFrom: '',
  SMTPToken: '',
  GitHubClientId: '',
  GitHubClientSecret: '',
  WeChatServerAddress: '',
  WeChatServerToken: '',
  WeChatAccountQRCodeImageURL: '',
  TurnstileSiteKey: '',
  TurnstileSecretKey: '',
  EmailDomainWhitelist: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  TelegramBotToken: '',
  TelegramBotName: '',
  // operation
  TopUpLink: '',
  ChatLink: '',
  ChatLink2: '',
  QuotaPerUnit: String(DEFAULT_QUOTA_PER_UNIT),
  RetryTimes: '0',
  CapPools: '',
  SunoCapStr: '',
  StopWord: '',
  SunoServer: '',
  SunoVersion: '5.37.0',
  SunoProxy: '',
  SunoMe: '',
  UserTimeEnabled: 'false',
  DisplayInCurrencyEnabled: 'true',
  DisplayTokenStatEnabled: 'true',
  DefaultCollapseSidebar: 'false',
  StreamCacheQueueLength: '0',
  // drawing
  DrawingEnabled: 'true',
  MjNotifyEnabled: 'false',
  MjAccountFilterEnabled: 'false',
  MjForwardUrlEnabled: 'true',
  MjModeClearEnabled: 'false',
  MjCDNProxy: '',
  MjTranslate: 'false',
  // the chat model MjTranslate asks through the gateway's own channels (ours, issue 14)
  MjTranslateModel: 'gpt-4o-mini',
  ViggleProEnabled: 'false',
  // The family's keys beyond the spec (issue 13): MjActionCheckSuccessEnabled here,
  // CheckSensitiveOnCompletionEnabled and StopOnSensitiveEnabled below, StreamCacheQueueLength in
  // operation. Stored and answered here; the relay gives them their behaviour.
  MjActionCheckSuccessEnabled: 'true',
  // the task poller (issue 14): seconds between rounds, and how long a task may run before it fails
  TaskPollInterval: '15',
  TaskTimeout: '3600',
  // sensitive words
  CheckSensitiveEnabled: 'false',
  CheckSensitiveOnPromptEnabled: 'false',
  SensitiveWords: '',
  CheckSensitiveOnCompletionEnabled: 'false',
  StopOnSensitiveEnabled: 'true',
  // logs and dashboard
  LogConsumeEnabled: 'true',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  DataExportDefaultTime: GRANULARITIES[0],
  // monitoring
  ChannelDisableThreshold: '5',
  QuotaRemindThreshold: '1000',
  AutomaticDisableChannelEnabled: 'false',
  AutomaticEnableChannelEnabled: 'false',
  // quota
  QuotaForNewUser: '0',
  PreConsumedQuota: '500',
  QuotaForInviter: '0',
  QuotaForInvitee: '0',
  // ratios (JSON)
  ModelPrice: json(DEFAULT_MODEL_PRICE),
  ModelRatio: json(DEFAULT_MODEL_RATIO),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO),
  GroupRatio: json(DEFAULT_GROUP_RATIO),
  VmodelMap: '{}',
  SunoLimit: '{}',
}

/** Option values that are secrets: never sent back by GET /api/option/. */
export function isSecretOption(key: string): boolean {
  return /(Token|Secret|Key)$/.test(key) && key !== 'TurnstileSiteKey'
}

type Listener = (key: string, value: string) => void

/**
 * The options, held in memory (read on every request, by the relay too) and written through to
 * the database. Parsed JSON values are cached until the option changes.
 */
export class OptionStore {
  private values = new Map<string, string>()
  private parsed = new Map<string, unknown>()
  private listeners = new Set<Listener>()

  private db: Kysely<DB>

  constructor(db: Kysely<DB>) {
    this.db = db
    for (const [k, v] of Object.entries(DEFAULT_OPTIONS)) this.values.set(k, v)
  }

  /** Writes the defaults of keys the database lacks, then reads every row. */
  async load(): Promise<void> {
    const rows = await readOptions(this.db)
    const have = new Set(rows.map((r) => r.key))
    const missing = Object.entries(DEFAULT_OPTIONS).filter(([k]) => !have.has(k))
    await insertMissingOptions(
      this.db,
      missing.map(([key, value]) => ({ key, value })),
    )
    for (const r of rows) this.values.set(r.key, r.value)
    this.parsed.clear()
  }

  get(key: string): string {
    return this.values.get(key) ?? ''
  }

  bool(key: string): boolean {
    return this.get(key) === 'true'
  }

  num(key: string, fallback = 0): number {
    const n = Number(this.get(key))
    return this.get(key) !== '' && Number.isFinite(n) ? n : fallback
  }

  /** Parsed JSON of a JSON-valued option; the fallback when it does not parse. */
  json<T>(key: string, fallback: T): T {
    if (this.parsed.has(key)) return this.parsed.get(key) as T
    let v: T = fallback
    try {
      v = JSON.parse(this.get(key)) as T
    } catch {
      /* keep fallback */
    }
    this.parsed.set(key, v)
    return v
  }

  all(): Array<{ key: string; value: string }> {
    return [...this.values].map(([key, value]) => ({ key, value }))
  }

  async set(key: string, value: string): Promise<void> {
    await saveOption(this.db, key, value)
    this.apply(key, value)
  }

  /** Applies a value already stored (by this instance or, via a broadcast, by another one). */
  apply(key: string, value: string): void {
    this.values.set(key, value)
    this.parsed.delete(key)
    for (const l of this.listeners) l(key, value)
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get quotaPerUnit(): number {
    return quotaPerUnitOr(this.num('QuotaPerUnit'))
  }
}
