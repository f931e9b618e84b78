import { useState, type FormEvent } from 'react'
import { useSettingsLabels } from './personal-labels.ts'
import * as selfApi from '../../api/self.ts'
import type { User } from '../../api/types.ts'
import { endSession } from '../../stores/account.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { FormDialog, useDialogSubmit } from '../../ui/form-dialog.tsx'
import { useNavigate } from '../../ui/navigation.tsx'
import { problemMessage } from '../../i18n/t.ts'
import { passwordProblem, passwordsDifferProblem } from '../../../domain/account-rules.ts'
import { firstProblem } from '../../../domain/problem.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/clipboard.ts'
import '../../ui/icons/key.ts'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/settings.ts'

function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useSettingsLabels()
  const [password, setPassword] = useState('')
  const [password2, setPassword2] = useState('')
  const { message, busy, run } = useDialogSubmit(onClose)

  function problem(): string | null {
    if (!password) return t('settings.password.missing')
    const found = firstProblem(passwordsDifferProblem(password, password2), passwordProblem(password))
    return found ? problemMessage(t, found) : null
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    void run(problem(), () => selfApi.changePassword(password), t('settings.password.changed'))
  }

  return (
    <FormDialog
      label={t('settings.password.title')}
      name="password"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('settings.password.submit')}
      cancelLabel={t('common.cancel')}
    >
      {message && <FormMessage>{message}</FormMessage>}
      <sl-input
        label={t('settings.password.new')}
        name="new-password"
        type="password"
        autocomplete="new-password"
        passwordToggle
        placeholder={t('placeholder.password')}
        value={password}
        onsl-input={(e: Event) => setPassword((e.target as HTMLInputElement).value)}
      ></sl-input>
      <sl-input
        label={t('settings.password.confirm')}
        name="new-password2"
        type="password"
        autocomplete="new-password"
        passwordToggle
        value={password2}
        onsl-input={(e: Event) => setPassword2((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}

function DeleteDialog({
  open,
  username,
  onClose,
  onDeleted,
}: {
  open: boolean
  username: string
  onClose: () => void
  onDeleted: () => void
}) {
  const t = useSettingsLabels()
  const [typed, setTyped] = useState('')
  const { message, busy, run } = useDialogSubmit(onDeleted)

  function submit(e: FormEvent) {
    e.preventDefault()
    void run(typed === username ? null : t('settings.delete.mismatch'), () => selfApi.deleteAccount(), t('settings.delete.done'))
  }

  return (
    <FormDialog
      label={t('settings.delete.title')}
      name="delete"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('settings.delete.submit')}
      cancelLabel={t('common.cancel')}
      variant="danger"
    >
      <FormMessage variant="danger">{t('settings.delete.warning')}</FormMessage>
      {message && <FormMessage>{message}</FormMessage>}
      <sl-input
        label={t('settings.delete.label', { name: username })}
        name="confirm-username"
        autocomplete="off"
        value={typed}
        onsl-input={(e: Event) => setTyped((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}

/** The access token: generated (and copied) on demand, then shown with a copy button. */
function AccessTokenItem({ onCopy }: { onCopy: (text: string, message: string) => void }) {
  const t = useSettingsLabels()
  const [token, setToken] = useState('')
  const [busy, setBusy] = useState(false)

  async function generate() {
    setBusy(true)
    try {
      const next = await selfApi.accessToken()
      setToken(next)
      onCopy(next, t('settings.token.copied'))
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <div className="tg-security__item">
        <div>
          <strong>{t('settings.token.title')}</strong>
          <p className="tg-muted tg-small">{t('settings.token.body')}</p>
        </div>
        <sl-button onClick={generate} loading={busy} data-action="access-token">
          <sl-icon slot="prefix" name="key"></sl-icon>
          {t('settings.token.generate')}
        </sl-button>
      </div>
      {token && (
        <div className="tg-inline-field">
          <sl-input name="access-token" readonly value={token} className="tg-secret" label={t('settings.token.label')}></sl-input>
          <sl-button onClick={() => onCopy(token, t('settings.token.copied'))}>
            <sl-icon slot="prefix" name="clipboard"></sl-icon>
            {t('common.copy')}
          </sl-button>
        </div>
      )}
    </>
  )
}

/** Access token generation, password change and account deletion. */
export function SecurityCard({
  user,
  onCopy,
  onLogout,
}: {
  user: User
  onCopy: (text: string, message: string) => void
  onLogout?: () => void
}) {
  const t = useSettingsLabels()
  const navigate = useNavigate()
  const [dialog, setDialog] = useState<'password' | 'delete' | null>(null)

  async function deleted() {
    setDialog(null)
    // logs out and clears the stored user (spec section 4)
    await endSession()
    onLogout?.()
    navigate('/login')
  }

  return (
    <section className="tg-settings-card" aria-labelledby="tg-security-title" data-card="security">
      <h2 id="tg-security-title" className="tg-settings-card__title">
        {t('settings.security.title')}
      </h2>
      <div className="tg-security">
        <AccessTokenItem onCopy={onCopy} />
        <div className="tg-security__item">
          <div>
            <strong>{t('settings.password.title')}</strong>
            <p className="tg-muted tg-small">{t('settings.password.body')}</p>
          </div>
          <sl-button onClick={() => setDialog('password')} data-action="change-password">
            <sl-icon slot="prefix" name="shield-lock"></sl-icon>
            {t('settings.password.open')}
          </sl-button>
        </div>
        <div className="tg-security__item tg-security__item--danger">
          <div>
            <strong>{t('settings.delete.title')}</strong>
            <p className="tg-muted tg-small">{t('settings.delete.body')}</p>
          </div>
          <sl-button variant="danger" outline onClick={() => setDialog('delete')} data-action="delete-account">
            {t('settings.delete.open')}
          </sl-button>
        </div>
      </div>
      {dialog === 'password' && <PasswordDialog open onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteDialog open username={user.username} onClose={() => setDialog(null)} onDeleted={deleted} />}
    </section>
  )
}
