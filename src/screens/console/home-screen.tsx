import { useEffect, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT, type MessageKey } from '../../i18n/t.ts'
import * as statusApi from '../../api/status.ts'
import { $status } from '../../stores/status.ts'
import { $session } from '../../stores/session.ts'
import { isHttpUrl, sanitizeHtml } from '../../ui/sanitize.ts'
import { Link } from '../../ui/navigation.tsx'
import '@shoelace-style/shoelace/dist/components/alert/alert.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/skeleton/skeleton.js'
import '../../ui/icons/bar-chart-line.ts'
import '../../ui/icons/info-circle.ts'
import '../../ui/icons/key.ts'
import '../../ui/icons/wallet2.ts'
import '../../i18n/en/console.ts'

const FEATURES: Array<{ icon: string; title: MessageKey; body: MessageKey }> = [
  { icon: 'key', title: 'home.featureKeysTitle', body: 'home.featureKeysBody' },
  { icon: 'wallet2', title: 'home.featureQuotaTitle', body: 'home.featureQuotaBody' },
  { icon: 'bar-chart-line', title: 'home.featureLogsTitle', body: 'home.featureLogsBody' },
]

interface HomeContent {
  home: string
  notice: string
}

/** The home content and the notice (each '' when absent or unreadable); null until both come. */
function useHomeContent(): HomeContent | null {
  const [content, setContent] = useState<HomeContent | null>(null)
  useEffect(() => {
    let live = true
    Promise.all([statusApi.homePageContent().catch(() => ''), statusApi.notice().catch(() => '')]).then(([home, notice]) => {
      if (live) setContent({ home, notice })
    })
    return () => {
      live = false
    }
  }, [])
  return content
}

/** The welcome page: the site's name and logo, where to go next, the notice, what the gateway offers. */
function Welcome({ notice }: { notice: ReactNode }) {
  const t = useT()
  const status = useStore($status)
  const user = useStore($session)
  const name = status?.system_name || t('app.defaultName')
  return (
    <div className="tg-home">
      <section className="tg-hero">
        {status?.logo && <img className="tg-hero__logo" src={status.logo} alt="" />}
        <h1 className="tg-hero__title">{t('home.welcome', { name })}</h1>
        <p className="tg-hero__tagline">{t('home.tagline')}</p>
        <div className="tg-hero__actions">
          {user ? (
            <Link to="/token" className="tg-button tg-button--primary">
              {t('home.console')}
            </Link>
          ) : (
            <Link to="/register" className="tg-button tg-button--primary">
              {t('home.start')}
            </Link>
          )}
          <Link to="/pricing" className="tg-button">
            {t('home.pricing')}
          </Link>
        </div>
      </section>
      {notice}
      <section className="tg-features">
        {FEATURES.map((f) => (
          <article key={f.icon} className="tg-feature">
            <span className="tg-panel__icon" aria-hidden="true">
              <sl-icon name={f.icon}></sl-icon>
            </span>
            <h2>{t(f.title)}</h2>
            <p>{t(f.body)}</p>
          </article>
        ))}
      </section>
    </div>
  )
}

/**
 * Home: the admin's HomePageContent (sanitised HTML, or a URL shown in a sandboxed frame), with the
 * Notice above it; without home content, a welcome page with the Notice.
 */
export function HomeScreen() {
  const t = useT()
  const content = useHomeContent()

  if (!content) {
    return (
      <div className="tg-home" aria-busy="true">
        <sl-skeleton effect="sheen" style={{ height: '2.5rem', width: '60%', marginBottom: '1rem' }}></sl-skeleton>
        <sl-skeleton effect="sheen" style={{ height: '1.25rem', width: '90%', marginBottom: '0.5rem' }}></sl-skeleton>
        <sl-skeleton effect="sheen" style={{ height: '1.25rem', width: '75%' }}></sl-skeleton>
      </div>
    )
  }

  const notice = content.notice.trim() && (
    <sl-alert variant="primary" open className="tg-home__notice" data-notice="">
      <sl-icon slot="icon" name="info-circle"></sl-icon>
      <strong>{t('home.notice')}</strong>
      <div className="tg-prose" dangerouslySetInnerHTML={{ __html: sanitizeHtml(content.notice) }} />
    </sl-alert>
  )

  if (!content.home.trim()) return <Welcome notice={notice} />
  return (
    <div className="tg-home">
      {notice}
      {isHttpUrl(content.home) ? (
        <iframe
          className="tg-frame tg-home__frame"
          src={content.home.trim()}
          title={t('home.embedded')}
          sandbox="allow-scripts allow-forms allow-popups"
          data-home-frame=""
        ></iframe>
      ) : (
        <article className="tg-prose" data-home-content="" dangerouslySetInnerHTML={{ __html: sanitizeHtml(content.home) }} />
      )}
    </div>
  )
}
