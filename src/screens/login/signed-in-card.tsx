import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import type { User } from '../../api/types.ts'
import { endSession } from '../../stores/account.ts'
import { $status } from '../../stores/status.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { formatQuota } from '../../ui/format.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '../../i18n/en/login.ts'

/**
 * What the sign-in box shows once someone is signed in (on the host page, where it stays): who,
 * their balance, and a sign-out button. It follows the shared session, so a sign-out or a
 * top-up in another element shows here without a reload.
 */
export function SignedInCard({ user }: { user: User }) {
  const t = useT()
  const status = useStore($status)
  const [busy, setBusy] = useState(false)

  async function signOut() {
    setBusy(true)
    try {
      await endSession()
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard title={t('login.signedInTitle')}>
      <div className="tg-signed-in" part="signed-in" data-signed-in="">
        <p>
          {t('login.signedInAs')} <strong data-user="">{user.display_name || user.username}</strong>
        </p>
        <p>
          {t('wallet.balance')}: <strong data-balance="">{formatQuota(user.quota, status)}</strong>
        </p>
        <sl-button variant="default" loading={busy} onClick={signOut} part="signout-button" exportparts="base:signout-button__base">
          {t('top.logout')}
        </sl-button>
      </div>
    </AuthCard>
  )
}
