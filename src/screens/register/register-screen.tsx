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
import { credentialsProblem, passwordProblem, passwordsDifferProblem } from '../../../domain/account-rules.ts'
import { firstProblem } from '../../../domain/problem.ts'
import { CredentialFields, EmailFields, type RegisterForm } from './register-fields.tsx'
import { setField } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '../../i18n/en/register.ts'

interface RegisterScreenProps {
  /** hide the link to sign-in */
  noLinks?: boolean
  /** an account was created through this screen */
  onRegistered?: (username: string) => void
}

/** The registration form: its fields, their checks and the request; `onRegistered` once the account exists. */
function RegisterForm({ onRegistered }: Pick<RegisterScreenProps, 'onRegistered'>) {
  const t = useT()
  const navigate = useNavigate()
  const status = useStore($status)
  const route = useStore($route)
  const [form, setForm] = useState<RegisterForm>({ username: '', password: '', password2: '', email: '', code: '' })
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [turnstileToken, setTurnstileToken] = useState('')
  const aff = route.query.get('aff')?.trim() ?? ''
  const emailOn = !!status?.email_verification
  const turnstileOn = !!status?.turnstile_check && !!status.turnstile_site_key

  const field = (name: keyof RegisterForm) => ({ value: form[name], 'onsl-input': setField(setForm, name) })

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
    <form className="tg-form" part="form" onSubmit={submit} noValidate>
      {message && <FormMessage>{message}</FormMessage>}
      {aff && <FormMessage variant="primary">{t('register.invitedBy', { code: aff })}</FormMessage>}
      <CredentialFields field={field} />
      {emailOn && (
        // null: the bot check is on and has not answered yet
        <EmailFields
          field={field}
          email={form.email}
          turnstileToken={turnstileOn && !turnstileToken ? null : turnstileToken}
          onMessage={setMessage}
        />
      )}
      {turnstileOn && <Turnstile siteKey={status!.turnstile_site_key} onToken={setTurnstileToken} />}
      <sl-button type="submit" variant="primary" size="large" loading={busy} part="submit-button" exportparts="base:submit-button__base">
        {t('register.submit')}
      </sl-button>
    </form>
  )
}

/**
 * Registration: username, password and its confirmation; with e-mail verification on, also the
 * e-mail, a send-code button (locked 30 s after each send) and the code. An invite code comes
 * from the page's ?aff= query and is sent as aff_code.
 */
export function RegisterScreen({ noLinks = false, onRegistered }: RegisterScreenProps) {
  const t = useT()
  const status = useStore($status)
  const closed = status?.register_enabled === false || status?.password_register === false
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
      {closed ? <FormMessage variant="primary">{t('register.closed')}</FormMessage> : <RegisterForm onRegistered={onRegistered} />}
    </AuthCard>
  )
}
