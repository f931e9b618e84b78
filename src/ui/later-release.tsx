import { useT } from '../i18n/t.ts'
import { EmptyState } from './empty-state.tsx'

/**
 * Stands in for a console screen that a later release builds. The route, its guard and the lazy
 * import are final; only the component behind it changes.
 */
export function LaterRelease({ screen }: { screen: string }) {
  const t = useT()
  return (
    <div data-later-release="">
      <EmptyState icon="hourglass-split" title={t('later.title', { screen })}>
        {t('later.body')}
      </EmptyState>
    </div>
  )
}
