import { useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as accountApi from '../../api/account.ts'
import { $route } from '../../stores/route.ts'
import { AuthCard, FormMessage } from '../../ui/auth-card.tsx'
import { Link } from '../../ui/navigation.tsx'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/clipboard.ts'
import '../../i18n/en/reset.ts'

/**
 * Password-reset confirmation: reads email and token from the page query, asks the server for a
 * new password, shows it once and copies it to the clipboard.
 */
export function ResetConfirmScreen({ noLinks = false }: { noLinks?: boolean }) {
  const t = useT()
  const route = useStore($route)
  const email = route.query.get('email') ?? ''
  const token = route.query.get('token') ?? ''
  const [busy, setBusy] = useState(false)
  const [password, setPassword] = useState<string | null>(null)
  const { copy, fallback } = useCopy()

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!email || !token || password !== null) return
    setBusy(true)
    try {
      const newPassword = await accountApi.confirmPasswordReset(email, token)
      setPassword(newPassword)
      await copy(newPassword, t('resetConfirm.copied'))
    } catch {
      // shown by the API client
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title={t('resetConfirm.title')}
      subtitle={email ? t('resetConfirm.subtitle', { email }) : undefined}
      links={!noLinks && <Link to="/login">{t('resetConfirm.toLogin')}</Link>}
    >
      {!email || !token ? (
        <FormMessage variant="danger">{t('resetConfirm.invalid')}</FormMessage>
      ) : (
        <form className="tg-form" part="form" onSubmit={submit} noValidate>
          {password !== null && (
            <>
              <FormMessage variant="success">{t('resetConfirm.done')}</FormMessage>
              <sl-input
                label={t('resetConfirm.newPassword')}
                name="new-password"
                value={password}
                readonly
                className="tg-secret"
                data-new-password=""
              >
                <sl-icon-button
                  slot="suffix"
                  name="clipboard"
                  label={t('common.copy')}
                  onClick={() => copy(password, t('resetConfirm.copied'))}
                ></sl-icon-button>
              </sl-input>
            </>
          )}
          {password === null && (
            <sl-button
              type="submit"
              variant="primary"
              size="large"
              loading={busy}
              part="submit-button"
              exportparts="base:submit-button__base"
            >
              {t('resetConfirm.submit')}
            </sl-button>
          )}
        </form>
      )}
      {fallback}
    </AuthCard>
  )
}
