import { useStore } from '@nanostores/react'
import { useLocale, useT } from '../../i18n/t.ts'
import { $prefs, setLocale, toggleTheme, type Locale } from '../../stores/prefs.ts'
import { $session } from '../../stores/session.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { now } from '../../stores/clock.ts'
import { roleTier } from '../../../domain/roles.ts'
import { Link, useNavigate } from '../../ui/navigation.tsx'
import { festiveGreeting } from './festive.ts'
import '@shoelace-style/shoelace/dist/components/avatar/avatar.js'
import '@shoelace-style/shoelace/dist/components/divider/divider.js'
import '@shoelace-style/shoelace/dist/components/dropdown/dropdown.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/menu/menu.js'
import '@shoelace-style/shoelace/dist/components/menu-item/menu-item.js'
import '@shoelace-style/shoelace/dist/components/menu-label/menu-label.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '../../ui/icons/balloon-heart.ts'
import '../../ui/icons/box-arrow-right.ts'
import '../../ui/icons/gear.ts'
import '../../ui/icons/list.ts'
import '../../ui/icons/moon-stars.ts'
import '../../ui/icons/shield-lock.ts'
import '../../ui/icons/sun.ts'
import '../../ui/icons/translate.ts'
import '../../i18n/en/console.ts'

const LANGUAGES: Array<{ value: Locale; label: string }> = [
  { value: 'en', label: 'English' },
  { value: 'zh', label: '简体中文' },
]

interface TopBarProps {
  small: boolean
  collapsed: boolean
  onMenu: () => void
  onLogout: () => void
}

/** Brand, the sidebar toggle, the festive greeting, language and theme switches, sign-in links or the account menu. */
export function TopBar({ small, collapsed, onMenu, onLogout }: TopBarProps) {
  const t = useT()
  const { theme } = useStore($prefs, { keys: ['theme'] })
  const user = useStore($session)
  const status = useStore($status)
  const greeting = festiveGreeting(now())
  const name = status?.system_name || t('app.defaultName')

  return (
    <header className="tg-topbar" part="header">
      <sl-icon-button
        className="tg-topbar__menu"
        name="list"
        label={small ? t('top.menu') : collapsed ? t('top.expand') : t('top.collapse')}
        aria-expanded={small ? undefined : !collapsed}
        onClick={onMenu}
        data-action="menu"
      ></sl-icon-button>
      <Link to="/" className="tg-topbar__brand">
        {status?.logo ? <img src={status.logo} alt="" /> : <sl-icon name="shield-lock"></sl-icon>}
        <span>{name}</span>
      </Link>
      <div className="tg-topbar__spacer"></div>
      {greeting && (
        <sl-tag className="tg-topbar__festive" variant="danger" pill size="small" data-festive="">
          <sl-icon name="balloon-heart" aria-hidden="true"></sl-icon>
          <span className="tg-topbar__festive-text">{t(greeting)}</span>
        </sl-tag>
      )}
      <LanguageMenu />
      <sl-icon-button
        name={theme === 'dark' ? 'sun' : 'moon-stars'}
        label={theme === 'dark' ? t('top.toLight') : t('top.toDark')}
        onClick={toggleTheme}
        data-action="theme"
      ></sl-icon-button>
      {user ? (
        <AccountMenu user={user} small={small} onLogout={onLogout} />
      ) : (
        <nav className="tg-topbar__auth" aria-label={t('top.login')}>
          <Link to="/login" className="tg-button tg-button--text" data-link="login">
            {t('top.login')}
          </Link>
          {!small && (
            <Link to="/register" className="tg-button tg-button--primary" data-link="register">
              {t('top.register')}
            </Link>
          )}
        </nav>
      )}
    </header>
  )
}

/** The language switch: each language named in itself, the current one ticked. */
function LanguageMenu() {
  const t = useT()
  const locale = useLocale()
  return (
    <sl-dropdown
      placement="bottom-end"
      onsl-select={(e: CustomEvent<{ item: { value: string } }>) => setLocale(e.detail.item.value as Locale)}
    >
      <sl-icon-button slot="trigger" name="translate" label={t('top.language')} data-action="language"></sl-icon-button>
      <sl-menu>
        {LANGUAGES.map((l) => (
          <sl-menu-item key={l.value} value={l.value} type="checkbox" checked={locale === l.value} lang={l.value === 'zh' ? 'zh-CN' : 'en'}>
            {l.label}
          </sl-menu-item>
        ))}
      </sl-menu>
    </sl-dropdown>
  )
}

/** The signed-in user's menu: name and role, the settings and signing out. */
function AccountMenu({ user, small, onLogout }: { user: User; small: boolean; onLogout: () => void }) {
  const t = useT()
  const navigate = useNavigate()
  const role = t(`role.${roleTier(user.role)}`)
  const displayName = user.display_name || user.username || ''
  return (
    <sl-dropdown
      placement="bottom-end"
      onsl-select={(e: CustomEvent<{ item: { value: string } }>) => (e.detail.item.value === 'logout' ? onLogout() : navigate('/setting'))}
    >
      <button slot="trigger" className="tg-topbar__account" data-action="account">
        <span aria-hidden="true">
          <sl-avatar
            initials={displayName.slice(0, 1).toUpperCase()}
            label={displayName}
            style={{ '--size': '1.75rem' } as React.CSSProperties}
          ></sl-avatar>
        </span>
        {!small && <span className="tg-topbar__username">{displayName}</span>}
        <span className="visually-hidden">{t('top.account')}</span>
        <sl-icon name="chevron-down" library="system" aria-hidden="true"></sl-icon>
      </button>
      <sl-menu>
        <sl-menu-label>
          {displayName}
          <br />
          <small>{role}</small>
        </sl-menu-label>
        <sl-divider></sl-divider>
        <sl-menu-item value="settings">
          <sl-icon slot="prefix" name="gear"></sl-icon>
          {t('top.settings')}
        </sl-menu-item>
        <sl-menu-item value="logout" data-action="logout">
          <sl-icon slot="prefix" name="box-arrow-right"></sl-icon>
          {t('top.logout')}
        </sl-menu-item>
      </sl-menu>
    </sl-dropdown>
  )
}
