import { Component, type ReactNode } from 'react'
import { ErrorPanel } from './error-panel.tsx'
import { useT } from '../i18n/t.ts'

function ScreenFailed({ onRetry }: { onRetry: () => void }) {
  const t = useT()
  return (
    <div data-screen-failed="">
      <ErrorPanel message={t('error.screenFailed')} onRetry={onRetry} />
    </div>
  )
}

/**
 * Keeps one screen's failure (a chunk that no longer exists after a deploy, a render error) inside
 * that screen: the shell stays usable and Retry reloads the page. `resetKey` (the route) clears it.
 */
export class ScreenBoundary extends Component<{ resetKey: string; children: ReactNode }, { failed: boolean; key: string }> {
  state = { failed: false, key: this.props.resetKey }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey }
  }

  render() {
    if (this.state.failed) return <ScreenFailed onRetry={() => location.reload()} />
    return this.props.children
  }
}
