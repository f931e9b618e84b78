import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale } from '../../i18n/t.ts'
import { useSettingsLabels } from './personal-labels.ts'
import * as selfApi from '../../api/self.ts'
import * as oauthApi from '../../api/oauth.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { $config } from '../../stores/config.ts'
import { refreshUser } from '../../stores/account.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { FormDialog, useDialogSubmit } from '../../ui/form-dialog.tsx'
import { useCountdown } from '../../ui/countdown.ts'
import { Turnstile } from '../../ui/bot-check.tsx'
import { RESEND_LOCK_SECONDS } from '../../../domain/time.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/envelope.ts'
import '../../ui/icons/github.ts'
import '../../ui/icons/telegram.ts'
import '../../ui/icons/wechat.ts'
import '../../i18n/en/settings.ts'

/** The send-code button's work: checks (`turnstileToken` null while the bot check has not answered), the request, the lock. */
function useSendBindCode(
  email: string,
  turnstileToken: string | null,
  lock: ReturnType<typeof useCountdown>,
  setMessage: (m: string | null) => void,
) {
  const t = useSettingsLabels()
  const [sending, setSending] = useState(false)

  async function sendCode() {
    setMessage(null)
    if (!email.trim()) {
      setMessage(t('settings.bind.emailMissing'))
      return
    }
    if (turnstileToken === null) {
      setMessage(t('turnstile.notReady'))
      return
    }
    setSending(true)
    try {
      await selfApi.sendBindCode(email.trim(), turnstileToken)
      lock.start(RESEND_LOCK_SECONDS)
      toast.success(t('settings.bind.codeSent'))
    } catch {
      // the API client has shown the server's message
    } finally {
      setSending(false)
    }
  }
  return { sending, sendCode }
}

interface EmailDialogProps {
  open: boolean
  current: string
  lock: ReturnType<typeof useCountdown>
  onClose: () => void
}

