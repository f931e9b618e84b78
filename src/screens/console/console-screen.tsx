import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { languageTag, useLocale, useT } from '../../i18n/t.ts'
import { ScreenBoundary } from '../../ui/screen-boundary.tsx'
import { endSession, refreshUser } from '../../stores/account.ts'
import type { User } from '../../api/types.ts'
import { $route, attachRouter, type Route } from '../../stores/route.ts'
import { $session, $isAdmin } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { $prefs, setSidebarCollapsed } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { useMediaQuery } from '../../ui/media.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Link } from '../../ui/navigation.tsx'
import { TopBar } from './top-bar.tsx'
import { SidebarNav } from './sidebar.tsx'
import { Footer } from './footer.tsx'
import { activeEntry, visibleNav, type NavEntry } from './nav.ts'
import { matchRoute } from './routes.tsx'
import consoleCss from './console.css?inline'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js'
import '../../ui/icons/compass.ts'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/console.ts'

interface ConsoleScreenProps {
  /** hide the footer */
  noFooter?: boolean
  /** a user signed in through the console's login screens */
  onLogin?: (user: User) => void
  /** the user signed out from the account menu */
  onLogout?: () => void
  /** a redemption code added quota in the wallet screen */
  onTopup?: (quota: number) => void
}

export const SMALL_SCREEN = '(max-width: 767px)'

function NotFound() {
  const t = useT()
  return (
    <div data-not-found="">
      <EmptyState
        icon="compass"
        title={t('notFound.title')}
        action={
          <Link to="/" className="tg-button tg-button--primary">
            {t('notFound.back')}
          </Link>
        }
      />
    </div>
  )
}

function Forbidden() {
  const t = useT()
  return (
    <div data-forbidden="">
      <EmptyState icon="shield-lock" title={t('forbidden.title')}>
        {t('forbidden.body')}
      </EmptyState>
    </div>
  )
}

function ScreenFallback() {
  return (
    <div className="tg-screen-loading" aria-busy="true">
      <sl-spinner></sl-spinner>
    </div>
  )
}

/**
 * The page follows the console while it is there: the tab's title (the screen's name and the
 * SystemName) and `<html lang>` (the reader's language). Both come back when the console leaves.
 */
function usePageHead(title: string, lang: string) {
  useEffect(() => {
    const before = { title: document.title, lang: document.documentElement.lang }
    return () => {
      document.title = before.title
      document.documentElement.lang = before.lang
    }
  }, [])
  useEffect(() => {
    document.title = title
  }, [title])
  useEffect(() => {
    document.documentElement.lang = lang
  }, [lang])
}

/**
 * The whole console: top bar, sidebar (a drawer on small screens), the routed screen and the
 * footer. Routing uses the History API; guarded routes send signed-out visitors to /login.
 */
export function ConsoleScreen({ noFooter = false, onLogin, onLogout, onTopup }: ConsoleScreenProps) {
  const t = useT()
  const locale = useLocale()
  const navigate = useNavigate()
  const route = useStore($route)
  const user = useStore($session)
  const isAdmin = useStore($isAdmin)
  const status = useStore($status)
  const { 'sidebar-collapsed': collapsedPref } = useStore($prefs, { keys: ['sidebar-collapsed'] })
  const small = useMediaQuery(SMALL_SCREEN)
  useRouter(route.path, user)
  const { main, drawerOpen, setDrawerOpen } = useNewPage(route.path)

  const match = matchRoute(route.path)
  const systemName = status?.system_name || t('app.defaultName')
  usePageHead(match ? `${t(match.route.title)} · ${systemName}` : systemName, languageTag(locale))

  const collapsed = small || (collapsedPref ?? !!status?.default_collapse_sidebar)
  const entries = visibleNav(user, status)
  const active = activeEntry(route.path, entries)?.key

  async function logout() {
    await endSession()
    toast.success(t('top.loggedOut'))
    onLogout?.()
    navigate('/login')
  }

  return (
    <div className={`tg-console${collapsed ? ' tg-console--collapsed' : ''}${small ? ' tg-console--small' : ''}`}>
      <style>{consoleCss}</style>
      <TopBar
        small={small}
        collapsed={collapsed}
        onMenu={() => (small ? setDrawerOpen(true) : setSidebarCollapsed(!collapsed))}
        onLogout={logout}
      />
      <ConsoleNav small={small} collapsed={collapsed} entries={entries} active={active} drawerOpen={drawerOpen} onDrawer={setDrawerOpen} />
      <main
        className={`tg-content${match?.route.bare ? ' tg-content--bare' : ''}`}
        part="content"
        ref={main}
        tabIndex={-1}
        data-route={match?.route.pattern ?? 'not-found'}
      >
        <ScreenBoundary resetKey={route.path}>
          <Suspense fallback={<ScreenFallback />}>{routedContent(match, route, user, isAdmin, { onLogin, onLogout, onTopup })}</Suspense>
        </ScreenBoundary>
      </main>
      {!noFooter && <Footer />}
    </div>
  )
}

