import { useEffect, useState } from 'react'
import { useT } from '../../i18n/t.ts'
import { $status } from '../../stores/status.ts'
import { sanitizeHtml } from '../../ui/sanitize.ts'
import { Link } from '../../ui/navigation.tsx'
import '../../i18n/en/console.ts'

const FOOTER_POLL_MS = 200
const FOOTER_POLL_TIMES = 5

/**
 * The footer: the admin's footer HTML (sanitised) or the default credit line. The HTML comes
 * with the status, which may still be loading, so it is polled every 200 ms, up to 5 times.
 */
export function Footer() {
  const t = useT()
  const [html, setHtml] = useState(() => $status.get()?.footer_html ?? '')
  useEffect(() => {
    if (html) return
    let tries = 0
    const timer = setInterval(() => {
      tries++
      const footer = $status.get()?.footer_html
      if (footer) {
        setHtml(footer)
        clearInterval(timer)
      } else if (tries >= FOOTER_POLL_TIMES) {
        clearInterval(timer)
      }
    }, FOOTER_POLL_MS)
    return () => clearInterval(timer)
    // polled once per mount, as the spec says; later status changes show on the next load
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const name = $status.get()?.system_name || t('app.defaultName')
  return (
    <footer className="tg-footer" part="footer">
      {html ? (
        <div className="tg-footer__custom tg-prose" data-footer="custom" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
      ) : (
        <p className="tg-footer__credit" data-footer="default">
          {t('footer.credit', { name })} · <Link to="/about">{t('nav.about')}</Link>
        </p>
      )}
    </footer>
  )
}
