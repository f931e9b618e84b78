import type { PublicStatus, User } from '../../api/types.ts'
import { isAdmin } from '../../../domain/roles.ts'
import type { MessageKey } from '../../i18n/t.ts'
import '../../ui/icons/bar-chart-line.ts'
import '../../ui/icons/camera-reels.ts'
import '../../ui/icons/chat-dots.ts'
import '../../ui/icons/film.ts'
import '../../ui/icons/gear.ts'
import '../../ui/icons/hdd-network.ts'
import '../../ui/icons/house.ts'
import '../../ui/icons/image.ts'
import '../../ui/icons/journal-text.ts'
import '../../ui/icons/key.ts'
import '../../ui/icons/magic.ts'
import '../../ui/icons/music-note-beamed.ts'
import '../../ui/icons/palette.ts'
import '../../ui/icons/people.ts'
import '../../ui/icons/person-arms-up.ts'
import '../../ui/icons/stars.ts'
import '../../ui/icons/tags.ts'
import '../../ui/icons/ticket-perforated.ts'
import '../../ui/icons/wallet2.ts'
import '../../i18n/en/console.ts'

export interface NavEntry {
  key: string
  to: string
  icon: string
  label: MessageKey
  /** shown only to administrators (role 10 and above) */
  admin?: boolean
  /** shown only when the public status allows it */
  when?: (status: PublicStatus | null) => boolean
}

/** The sidebar, in the spec's order, with each entry's condition. */
const NAV: readonly NavEntry[] = [
  { key: 'home', to: '/', icon: 'house', label: 'nav.home' },
  { key: 'channel', to: '/channel', icon: 'hdd-network', label: 'nav.channel', admin: true },
  { key: 'chat', to: '/chat', icon: 'chat-dots', label: 'nav.chat', when: (s) => !!s?.chat_link },
  { key: 'token', to: '/token', icon: 'key', label: 'nav.token' },
  { key: 'redemption', to: '/redemption', icon: 'ticket-perforated', label: 'nav.redemption', admin: true },
  { key: 'wallet', to: '/topup', icon: 'wallet2', label: 'nav.wallet' },
  { key: 'pricing', to: '/pricing', icon: 'tags', label: 'nav.pricing' },
  { key: 'user', to: '/user', icon: 'people', label: 'nav.user', admin: true },
  { key: 'log', to: '/log', icon: 'journal-text', label: 'nav.log' },
  { key: 'detail', to: '/detail', icon: 'bar-chart-line', label: 'nav.detail', when: (s) => !!s?.enable_data_export },
  { key: 'drawing', to: '/midjourney', icon: 'palette', label: 'nav.drawing', when: (s) => !!s?.enable_drawing },
  { key: 'music', to: '/suno', icon: 'music-note-beamed', label: 'nav.music' },
  { key: 'luma', to: '/luma', icon: 'film', label: 'nav.luma' },
  { key: 'viggle', to: '/viggle', icon: 'person-arms-up', label: 'nav.viggle' },
  { key: 'runway', to: '/runway', icon: 'camera-reels', label: 'nav.runway' },
  { key: 'ideo', to: '/ideo', icon: 'image', label: 'nav.ideo' },
  { key: 'kling', to: '/kling', icon: 'stars', label: 'nav.kling' },
  { key: 'pika', to: '/pika', icon: 'magic', label: 'nav.pika' },
  { key: 'setting', to: '/setting', icon: 'gear', label: 'nav.setting' },
]

export function visibleNav(user: User | null, status: PublicStatus | null): NavEntry[] {
  const admin = !!user && isAdmin(user.role)
  return NAV.filter((e) => (!e.admin || admin) && (!e.when || e.when(status)))
}

/** The entry a path belongs to (/channel/edit/3 lights up Channels). */
export function activeEntry(path: string, entries: readonly NavEntry[]): NavEntry | undefined {
  if (path === '/') return entries.find((e) => e.to === '/')
  const first = `/${path.split('/')[1] ?? ''}`
  const aliases: Record<string, string> = { '/lumav2': '/luma' }
  return entries.find((e) => e.to !== '/' && e.to === (aliases[first] ?? first))
}