/**
 * The console follows the address bar while it is mounted, refreshes the signed-in user once, and
 * sends a signed-out visitor of a guarded route to /login.
 */
function useRouter(path: string, user: User | null) {
  const navigate = useNavigate()
  useEffect(() => attachRouter(), [])
  useEffect(() => {
    void refreshUser()
  }, [])

  // The guard reads the stores, not this render's values: attachRouter (above) has just re-read the address bar.
  useEffect(() => {
    const current = matchRoute($route.get().path)
    if (current && current.route.access !== 'public' && !$session.get()) navigate('/login', { replace: true })
  }, [path, user, navigate])
}

/**
 * What moving to another path does to the shell: the navigation drawer closes and, after the
 * first path, the focus goes to the content and the page scrolls back to the top.
 */
function useNewPage(path: string) {
  const [drawerOpen, setDrawerOpen] = useState(false)
  const main = useRef<HTMLElement>(null)
  const firstPath = useRef(true)
  useEffect(() => {
    setDrawerOpen(false)
    if (firstPath.current) {
      firstPath.current = false
      return
    }
    main.current?.focus({ preventScroll: true })
    if (typeof scrollTo === 'function') scrollTo({ top: 0 })
  }, [path])
  return { main, drawerOpen, setDrawerOpen }
}

/**
 * The content of a route: not found, nothing while a guarded route sends a signed-out visitor to
 * /login, forbidden for a non-administrator on an administrator's route, else the route's screen.
 */
function routedContent(
  match: ReturnType<typeof matchRoute>,
  route: Route,
  user: User | null,
  isAdmin: boolean,
  { onLogin, onLogout, onTopup }: Pick<ConsoleScreenProps, 'onLogin' | 'onLogout' | 'onTopup'>,
): ReactNode {
  if (!match) return <NotFound />
  if (match.route.access !== 'public' && !user) return null
  if (match.route.access === 'admin' && !isAdmin) return <Forbidden />
  return match.route.render({
    params: match.params,
    query: route.query,
    onLogin: (u) => onLogin?.(u),
    onLogout: () => onLogout?.(),
    onTopup: (q) => onTopup?.(q),
  })
}

/** The sidebar beside the content, or on small screens in a drawer the menu button opens. */
function ConsoleNav({
  small,
  collapsed,
  entries,
  active,
  drawerOpen,
  onDrawer,
}: {
  small: boolean
  collapsed: boolean
  entries: NavEntry[]
  active: string | undefined
  drawerOpen: boolean
  onDrawer: (open: boolean) => void
}) {
  const t = useT()
  if (!small) {
    return (
      <nav className="tg-sidebar" part="sidebar" aria-label={t('nav.label')} data-collapsed={String(collapsed)}>
        <SidebarNav entries={entries} active={active} collapsed={collapsed} />
      </nav>
    )
  }
  return (
    <sl-drawer
      label={t('nav.label')}
      placement="start"
      open={drawerOpen}
      className="tg-drawer"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onDrawer(false)}
    >
      <nav className="tg-sidebar tg-sidebar--drawer" part="sidebar" aria-label={t('nav.label')} data-collapsed="true">
        <SidebarNav entries={entries} active={active} collapsed={false} onNavigate={() => onDrawer(false)} />
      </nav>
    </sl-drawer>
  )
}
