import { useT } from '../i18n/t.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import './icons/exclamation-triangle.ts'

// The panel shows once a request has failed: its alert loads beside the screen's first request, not
// before its first paint (hidden until then, base.css).
void import('@shoelace-style/shoelace/dist/components/alert/alert.js')

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
