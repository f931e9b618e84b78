import { useEffect } from 'react'
import { useLabels } from './option-labels.ts'
import { useT } from '../../i18n/t.ts'
import { toast } from '../../stores/toasts.ts'
import { OptionsTab, useOptionForm, useOptions, type FieldDef } from './option-form.tsx'
import { OptionField, OptionFields, OptionSection } from './option-fields.tsx'
import { SimpleSection } from './option-simple.tsx'
import { useConfirm } from './option-confirm.tsx'
import { SMTP_PORT, SMTPS_PORT } from '../../../domain/option-rules.ts'
import '../../i18n/en/settings.ts'

const sw = (key: string): FieldDef => ({ key, kind: 'switch' })
const text = (key: string, extra: Partial<FieldDef> = {}): FieldDef => ({ key, kind: 'text', ...extra })
/** addresses that lose a trailing slash */
const url = (key: string, hint?: FieldDef['hint']): FieldDef => ({ key, kind: 'url', hint, placeholder: 'https://' })
/** sent only when filled in: the server never sends these back */
const secret = (key: string): FieldDef => ({ key, kind: 'secret', sendIfSet: true })

/** The SMTP port that needs SSL. */
const SSL_PORT = String(SMTPS_PORT)

/** The option forms of the system tab, by section (spec sections 2, 3 and 5). */
const SYSTEM_FIELDS = {
  server: [url('ServerAddress', 'optHint.ServerAddress')],
  embed: [{ key: 'EmbedOrigins', kind: 'textarea', code: true, hint: 'optHint.EmbedOrigins', placeholder: 'https://shop.example' }],
  worker: [url('WorkerUrl', 'optHint.WorkerUrl'), secret('WorkerValidKey')],
  payment: [
    url('PayAddress', 'optHint.PayAddress'),
    text('EpayId', { sendIfSet: true }),
    secret('EpayKey'),
    text('CustomCallbackAddress', { hint: 'optHint.CustomCallbackAddress', placeholder: 'https://' }),
    { key: 'Price', kind: 'number', hint: 'optHint.Price' },
    { key: 'MinTopUp', kind: 'number' },
    { key: 'TopupGroupRatio', kind: 'json', hint: 'optHint.TopupGroupRatio' },
  ],
  login: [
    sw('PasswordLoginEnabled'),
    sw('PasswordRegisterEnabled'),
    sw('EmailVerificationEnabled'),
    sw('GitHubOAuthEnabled'),
    sw('WeChatAuthEnabled'),
    sw('TelegramOAuthEnabled'),
    sw('TurnstileCheckEnabled'),
    sw('RegisterEnabled'),
  ],
  whitelist: [sw('EmailDomainRestrictionEnabled'), sw('EmailAliasRestrictionEnabled'), { key: 'EmailDomainWhitelist', kind: 'list' }],
  smtp: [
    text('SMTPServer', { placeholder: 'smtp.example.com' }),
    { key: 'SMTPPort', kind: 'number', placeholder: String(SMTP_PORT), hint: 'optHint.SMTPPort' },
    text('SMTPAccount'),
    text('SMTPFrom', { hint: 'optHint.SMTPFrom' }),
    secret('SMTPToken'),
    sw('SMTPSSLEnabled'),
  ],
  github: [text('GitHubClientId', { hint: 'optHint.GitHubClientId' }), secret('GitHubClientSecret')],
  wechat: [
    url('WeChatServerAddress', 'optHint.WeChatServerAddress'),
    secret('WeChatServerToken'),
    text('WeChatAccountQRCodeImageURL', { placeholder: 'https://' }),
  ],
  telegram: [text('TelegramBotName'), secret('TelegramBotToken')],
  turnstile: [text('TurnstileSiteKey'), secret('TurnstileSecretKey')],
} satisfies Record<string, readonly FieldDef[]>

/** Payment: saving needs the server address first (payment callbacks are built from it). */
function PaymentSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(SYSTEM_FIELDS.payment)
  const { options } = useOptions()
  const before = () => {
    if ((options.ServerAddress ?? '').trim() === '') {
      toast.error(t('options.serverAddressFirst'))
      return false
    }
    return true
  }
  return <OptionSection id="payment" title={lt('opsec.payment')} hint={lt('opsec.paymentHint')} form={form} before={before} />
}

