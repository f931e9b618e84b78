import { lazy, Suspense, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as accountApi from '../../api/account.ts'
import type { User } from '../../api/types.ts'
import { $session, signIn } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { $route } from '../../stores/route.ts'
import { toast } from '../../stores/toasts.ts'
import { AuthCard, FormMessage } from '../../ui/auth-card.tsx'
import { Link, useNavigate } from '../../ui/navigation.tsx'
import { Turnstile } from '../../ui/bot-check.tsx'
import { oauthMethods } from './oauth-methods.ts'
import { SignedInCard } from './signed-in-card.tsx'
import { credentialsProblem } from '../../../domain/account-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/person.ts'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/login.ts'

export interface LoginScreenProps {
  /** hide the links to registration and password reset */
  noLinks?: boolean
  /** a user signed in through this screen */
  onLogin?: (user: User) => void
}

/** Where users land after signing in (spec section 2). */
export const AFTER_LOGIN_PATH = '/token'

const DEFAULT_ROOT = { username: 'root', password: '123456' }

/** The outside sign-in methods (their buttons, dialog and widget): loaded when the status enables one. */
const OAuthButtons = lazy(async () => ({ default: (await import('./oauth-buttons.tsx')).OAuthButtons }))

/** The username and password form, with the bot check when the site has one; `onSignedIn` once the server accepts. */
function PasswordForm({ expired, onSignedIn }: { expired: boolean; onSignedIn: (user: User, defaultPassword: boolean) => void }) {
  const t = useT()
  const status = useStore($status)
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [turnstileToken, setTurnstileToken] = useState('')
  const turnstileOn = !!status?.turnstile_check && !!status.turnstile_site_key

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const missing = credentialsProblem(username, password)
    if (missing) {
      setMessage(problemMessage(t, missing))
      return
    }
    if (turnstileOn && !turnstileToken) {
      setMessage(t('turnstile.notReady'))
      return
    }
    setBusy(true)
    try {
      const user = await accountApi.login(username, password, turnstileOn ? turnstileToken : undefined)
      onSignedIn(user, username === DEFAULT_ROOT.username && password === DEFAULT_ROOT.password)
    } catch {
      // the API client has shown the server's message as an error toast
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="tg-form"
      part="form"
      onSubmit={submit}
      noValidate
      style={expired ? { marginTop: 'var(--sl-spacing-medium)' } : undefined}
    >
      {message && <FormMessage>{message}</FormMessage>}
      <sl-input
        label={t('field.username')}
        name="username"
        autocomplete="username"
        placeholder={t('placeholder.loginUsername')}
        value={username}
        onsl-input={(e: Event) => setUsername((e.target as HTMLInputElement).value)}
      >
        <sl-icon slot="prefix" name="person"></sl-icon>
      </sl-input>
      <sl-input
        label={t('field.password')}
        name="password"
        type="password"
        autocomplete="current-password"
        passwordToggle
        placeholder={t('placeholder.loginPassword')}
        value={password}
        onsl-input={(e: Event) => setPassword((e.target as HTMLInputElement).value)}
      >
        <sl-icon slot="prefix" name="shield-lock"></sl-icon>
      </sl-input>
      {turnstileOn && <Turnstile siteKey={status!.turnstile_site_key} onToken={setTurnstileToken} />}
      <sl-button type="submit" variant="primary" size="large" loading={busy} part="submit-button" exportparts="base:submit-button__base">
        {t('login.submit')}
      </sl-button>
    </form>
  )
}

/** Sign-in: username and password, the outside sign-in methods the site enables, the bot check. */
export function LoginScreen({ noLinks = false, onLogin }: LoginScreenProps) {
  const t = useT()
  const navigate = useNavigate()
  const status = useStore($status)
  const route = useStore($route)
  const user = useStore($session)
  const expired = route.query.has('expired')
  const passwordLogin = status?.password_login !== false
  const oauth = oauthMethods(status)

  function signedIn(answer: User, defaultPassword = false) {
    signIn(answer)
    toast.success(t('login.success'))
    if (defaultPassword) toast.warning(t('login.defaultPassword'), 20000)
    // the event carries the stored user: never the credential or an access token
    onLogin?.($session.get() ?? answer)
    navigate(AFTER_LOGIN_PATH)
  }

  if (user) return <SignedInCard user={user} />
  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      links={
        !noLinks && (
          <>
            <span>
              {t('login.noAccount')} <Link to="/register">{t('login.toRegister')}</Link>
            </span>
            <span>
              {t('login.forgot')} <Link to="/reset">{t('login.toReset')}</Link>
            </span>
          </>
        )
      }
    >
      {expired && <FormMessage variant="warning">{t('login.expired')}</FormMessage>}
      {passwordLogin ? (
        <PasswordForm expired={expired} onSignedIn={signedIn} />
      ) : (
        <FormMessage variant="primary">{t('login.passwordOff')}</FormMessage>
      )}
      {(oauth.github || oauth.wechat || oauth.telegram) && (
        <Suspense fallback={null}>
          <OAuthButtons onSignedIn={(user) => signedIn(user)} />
        </Suspense>
      )}
    </AuthCard>
  )
}
