import type { ReactNode } from 'react'
import { useT } from '../../i18n/t.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'

/**
 * The add/edit drawer of an administrator list (channels, users, redemption codes): open while
 * something is being edited; Escape, the overlay and the close button ask `onClose`.
 * `onAfterHide` comes from the screen's useLingering, which keeps the form while it slides out.
 */
export function AdminDrawer({
  name,
  label,
  open,
  onClose,
  onAfterHide,
  children,
}: {
  /** the data-drawer attribute */
  name: string
  label: string
  open: boolean
  onClose: () => void
  onAfterHide: (e: Event) => void
  children: ReactNode
}) {
  return (
    <sl-drawer
      label={label}
      open={open}
      className="tg-admin__drawer"
      part="drawer"
      data-drawer={name}
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) onClose()
      }}
      onsl-after-hide={onAfterHide}
    >
      {children}
    </sl-drawer>
  )
}

/** Cancel and save at the foot of an administrator drawer's form (save submits the form). */
export function DrawerActions({ busy, saveLabel, onClose }: { busy: boolean; saveLabel: string; onClose: () => void }) {
  const t = useT()
  return (
    <div className="tg-admin__form-actions">
      <sl-button data-action="close" onClick={onClose}>
        {t('common.cancel')}
      </sl-button>
      <sl-button type="submit" variant="primary" data-action="save" loading={busy}>
        {saveLabel}
      </sl-button>
    </div>
  )
}
