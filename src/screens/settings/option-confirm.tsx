import { useCallback, useRef, useState, type ReactNode } from 'react'
import { useT } from '../../i18n/t.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '../../i18n/en/settings.ts'

interface Ask {
  message: string
  confirmLabel: string
  resolve: (ok: boolean) => void
}

/**
 * A confirmation dialog for a risky save: `confirm(message, label)` opens it and resolves true
 * when the user confirms, false on Cancel, Escape or a click outside.
 */
export function useConfirm(): [ReactNode, (message: string, confirmLabel: string) => Promise<boolean>] {
  const t = useT()
  const [ask, setAsk] = useState<Ask | null>(null)
  // keeps the text while the dialog plays its closing animation
  const last = useRef<Ask | null>(null)
  if (ask) last.current = ask

  const confirm = useCallback(
    (message: string, confirmLabel: string) => new Promise<boolean>((resolve) => setAsk({ message, confirmLabel, resolve })),
    [],
  )

  const answer = (ok: boolean) => {
    ask?.resolve(ok)
    setAsk(null)
  }

  const shown = ask ?? last.current
  const dialog = (
    <sl-dialog
      label={t('options.confirmTitle')}
      open={ask !== null}
      data-confirm=""
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) answer(false)
      }}
    >
      <p className="tg-opt__confirm">{shown?.message}</p>
      <sl-button slot="footer" onClick={() => answer(false)} data-confirm-cancel="">
        {t('common.cancel')}
      </sl-button>
      <sl-button slot="footer" variant="danger" onClick={() => answer(true)} data-confirm-ok="">
        {shown?.confirmLabel ?? t('options.confirm')}
      </sl-button>
    </sl-dialog>
  )
  return [dialog, confirm]
}
