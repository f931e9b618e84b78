import type { ReactNode } from 'react'
import { useT } from '../i18n/t.ts'

/** What would be here, and what to do about it. */
export function EmptyState({ icon = 'compass', title, children, action }: { icon?: string; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className="tg-panel" part="empty-state">
      <span className="tg-panel__icon" aria-hidden="true">
        <sl-icon name={icon}></sl-icon>
      </span>
      <h2 className="tg-panel__title">{title}</h2>
      {children && <p className="tg-panel__body">{children}</p>}
      {action}
    </section>
  )
}

/** A region that failed to load: the message and a Retry button. */
export function ErrorPanel({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const t = useT()
  return (
    <sl-alert variant="danger" open>
      <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
      <strong>{t('error.title')}</strong>
      <br />
      {message}
      {onRetry && (
        <>
          <br />
          <sl-button size="small" variant="default" onClick={onRetry} style={{ marginTop: 'var(--sl-spacing-x-small)' }}>
            {t('common.retry')}
          </sl-button>
        </>
      )}
    </sl-alert>
  )
}

/** Title, one line of description and the primary actions of a screen. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="tg-page-header">
      <div>
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className="tg-page-header__actions">{actions}</div>}
    </header>
  )
}
