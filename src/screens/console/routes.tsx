import { lazy, type ComponentType, type ReactNode } from 'react'
import type { MessageKey } from '../../i18n/t.ts'
import { partsReady } from '../../i18n/words.ts'
import type { User } from '../../api/types.ts'
import type { TaskKind } from '../tasks/tasks-screen.tsx'
import { LoginScreen } from '../login/login-screen.tsx'
import { RegisterScreen } from '../register/register-screen.tsx'
import { ResetScreen } from '../reset/reset-screen.tsx'
import { ResetConfirmScreen } from '../reset/reset-confirm-screen.tsx'
import { GithubCallbackScreen } from '../oauth/github-callback-screen.tsx'
import { HomeScreen } from './home-screen.tsx'
import { AboutScreen } from './about-screen.tsx'
import { ChatScreen } from './chat-screen.tsx'
import '../../i18n/en/console.ts'

/**
 * Loads a named export of a screen module on first use (its own chunk, with its words). A module's `prefetch`
 * starts the screen's data as soon as the code arrives: React reveals a lazy screen up to 300 ms
 * later (its Suspense throttle), and the screen's own effects would only ask then.
 */
function screen<P>(load: () => Promise<Record<string, unknown>>, name: string) {
  return lazy(async () => {
    const module = await load()
    if (typeof module.prefetch === 'function') (module.prefetch as () => void)()
    // the screen's words came with it: on a Chinese page its Chinese words come before it shows
    await partsReady()
    return { default: module[name] as ComponentType<P> }
  })
}

const TokensScreen = screen(() => import('../tokens/tokens-screen.tsx'), 'TokensScreen')
const ChannelsScreen = screen<{ edit?: number | 'new' | null; routed?: boolean }>(
  () => import('../channels/channels-screen.tsx'),
  'ChannelsScreen',
)
const RedemptionsScreen = screen(() => import('../redemptions/redemptions-screen.tsx'), 'RedemptionsScreen')
const UsersScreen = screen<{ edit?: number | 'new' | null; routed?: boolean }>(() => import('../users/users-screen.tsx'), 'UsersScreen')
const SettingsScreen = screen<{ tab?: string; onLogout?: () => void }>(() => import('../settings/settings-screen.tsx'), 'SettingsScreen')
const WalletScreen = screen<{ onTopup?: (quota: number) => void }>(() => import('../wallet/wallet-screen.tsx'), 'WalletScreen')
const LogsScreen = screen(() => import('../logs/logs-screen.tsx'), 'LogsScreen')
const DashboardScreen = screen(() => import('../dashboard/dashboard-screen.tsx'), 'DashboardScreen')
const PricingScreen = screen(() => import('../pricing/pricing-screen.tsx'), 'PricingScreen')
const TasksScreen = screen<{ kind: TaskKind }>(() => import('../tasks/tasks-screen.tsx'), 'TasksScreen')

export type Access = 'public' | 'user' | 'admin'

interface RouteContext {
  params: Record<string, string>
  query: URLSearchParams
  onLogin: (user: User) => void
  /** the user signed out from inside a screen (account deletion) */
  onLogout: () => void
  /** quota was added in the wallet */
  onTopup: (quota: number) => void
}

interface RouteDef {
  pattern: string
  title: MessageKey
  access: Access
  /** full-width pages without the content padding (auth screens, the chat frame) */
  bare?: boolean
  render: (ctx: RouteContext) => ReactNode
}

const id = (ctx: RouteContext) => (ctx.params.id ? Number(ctx.params.id) : undefined)
const task = (kind: TaskKind, title: MessageKey): RouteDef => ({
  pattern: `/${kind}`,
  title,
  access: 'user',
  render: () => <TasksScreen kind={kind} />,
})

