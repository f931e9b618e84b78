import { useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as accountApi from '../../api/account.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { AuthCard, FormMessage } from '../../ui/auth-card.tsx'
import { Link } from '../../ui/navigation.tsx'
import { Turnstile } from '../../ui/bot-check.tsx'
import { useCountdown } from '../../ui/countdown.ts'
import { RESEND_LOCK_SECONDS } from '../../../domain/time.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/envelope.ts'
import '../../i18n/en/reset.ts'

/** Password-reset request: the account's e-mail; the send button is locked 30 s after each send. */
export function ResetScreen({ noLinks = false }: { noLinks?: boolean }) {
  const t = useT()
  const status = useStore($status)
  const [email, setEmail] = useState('')
  const [message, setMessage] = useState<{ variant: 'warning' | 'success'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [turnstileToken, setTurnstileToken] = useState('')
  const lock = useCountdown()
  const turnstileOn = !!status?.turnstile_check && !!status.turnstile_site_key

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (lock.left > 0 || busy) return
    setMessage(null)
    if (!email.trim()) return setMessage({ variant: 'warning', text: t('reset.emailMissing') })
    if (turnstileOn && !turnstileToken) return setMessage({ variant: 'warning', text: t('turnstile.notReady') })
    setBusy(true)
    try {
      await accountApi.requestPasswordReset(email.trim(), turnstileToken)
      toast.success(t('reset.sent'))
      setMessage({ variant: 'success', text: t('reset.sent') })
      lock.start(RESEND_LOCK_SECONDS)
    } catch {
      // shown by the API client
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')} links={!noLinks && <Link to="/login">{t('reset.back')}</Link>}>
      <form className="tg-form" part="form" onSubmit={submit} noValidate>
        {message && <FormMessage variant={message.variant}>{message.text}</FormMessage>}
        <sl-input
          label={t('field.email')}
          name="email"
          type="email"
          autocomplete="email"
          placeholder={t('placeholder.email')}
          value={email}
          onsl-input={(e: Event) => setEmail((e.target as HTMLInputElement).value)}
        >
          <sl-icon slot="prefix" name="envelope"></sl-icon>
        </sl-input>
        {turnstileOn && <Turnstile siteKey={status!.turnstile_site_key} onToken={setTurnstileToken} />}
        <sl-button
          type="submit"
          variant="primary"
          size="large"
          loading={busy}
          disabled={lock.left > 0}
          part="submit-button"
          exportparts="base:submit-button__base"
        >
          {lock.left > 0 ? t('reset.resendIn', { n: lock.left }) : t('reset.submit')}
        </sl-button>
      </form>
    </AuthCard>
  )
}
