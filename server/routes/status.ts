import { Hono } from 'hono'
import type { AppContext } from '../context.ts'
import { ok, type Env } from '../http.ts'
import type { OptionStore } from '../options.ts'
import { onlineTopUpEnabled } from '../lib/wallet.ts'
import { MIN_TOPUP_DEFAULT, PRICE_DEFAULT } from '../../domain/wallet-rules.ts'

const startTime = Math.floor(Date.now() / 1000)

/** The public status: what every page may know about the site, built from the options. */
export function publicStatus(o: OptionStore) {
  return {
    version: '0.1.0',
    start_time: startTime,
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    footer_html: o.get('Footer'),
    quota_per_unit: o.quotaPerUnit,
    display_in_currency: o.bool('DisplayInCurrencyEnabled'),
    enable_drawing: o.bool('DrawingEnabled'),
    // the task relays (Suno, video platforms) are always mounted
    enable_task: true,
    enable_data_export: o.bool('DataExportEnabled'),
    data_export_default_time: o.get('DataExportDefaultTime'),
    // minutes between the dashboard's writes (the ledger's buckets), for the dashboard to say
    data_export_interval: Math.max(1, o.num('DataExportInterval', 5)),
    default_collapse_sidebar: o.bool('DefaultCollapseSidebar'),
    mj_notify_enabled: o.bool('MjNotifyEnabled'),
    chat_link: o.get('ChatLink'),
    chat_link2: o.get('ChatLink2'),
    email_verification: o.bool('EmailVerificationEnabled'),
    turnstile_check: o.bool('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    github_oauth: o.bool('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    wechat_login: o.bool('WeChatAuthEnabled'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    telegram_oauth: o.bool('TelegramOAuthEnabled'),
    telegram_bot_name: o.get('TelegramBotName'),
    server_address: o.get('ServerAddress'),
    top_up_link: o.get('TopUpLink'),
    min_topup: o.num('MinTopUp', MIN_TOPUP_DEFAULT),
    price: o.num('Price', PRICE_DEFAULT),
    enable_online_topup: onlineTopUpEnabled(o),
    password_login: o.bool('PasswordLoginEnabled'),
    password_register: o.bool('PasswordRegisterEnabled'),
    register_enabled: o.bool('RegisterEnabled'),
    display_token_stat: o.bool('DisplayTokenStatEnabled'),
  }
}

export function statusRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  app.get('/status', (c) => ok(c, publicStatus(ctx.options)))
  app.get('/notice', (c) => ok(c, ctx.options.get('Notice')))
  app.get('/about', (c) => ok(c, ctx.options.get('About')))
  app.get('/home_page_content', (c) => ok(c, ctx.options.get('HomePageContent')))
  return app
}