/** Every route of spec section 2. */
const ROUTES: readonly RouteDef[] = [
  { pattern: '/', title: 'nav.home', access: 'public', render: () => <HomeScreen /> },
  { pattern: '/login', title: 'nav.login', access: 'public', bare: true, render: (ctx) => <LoginScreen onLogin={ctx.onLogin} /> },
  { pattern: '/register', title: 'nav.register', access: 'public', bare: true, render: () => <RegisterScreen /> },
  { pattern: '/reset', title: 'nav.reset', access: 'public', bare: true, render: () => <ResetScreen /> },
  { pattern: '/user/reset', title: 'nav.reset', access: 'public', bare: true, render: () => <ResetConfirmScreen /> },
  {
    pattern: '/oauth/github',
    title: 'nav.oauth',
    access: 'public',
    bare: true,
    render: (ctx) => <GithubCallbackScreen onLogin={ctx.onLogin} />,
  },
  { pattern: '/token', title: 'nav.token', access: 'user', render: () => <TokensScreen /> },
  // one screen for the list and its drawer, so opening the drawer keeps the loaded list
  { pattern: '/channel', title: 'nav.channel', access: 'admin', render: () => <ChannelsScreen routed /> },
  { pattern: '/channel/edit/:id', title: 'nav.channelEdit', access: 'admin', render: (ctx) => <ChannelsScreen routed edit={id(ctx)} /> },
  { pattern: '/channel/add', title: 'nav.channelAdd', access: 'admin', render: () => <ChannelsScreen routed edit="new" /> },
  { pattern: '/redemption', title: 'nav.redemption', access: 'admin', render: () => <RedemptionsScreen /> },
  // as for channels: the list and its drawer are one screen; /user/add is the same as /user/edit
  { pattern: '/user', title: 'nav.user', access: 'admin', render: () => <UsersScreen routed /> },
  { pattern: '/user/edit/:id', title: 'nav.userEdit', access: 'admin', render: (ctx) => <UsersScreen routed edit={id(ctx)} /> },
  { pattern: '/user/edit', title: 'nav.userAdd', access: 'admin', render: () => <UsersScreen routed edit="new" /> },
  { pattern: '/user/add', title: 'nav.userAdd', access: 'admin', render: () => <UsersScreen routed edit="new" /> },
  {
    pattern: '/setting',
    title: 'nav.setting',
    access: 'user',
    render: (ctx) => <SettingsScreen tab={ctx.query.get('tab') ?? undefined} onLogout={ctx.onLogout} />,
  },
  { pattern: '/topup', title: 'nav.wallet', access: 'user', render: (ctx) => <WalletScreen onTopup={ctx.onTopup} /> },
  { pattern: '/log', title: 'nav.log', access: 'user', render: () => <LogsScreen /> },
  { pattern: '/detail', title: 'nav.detail', access: 'user', render: () => <DashboardScreen /> },
  task('midjourney', 'nav.drawing'),
  task('luma', 'nav.luma'),
  task('lumav2', 'nav.lumav2'),
  task('suno', 'nav.music'),
  task('ideo', 'nav.ideo'),
  task('viggle', 'nav.viggle'),
  task('runway', 'nav.runway'),
  task('pika', 'nav.pika'),
  task('kling', 'nav.kling'),
  { pattern: '/pricing', title: 'nav.pricing', access: 'public', render: () => <PricingScreen /> },
  { pattern: '/about', title: 'nav.about', access: 'public', render: () => <AboutScreen /> },
  { pattern: '/chat', title: 'nav.chat', access: 'public', bare: true, render: () => <ChatScreen /> },
]

/** The route for a path and its :params, or null (the not-found page). A trailing slash is ignored. */
export function matchRoute(path: string): { route: RouteDef; params: Record<string, string> } | null {
  const parts = path.replace(/\/+$/, '').split('/').filter(Boolean)
  for (const route of ROUTES) {
    const pattern = route.pattern.split('/').filter(Boolean)
    if (pattern.length !== parts.length) continue
    const params: Record<string, string> = {}
    let ok = true
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i]!
      let v = parts[i]!
      try {
        v = decodeURIComponent(v)
      } catch {
        // a malformed escape stays as typed and matches nothing with a parameter
      }
      if (p.startsWith(':')) {
        if (!/^[0-9]+$/.test(v)) {
          ok = false
          break
        }
        params[p.slice(1)] = v
      } else if (p !== v) {
        ok = false
        break
      }
    }
    if (ok) return { route, params }
  }
  return null
}
