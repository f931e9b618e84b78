import type { ReactNode } from 'react'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'

/** What would be here, and what to do about it (replaces an empty list or a missing page). */
export function EmptyState({
  icon = 'compass',
  title,
  children,
  action,
}: {
  icon?: string
  title: string
  children?: ReactNode
  action?: ReactNode
}) {
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
