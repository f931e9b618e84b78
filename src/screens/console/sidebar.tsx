import { useT } from '../../i18n/t.ts'
import { Link } from '../../ui/navigation.tsx'
import type { NavEntry } from './nav.ts'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'

/** The sidebar entries; collapsed shows icons only (labels stay for screen readers). */
export function SidebarNav({
  entries,
  active,
  collapsed,
  onNavigate,
}: {
  entries: NavEntry[]
  active?: string
  collapsed: boolean
  onNavigate?: () => void
}) {
  const t = useT()
  return (
    <ul className="tg-nav">
      {entries.map((e) => (
        <li key={e.key}>
          <Link
            to={e.to}
            className="tg-nav__link"
            aria-current={active === e.key ? 'page' : undefined}
            title={collapsed ? t(e.label) : undefined}
            data-nav={e.key}
            onClick={onNavigate}
          >
            <sl-icon name={e.icon} aria-hidden="true"></sl-icon>
            <span className={collapsed ? 'visually-hidden' : 'tg-nav__label'}>{t(e.label)}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
