import type { ReactNode } from 'react'
import { useT } from '../i18n/t.ts'
import { EmptyState } from './empty-state.tsx'
import { Link } from './navigation.tsx'

/** What a screen for signed-in users shows a visitor: why, and the way to sign in. */
export function SignInNotice({ icon = 'shield-lock', title, children }: { icon?: string; title: string; children?: ReactNode }) {
  const t = useT()
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        <Link to="/login" className="tg-button tg-button--primary">
          {t('top.login')}
        </Link>
      }
    >
      {children}
    </EmptyState>
  )
}
