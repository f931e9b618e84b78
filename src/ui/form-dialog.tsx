import { useState, type FormEvent, type ReactNode } from 'react'
import { toast } from '../stores/toasts.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'

interface FormDialogProps {
  label: string
  /** the dialog's data-dialog name, what tests and styles find it by */
  name: string
  open: boolean
  onClose: () => void
  onSubmit: (e: FormEvent) => void
  busy: boolean
  submitLabel: string
  cancelLabel: string
  /** the submit button's colour: danger for a form that deletes */
  variant?: 'primary' | 'danger'
  children: ReactNode
}

/** A dialog of one short form: its fields, then Cancel and the submit button (busy while it runs). */
export function FormDialog({
  label,
  name,
  open,
  onClose,
  onSubmit,
  busy,
  submitLabel,
  cancelLabel,
  variant = 'primary',
  children,
}: FormDialogProps) {
  return (
    <sl-dialog label={label} open={open} data-dialog={name} onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}>
      <form className="tg-form" onSubmit={onSubmit} noValidate>
        {children}
        <div className="tg-dialog-actions">
          <sl-button onClick={onClose}>{cancelLabel}</sl-button>
          <sl-button type="submit" variant={variant} loading={busy}>
            {submitLabel}
          </sl-button>
        </div>
      </form>
    </sl-dialog>
  )
}

/**
 * A form dialog's submit: the message of a check that failed (nothing is sent), busy while the
 * call runs, then the success toast, what follows it (a refresh) and the dialog closed. A refused
 * call leaves the dialog open: the API client has shown the server's message.
 */
export function useDialogSubmit(onClose: () => void) {
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function run(problem: string | null, action: () => Promise<unknown>, done: string, after?: () => Promise<unknown>) {
    setMessage(problem)
    if (problem) return
    setBusy(true)
    try {
      await action()
      toast.success(done)
      await after?.()
      onClose()
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  return { message, setMessage, busy, run }
}
