import type { ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { $status } from '../stores/status.ts'
import { useT } from '../i18n/t.ts'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import './icons/shield-lock.ts'

// A form's message shows after a first answer or a first try (or for a sign-in that expired): its
// alert loads beside the screen's first request, not before its first paint (hidden until then, base.css).
void import('@shoelace-style/shoelace/dist/components/alert/alert.js')

/** The frame of the sign-in, register and reset screens: brand, title, subtitle, body, links. */
export function AuthCard({
  title,
  subtitle,
  children,
  links,
}: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  links?: ReactNode
}) {
  const t = useT()
  const status = useStore($status)
  const name = status?.system_name || t('app.defaultName')
  return (
    <div className="tg-auth">
      <section className="tg-card" part="card" aria-labelledby="tg-auth-title">
        <div className="tg-card__brand">
          {status?.logo ? (
            <img src={status.logo} alt="" />
          ) : (
            <sl-icon name="shield-lock" style={{ fontSize: '1.5rem', color: 'var(--tollgate-accent)' }}></sl-icon>
          )}
          <span>{name}</span>
        </div>
        <h1 className="tg-card__title" id="tg-auth-title">
          {title}
        </h1>
        {subtitle && <p className="tg-card__subtitle">{subtitle}</p>}
        {children}
        {links && <div className="tg-card__links">{links}</div>}
      </section>
    </div>
  )
}

/** A validation or state message inside a form, read out by screen readers. */
export function FormMessage({
  variant = 'warning',
  children,
}: {
  variant?: 'warning' | 'danger' | 'primary' | 'success'
  children: ReactNode
}) {
  const icon = variant === 'success' ? 'check2-circle' : variant === 'primary' ? 'info-circle' : 'exclamation-triangle'
  return (
    <sl-alert className="tg-form__message" variant={variant} open data-message="">
      <sl-icon slot="icon" name={icon}></sl-icon>
      {children}
    </sl-alert>
  )
}