/** Login and registration switches; turning password sign-in off asks first. */
function LoginSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(SYSTEM_FIELDS.login)
  const [dialog, confirm] = useConfirm()
  const before = async (changes: Array<[FieldDef, string]>) => {
    const passwordOff = changes.some(([f, v]) => f.key === 'PasswordLoginEnabled' && v === 'false')
    return !passwordOff || confirm(t('options.passwordLoginOff'), t('options.passwordLoginOffConfirm'))
  }
  return (
    <OptionSection id="login" title={lt('opsec.login')} hint={lt('opsec.loginHint')} form={form} before={before}>
      <OptionFields form={form} />
      {dialog}
    </OptionSection>
  )
}

/** SMTP: the port hint says 587; port 465 forces SSL on. */
function SmtpSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(SYSTEM_FIELDS.smtp)
  const sslPort = form.value('SMTPPort').trim() === SSL_PORT
  const ssl = form.value('SMTPSSLEnabled')
  useEffect(() => {
    if (sslPort && ssl !== 'true') form.set('SMTPSSLEnabled', 'true')
  }, [sslPort, ssl, form])
  const [server, port, account, from, token, sslField] = SYSTEM_FIELDS.smtp
  return (
    <OptionSection id="smtp" title={lt('opsec.smtp')} hint={lt('opsec.smtpHint')} form={form}>
      <div className="tg-opt__grid">
        <OptionField form={form} field={server!} />
        <OptionField form={form} field={port!} />
        <OptionField form={form} field={account!} />
        <OptionField form={form} field={from!} />
        <OptionField form={form} field={token!} />
      </div>
      <div className="tg-opt__switches">
        <OptionField form={form} field={sslField!} disabled={sslPort} hint={sslPort ? t('options.smtpSslForced') : undefined} />
      </div>
    </OptionSection>
  )
}

/** GitHub OAuth, with the callback address to register at GitHub. */
function GithubSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(SYSTEM_FIELDS.github)
  const { options } = useOptions()
  const base = (options.ServerAddress || location.origin).replace(/\/+$/, '')
  return (
    <OptionSection id="github" title={lt('opsec.github')} hint={lt('opsec.githubHint')} form={form}>
      <OptionFields form={form} />
      <p className="tg-opt__note" data-github-callback="">
        {t('options.githubCallback', { url: `${base}/oauth/github` })}
      </p>
    </OptionSection>
  )
}

function SystemForms() {
  const lt = useLabels()
  return (
    <>
      <SimpleSection id="server" title={lt('opsec.server')} hint={lt('opsec.serverHint')} fields={SYSTEM_FIELDS.server} />
      <SimpleSection id="embed" title={lt('opsec.embed')} hint={lt('opsec.embedHint')} fields={SYSTEM_FIELDS.embed} />
      <SimpleSection id="worker" title={lt('opsec.worker')} hint={lt('opsec.workerHint')} fields={SYSTEM_FIELDS.worker} />
      <PaymentSection />
      <LoginSection />
      <SimpleSection id="whitelist" title={lt('opsec.whitelist')} hint={lt('opsec.whitelistHint')} fields={SYSTEM_FIELDS.whitelist} />
      <SmtpSection />
      <GithubSection />
      <SimpleSection id="wechat" title={lt('opsec.wechat')} hint={lt('opsec.wechatHint')} fields={SYSTEM_FIELDS.wechat} />
      <SimpleSection id="telegram" title={lt('opsec.telegram')} hint={lt('opsec.telegramHint')} fields={SYSTEM_FIELDS.telegram} />
      <SimpleSection id="turnstile" title={lt('opsec.turnstile')} hint={lt('opsec.turnstileHint')} fields={SYSTEM_FIELDS.turnstile} />
    </>
  )
}

/**
 * The system settings tab (super administrator): server address, embedding sites, worker proxy, payment, login
 * and registration, e-mail domain whitelist, SMTP, GitHub OAuth, WeChat server, Telegram login
 * and the bot check.
 */
export function SystemTab() {
  return (
    <OptionsTab id="system">
      <SystemForms />
    </OptionsTab>
  )
}
