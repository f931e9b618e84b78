import { useT } from '../i18n/t.ts'

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
