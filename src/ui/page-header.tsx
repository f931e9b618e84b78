import type { ReactNode } from 'react'

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
