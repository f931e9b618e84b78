import { useEffect, useRef, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as oauthApi from '../../api/oauth.ts'
import type { User } from '../../api/types.ts'
import { $route } from '../../stores/route.ts'
import { signIn } from '../../stores/session.ts'
import { toast } from '../../stores/toasts.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { AuthCard, FormMessage } from '../../ui/auth-card.tsx'
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js'
import '../../i18n/en/login.ts'

/** /oauth/github: the code-hosting service sends the browser back here with code and state. */
export function GithubCallbackScreen({ onLogin }: { onLogin?: (user: User) => void }) {
  const t = useT()
  const navigate = useNavigate()
  const route = useStore($route)
  const started = useRef(false)
  const [failed, setFailed] = useState(false)
  const code = route.query.get('code') ?? ''
  const state = route.query.get('state') ?? ''

  useEffect(() => {
    if (started.current) return
    started.current = true
    if (!code) {
      setFailed(true)
      return
    }
    oauthApi
      .github(code, state)
      .then(({ bound, user }) => {
        if (bound || !user) {
          toast.success(t('oauth.bound'))
          navigate('/setting', { replace: true })
          return
        }
        signIn(user)
        toast.success(t('login.success'))
        onLogin?.(user)
        navigate('/token', { replace: true })
      })
      .catch(() => navigate('/login', { replace: true }))
  }, [code, state, navigate, onLogin, t])

  return (
    <AuthCard title={t('nav.oauth')}>
      {failed ? (
        <FormMessage variant="danger">{t('oauth.missing')}</FormMessage>
      ) : (
        <p style={{ display: 'flex', gap: '0.75rem', alignItems: 'center', margin: 0 }}>
          <sl-spinner></sl-spinner> {t('oauth.working')}
        </p>
      )}
    </AuthCard>
  )
}
