import { useEffect } from 'react'
import { useStore } from '@nanostores/react'
import { $session } from '../../stores/session.ts'
import { refreshUser } from '../../stores/account.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { ProfileCard } from './personal-profile.tsx'
import { InviteCard } from './personal-invite.tsx'
import { BindingsCard } from './personal-bindings.tsx'
import { SecurityCard } from './personal-security.tsx'

/** The personal settings tab: profile, invitations, bindings, access token, password, account deletion. */
export function PersonalTab({ onLogout }: { onLogout?: () => void }) {
  const user = useStore($session)
  const { copy, fallback } = useCopy()

  // balance, invite earnings and bindings change elsewhere: show the server's current values
  useEffect(() => {
    void refreshUser()
  }, [])

  if (!user) return null
  return (
    <div className="tg-personal" data-tab-panel="personal">
      <div className="tg-personal__grid">
        <ProfileCard user={user} onCopy={(text) => void copy(text)} />
        <InviteCard user={user} onCopy={(text) => void copy(text)} />
        <BindingsCard user={user} />
        <SecurityCard user={user} onCopy={(text, message) => void copy(text, message)} onLogout={onLogout} />
      </div>
      {fallback}
    </div>
  )
}
