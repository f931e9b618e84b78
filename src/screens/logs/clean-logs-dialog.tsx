import { useState, type FormEvent } from 'react'
import { useLogLabels } from './logs-labels.ts'
import { cleanLogs } from '../../stores/logs.ts'
import { now } from '../../stores/clock.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { FormDialog } from '../../ui/form-dialog.tsx'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import { MONTH } from '../../../domain/time.ts'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../i18n/en/logs.ts'

/** The log-clear default date: one month (30 days) back (spec section 9). */
const CLEAN_DEFAULT_SECONDS_BACK = MONTH

/** Administrators: deletes the logs older than a chosen time (DELETE /api/log/?target_timestamp=). */
export function CleanLogsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useLogLabels()
  const [value, setValue] = useState(() => toLocalInput(Math.floor(now().getTime() / 1000) - CLEAN_DEFAULT_SECONDS_BACK))
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const target = fromLocalInput(value)
    if (!target) {
      setMessage(t('logs.clean.missing'))
      return
    }
    setBusy(true)
    try {
      // the list and its statistics start again
      const count = await cleanLogs(target)
      toast.success(t('logs.clean.done', { n: count }))
      onClose()
    } catch (error) {
      toast.error(t('logs.clean.failed'))
      setMessage(`${t('logs.clean.failed')}: ${(error as Error).message}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <FormDialog
      label={t('logs.clean.title')}
      name="clean-logs"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('logs.clean.submit')}
      cancelLabel={t('common.cancel')}
      variant="danger"
    >
      <p className="tg-muted tg-small">{t('logs.clean.body')}</p>
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <sl-input
        label={t('logs.clean.before')}
        name="target"
        type="datetime-local"
        value={value}
        onsl-input={(e: Event) => setValue((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}
