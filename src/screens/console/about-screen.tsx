import { useEffect, useState } from 'react'
import { useT } from '../../i18n/t.ts'
import * as statusApi from '../../api/status.ts'
import { isHttpUrl, sanitizeHtml } from '../../ui/sanitize.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import '../../ui/icons/info-circle.ts'
import '../../i18n/en/console.ts'

/** About: the admin's About text (sanitised HTML, or a URL shown in a sandboxed frame). */
export function AboutScreen() {
  const t = useT()
  const [load, setLoad] = useState<Load<string>>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let live = true
    setLoad({ state: 'loading' })
    statusApi
      .about()
      .then((data) => live && setLoad({ state: 'ready', data }))
      .catch((error: Error) => live && setLoad({ state: 'error', error }))
    return () => {
      live = false
    }
  }, [attempt])

  return (
    <div className="tg-about">
      <LoadState
        load={load}
        onRetry={() => setAttempt((n) => n + 1)}
        isEmpty={(about) => !about.trim()}
        empty={
          <EmptyState icon="info-circle" title={t('about.title')}>
            {t('about.empty')}
          </EmptyState>
        }
      >
        {(about) =>
          isHttpUrl(about) ? (
            <iframe
              className="tg-frame tg-about__frame"
              src={about.trim()}
              title={t('about.embedded')}
              sandbox="allow-scripts allow-forms allow-popups"
            ></iframe>
          ) : (
            <>
              <PageHeader title={t('about.title')} />
              <article className="tg-prose" data-about-content="" dangerouslySetInnerHTML={{ __html: sanitizeHtml(about) }} />
            </>
          )
        }
      </LoadState>
    </div>
  )
}
