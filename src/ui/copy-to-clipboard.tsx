import { useCallback, useState, type ReactNode } from 'react'
import { useT } from '../i18n/t.ts'
import { toast } from '../stores/toasts.ts'
import { useOnDemand } from './on-demand.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'

/** The dialog loads the first time a copy fails (most never do). */
const loadDialog = () => import('@shoelace-style/shoelace/dist/components/dialog/dialog.js')

async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/**
 * Copies text to the clipboard and says so; when the browser refuses, opens a dialog with
 * 'unable to copy to clipboard, please copy manually' and the text selected for a manual copy.
 * Render the returned `fallback` node somewhere in the screen.
 */
export function useCopy(): { copy: (text: string, successMessage?: string) => Promise<boolean>; fallback: ReactNode } {
  const t = useT()
  const [manual, setManual] = useState<string | null>(null)
  const open = useOnDemand('sl-dialog', loadDialog, manual !== null)
  const copy = useCallback(
    async (text: string, successMessage?: string) => {
      if (await writeClipboard(text)) {
        toast.success(successMessage ?? t('copy.done'))
        return true
      }
      setManual(text)
      return false
    },
    [t],
  )
  const fallback = (
    <sl-dialog
      label={t('copy.dialogTitle')}
      open={open}
      onsl-after-hide={(e: Event) => {
        if (e.target === e.currentTarget) setManual(null)
      }}
      onsl-initial-focus={(e: Event) => {
        e.preventDefault()
        const field = (e.currentTarget as HTMLElement).querySelector('textarea')
        field?.focus()
        field?.select()
      }}
    >
      <p className="tg-copy__message" role="alert">
        {t('copy.failed')}
      </p>
      <textarea className="tg-copy__text tg-secret" readOnly rows={3} value={manual ?? ''} aria-label={t('copy.dialogTitle')}></textarea>
      <sl-button
        slot="footer"
        variant="primary"
        onClick={(e: React.MouseEvent) => (e.currentTarget.closest('sl-dialog') as HTMLElement & { hide(): void })?.hide()}
      >
        {t('common.close')}
      </sl-button>
    </sl-dialog>
  )
  return { copy, fallback }
}