function EmailDialog({ open, current, lock, onClose }: EmailDialogProps) {
  const t = useSettingsLabels()
  const status = useStore($status)
  const [email, setEmail] = useState(current)
  const [code, setCode] = useState('')
  const { message, setMessage, busy, run } = useDialogSubmit(onClose)
  const [turnstileToken, setTurnstileToken] = useState('')
  const turnstileOn = !!status?.turnstile_check && !!status.turnstile_site_key
  const { sending, sendCode } = useSendBindCode(email, turnstileOn && !turnstileToken ? null : turnstileToken, lock, setMessage)

  function submit(e: FormEvent) {
    e.preventDefault()
    const problem = !email.trim() || !code.trim() ? t('settings.bind.emailCodeMissing') : null
    void run(problem, () => selfApi.bindEmail(email.trim(), code.trim()), t('settings.bind.bound'), refreshUser)
  }

  return (
    <FormDialog
      label={t('settings.bind.emailTitle')}
      name="bind-email"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('settings.bind.bind')}
      cancelLabel={t('common.cancel')}
    >
      {message && <FormMessage>{message}</FormMessage>}
      <div className="tg-send-row">
        <sl-input
          label={t('field.email')}
          name="bind-email"
          type="email"
          autocomplete="email"
          value={email}
          onsl-input={(e: Event) => setEmail((e.target as HTMLInputElement).value)}
        ></sl-input>
        <sl-button onClick={sendCode} loading={sending} disabled={lock.left > 0} data-action="send-code">
          {lock.left > 0 ? t('settings.bind.resendIn', { n: lock.left }) : t('settings.bind.sendCode')}
        </sl-button>
      </div>
      {turnstileOn && <Turnstile siteKey={status!.turnstile_site_key} onToken={setTurnstileToken} />}
      <sl-input
        label={t('field.code')}
        name="bind-code"
        autocomplete="one-time-code"
        value={code}
        onsl-input={(e: Event) => setCode((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}

function WechatBindDialog({ open, qrCode, onClose }: { open: boolean; qrCode: string; onClose: () => void }) {
  const t = useSettingsLabels()
  const [code, setCode] = useState('')
  const { message, busy, run } = useDialogSubmit(onClose)

  function submit(e: FormEvent) {
    e.preventDefault()
    const problem = code.trim() ? null : t('settings.bind.wechatMissing')
    void run(problem, () => selfApi.bindWechat(code.trim()), t('settings.bind.bound'), refreshUser)
  }

  return (
    <FormDialog
      label={t('settings.bind.wechatTitle')}
      name="bind-wechat"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('settings.bind.bind')}
      cancelLabel={t('common.cancel')}
    >
      {qrCode && <img className="tg-qr" src={qrCode} alt={t('wechat.qrAlt')} />}
      <p className="tg-muted tg-small">{t('wechat.hint')}</p>
      {message && <FormMessage>{message}</FormMessage>}
      <sl-input
        label={t('field.code')}
        name="wechat-code"
        autocomplete="one-time-code"
        value={code}
        onsl-input={(e: Event) => setCode((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}

/**
 * The chat-app widget with the bind URL as its auth URL (built directly: its script cannot find
 * itself in a shadow root). The URL carries a one-time state of this session, asked for first:
 * the server binds the widget's answer only with it.
 */
function TelegramBind({ botName }: { botName: string }) {
  const locale = useLocale()
  const [state, setState] = useState('')
  useEffect(() => {
    selfApi.telegramBindState().then(setState, () => undefined)
  }, [])
  const src = useMemo(() => {
    const authUrl = new URL(`${$config.get().apiBase}${selfApi.TELEGRAM_BIND_PATH}`, location.href)
    authUrl.searchParams.set('state', state)
    const q = new URLSearchParams({
      origin: location.origin,
      return_to: authUrl.href,
      size: 'medium',
      request_access: 'write',
      lang: locale === 'zh' ? 'zh-hans' : 'en',
    })
    return `https://oauth.telegram.org/embed/${encodeURIComponent(botName)}?${q}`
  }, [botName, locale, state])
  if (!state) return null
  return <iframe className="tg-telegram-bind" src={src} title="Telegram" scrolling="no" data-auth-url={selfApi.TELEGRAM_BIND_PATH}></iframe>
}

function BindingRow({
  icon,
  label,
  value,
  children,
  name,
}: {
  icon: string
  label: string
  value: string
  name: string
  children?: ReactNode
}) {
  const t = useSettingsLabels()
  return (
    <li className="tg-binding" data-binding={name}>
      <sl-icon name={icon} aria-hidden="true"></sl-icon>
      <div className="tg-binding__text">
        <strong>{label}</strong>
        <span className={value ? '' : 'tg-muted'} data-bound={value ? 'true' : 'false'}>
          {value || t('settings.bind.notBound')}
        </span>
      </div>
      <div className="tg-binding__action">{children}</div>
    </li>
  )
}

/** Bindings: e-mail (code, 30 s resend lock), messaging app (code), code hosting (GitHub) and chat app (Telegram). */
export function BindingsCard({ user }: { user: User }) {
  const t = useSettingsLabels()
  const status = useStore($status)
  const [dialog, setDialog] = useState<'email' | 'wechat' | null>(null)
  const [githubBusy, setGithubBusy] = useState(false)
  // kept here, not in the dialog: closing and reopening the dialog must not lift the lock
  const lock = useCountdown()
  const github = !!status?.github_oauth && !!status.github_client_id
  const wechat = !!status?.wechat_login
  const telegram = !!status?.telegram_oauth && !!status.telegram_bot_name

  async function startGithub() {
    if (!status) return
    setGithubBusy(true)
    try {
      const state = await oauthApi.state()
      location.assign(oauthApi.githubAuthorizeUrl(status.github_client_id, state))
    } catch {
      setGithubBusy(false)
    }
  }

  return (
    <section className="tg-settings-card" aria-labelledby="tg-bind-title" data-card="bindings">
      <h2 id="tg-bind-title" className="tg-settings-card__title">
        {t('settings.bind.title')}
      </h2>
      <ul className="tg-bindings">
        <BindingRow icon="envelope" label={t('settings.bind.email')} value={user.email} name="email">
          <sl-button size="small" onClick={() => setDialog('email')} data-action="bind-email">
            {user.email ? t('settings.bind.change') : t('settings.bind.bind')}
          </sl-button>
        </BindingRow>
        <BindingRow
          icon="wechat"
          label={t('settings.bind.wechat')}
          value={user.wechat_id ? t('settings.bind.boundValue') : ''}
          name="wechat"
        >
          {wechat && (
            <sl-button size="small" onClick={() => setDialog('wechat')} data-action="bind-wechat">
              {user.wechat_id ? t('settings.bind.change') : t('settings.bind.bind')}
            </sl-button>
          )}
        </BindingRow>
        <BindingRow icon="github" label={t('settings.bind.github')} value={user.github_id} name="github">
          {github && (
            <sl-button size="small" onClick={startGithub} loading={githubBusy} data-action="bind-github">
              {user.github_id ? t('settings.bind.change') : t('settings.bind.bind')}
            </sl-button>
          )}
        </BindingRow>
        <BindingRow icon="telegram" label={t('settings.bind.telegram')} value={user.telegram_id} name="telegram">
          {telegram && !user.telegram_id && <TelegramBind botName={status!.telegram_bot_name} />}
        </BindingRow>
      </ul>
      {dialog === 'email' && <EmailDialog open current={user.email} lock={lock} onClose={() => setDialog(null)} />}
      {dialog === 'wechat' && <WechatBindDialog open qrCode={status?.wechat_qrcode ?? ''} onClose={() => setDialog(null)} />}
    </section>
  )
}
