import { useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as accountApi from '../../api/account.ts'
import { $status } from '../../stores/status.ts'
import { $route } from '../../stores/route.ts'
import { toast } from '../../stores/toasts.ts'
import { AuthCard, FormMessage } from '../../ui/auth-card.tsx'
import { Link, useNavigate } from '../../ui/navigation.tsx'
import { Turnstile } from '../../ui/bot-check.tsx'
import { useCountdown } from '../../ui/countdown.ts'
import { credentialsProblem, passwordProblem, passwordsDifferProblem, USERNAME_MAX } from '../../../domain/account-rules.ts'
import { firstProblem } from '../../../domain/problem.ts'
import { RESEND_LOCK_SECONDS } from '../../../domain/time.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/envelope.ts'
import '../../ui/icons/person.ts'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/register.ts'

interface RegisterScreenProps {
  /** hide the link to sign-in */
  noLinks?: boolean
  /** an account was created through this screen */
  onRegistered?: (username: string) => void
}

/**
 * Registration: username, password and its confirmation; with e-mail verification on, also the
 * e-mail, a send-code button (locked 30 s after each send) and the code. An invite code comes
 * from the page's ?aff= query and is sent as aff_code.
 */
export function RegisterScreen({ noLinks = false, onRegistered }: RegisterScreenProps) {
  const t = useT()
  const navigate = useNavigate()
  const status = useStore($status)
  const route = useStore($route)
  const [form, setForm] = useState({ username: '', password: '', password2: '', email: '', code: '' })
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [sending, setSending] = useState(false)
  const [turnstileToken, setTurnstileToken] = useState('')
  const lock = useCountdown()
  const aff = route.query.get('aff')?.trim() ?? ''
  const emailOn = !!status?.email_verification
  const turnstileOn = !!status?.turnstile_check && !!status.turnstile_site_key
  const closed = status?.register_enabled === false || status?.password_register === false

  const field = (name: keyof typeof form) => ({
    value: form[name],
    'onsl-input': (e: Event) => {
      // read now: once dispatch is over, the event no longer points into the shadow root
      const value = (e.target as HTMLInputElement).value
      setForm((f) => ({ ...f, [name]: value }))
    },
  })

  async function sendCode() {
    setMessage(null)
    if (!form.email.trim()) {
      setMessage(t('register.emailMissing'))
      return
    }
    if (turnstileOn && !turnstileToken) {
      setMessage(t('turnstile.notReady'))
      return
    }
    setSending(true)
    try {
      await accountApi.sendVerification(form.email.trim(), turnstileToken)
      toast.success(t('register.codeSent'))
      lock.start(RESEND_LOCK_SECONDS)
    } catch {
      // shown by the API client
    } finally {
      setSending(false)
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const problem = firstProblem(
      credentialsProblem(form.username, form.password),
      passwordProblem(form.password),
      passwordsDifferProblem(form.password, form.password2),
    )
    if (problem) return setMessage(problemMessage(t, problem))
    if (emailOn && (!form.email.trim() || !form.code.trim())) return setMessage(t('register.codeMissing'))
    if (turnstileOn && !turnstileToken) return setMessage(t('turnstile.notReady'))
    setBusy(true)
    try {
      await accountApi.register(
        {
          username: form.username,
          password: form.password,
          password2: form.password2,
          email: emailOn ? form.email.trim() : '',
          verification_code: emailOn ? form.code.trim() : '',
          aff_code: aff,
        },
        turnstileOn ? turnstileToken : undefined,
      )
      toast.success(t('register.success'))
      onRegistered?.(form.username)
      navigate('/login')
    } catch {
      // shown by the API client
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title={t('register.title')}
      subtitle={t('register.subtitle')}
      links={
        !noLinks && (
          <span>
            {t('register.haveAccount')} <Link to="/login">{t('register.toLogin')}</Link>
          </span>
        )
      }
    >
      {closed ? (
        <FormMessage variant="primary">{t('register.closed')}</FormMessage>
      ) : (
        <form className="tg-form" part="form" onSubmit={submit} noValidate>
          {message && <FormMessage>{message}</FormMessage>}
          {aff && <FormMessage variant="primary">{t('register.invitedBy', { code: aff })}</FormMessage>}
          <sl-input
            label={t('field.username')}
            name="username"
            autocomplete="username"
            placeholder={t('placeholder.username')}
            maxlength={USERNAME_MAX}
            {...field('username')}
          >
            <sl-icon slot="prefix" name="person"></sl-icon>
          </sl-input>
          <sl-input
            label={t('field.password')}
            name="password"
            type="password"
            autocomplete="new-password"
            passwordToggle
            placeholder={t('placeholder.password')}
            {...field('password')}
          >
            <sl-icon slot="prefix" name="shield-lock"></sl-icon>
          </sl-input>
          <sl-input
            label={t('field.password2')}
            name="password2"
            type="password"
            autocomplete="new-password"
            passwordToggle
            placeholder={t('placeholder.password2')}
            {...field('password2')}
          >
            <sl-icon slot="prefix" name="shield-lock"></sl-icon>
          </sl-input>
          {emailOn && (
            <>
              <div className="tg-form__row">
                <sl-input
                  label={t('field.email')}
                  name="email"
                  type="email"
                  autocomplete="email"
                  placeholder={t('placeholder.email')}
                  {...field('email')}
                >
                  <sl-icon slot="prefix" name="envelope"></sl-icon>
                </sl-input>
                <sl-button onClick={sendCode} disabled={lock.left > 0} loading={sending} data-action="send-code">
                  {lock.left > 0 ? t('register.resendIn', { n: lock.left }) : t('register.sendCode')}
                </sl-button>
              </div>
              <sl-input
                label={t('field.code')}
                name="verification_code"
                autocomplete="one-time-code"
                placeholder={t('placeholder.code')}
                {...field('code')}
              ></sl-input>
            </>
          )}
          {turnstileOn && <Turnstile siteKey={status!.turnstile_site_key} onToken={setTurnstileToken} />}
          <sl-button
            type="submit"
            variant="primary"
            size="large"
            loading={busy}
            part="submit-button"
            exportparts="base:submit-button__base"
          >
            {t('register.submit')}
          </sl-button>
        </form>
      )}
    </AuthCard>
  )
}
