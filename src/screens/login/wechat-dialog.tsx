import { useState, type FormEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import * as oauthApi from '../../api/oauth.ts'
import type { User } from '../../api/types.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { useOnDemand } from '../../ui/on-demand.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../i18n/en/login.ts'

/** The dialog loads when the visitor first picks this sign-in method. */
const loadDialog = () => import('@shoelace-style/shoelace/dist/components/dialog/dialog.js')

/** The messaging-app sign-in: a QR code to follow the account, and the code it sends (valid three minutes). */
export function WechatDialog({
  open,
  qrCode,
  onClose,
  onSignedIn,
}: {
  open: boolean
  qrCode: string
  onClose: () => void
  onSignedIn: (user: User) => void
}) {
  const t = useT()
  const [code, setCode] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const shown = useOnDemand('sl-dialog', loadDialog, open)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    if (!code.trim()) {
      setMessage(t('wechat.missing'))
      return
    }
    setBusy(true)
    try {
      const user = await oauthApi.wechat(code.trim())
      onClose()
      onSignedIn(user)
    } catch {
      // the client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  return (
    <sl-dialog
      label={t('wechat.title')}
      open={shown}
      onsl-after-hide={(e: Event) => {
        if (e.target === e.currentTarget) onClose()
      }}
    >
      <form className="tg-form" onSubmit={submit} noValidate>
        {qrCode && (
          <img
            src={qrCode}
            alt={t('wechat.qrAlt')}
            style={{ width: '12rem', height: '12rem', alignSelf: 'center', objectFit: 'contain' }}
          />
        )}
        <p style={{ margin: 0, fontSize: 'var(--sl-font-size-small)', color: 'var(--tollgate-muted)' }}>{t('wechat.hint')}</p>
        {message && <FormMessage>{message}</FormMessage>}
        <sl-input
          label={t('field.code')}
          name="wechat-code"
          autocomplete="one-time-code"
          value={code}
          onsl-input={(e: Event) => setCode((e.target as HTMLInputElement).value)}
        ></sl-input>
        <sl-button type="submit" variant="primary" loading={busy}>
          {t('wechat.submit')}
        </sl-button>
      </form>
    </sl-dialog>
  )
}
