import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useStore } from '@nanostores/react'
import type { MessageKey } from '../../i18n/t.ts'
import { useSettingsLabels, type SettingsLabel } from './personal-labels.ts'
import { $isRoot, $session } from '../../stores/session.ts'
import { hasRouter } from '../../stores/route.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Link, useNavigate } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import listCss from '../../ui/list.css?inline'
import personalCss from './personal-settings.css?inline'
import { PersonalTab } from './personal-tab.tsx'
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/settings.ts'

// only the super administrator opens these: they load on first use, in their own chunks
const OperationTab = lazy(async () => ({ default: (await import('./operation-tab.tsx')).OperationTab }))
const SystemTab = lazy(async () => ({ default: (await import('./system-tab.tsx')).SystemTab }))
const OtherTab = lazy(async () => ({ default: (await import('./other-tab.tsx')).OtherTab }))

type SettingsTab = 'personal' | 'operation' | 'system' | 'other'

const TABS: ReadonlyArray<{ name: SettingsTab; label: SettingsLabel | MessageKey; rootOnly: boolean }> = [
  { name: 'personal', label: 'settings.tab.personal', rootOnly: false },
  { name: 'operation', label: 'settings.tab.operation', rootOnly: true },
  { name: 'system', label: 'settings.tab.system', rootOnly: true },
  { name: 'other', label: 'settings.tab.other', rootOnly: true },
]

/** The tab to show: the asked one if this user may see it, else personal (the default). */
function pickTab(asked: string | undefined, root: boolean): SettingsTab {
  const found = TABS.find((tab) => tab.name === asked)
  return found && (!found.rootOnly || root) ? found.name : 'personal'
}

/** The tab an arrow key, Home or End reaches from `active`, wrapping around (none for other keys). */
function tabAfterKey(visible: typeof TABS, active: SettingsTab, key: string) {
  const i = visible.findIndex((x) => x.name === active)
  const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: visible.length - 1 }[key]
  return next === undefined ? undefined : visible[(next + visible.length) % visible.length]!
}

/** What a visitor who has not signed in sees: a prompt to sign in first. */
function SignInFirst() {
  const t = useSettingsLabels()
  return (
    <div className="tg-screen" data-screen="settings">
      <style>{listCss + personalCss}</style>
      <EmptyState
        icon="shield-lock"
        title={t('settings.signInFirst')}
        action={
          <Link to="/login" className="tg-button tg-button--primary">
            {t('top.login')}
          </Link>
        }
      />
    </div>
  )
}

/** The row of tabs; arrow keys, Home and End move between them and open the one reached (WAI-ARIA tabs). */
function TabList({ visible, active, choose }: { visible: typeof TABS; active: SettingsTab; choose: (name: SettingsTab) => void }) {
  const t = useSettingsLabels()
  const list = useRef<HTMLDivElement>(null)

  function onTabKey(e: KeyboardEvent<HTMLDivElement>) {
    const target = tabAfterKey(visible, active, e.key)
    if (!target) return
    e.preventDefault()
    choose(target.name)
    list.current?.querySelector<HTMLElement>(`[data-tab-name="${target.name}"]`)?.focus()
  }
  return (
    <div className="tg-tabs" role="tablist" aria-label={t('nav.setting')} ref={list} onKeyDown={onTabKey} part="tabs">
      {visible.map((x) => (
        <button
          key={x.name}
          type="button"
          role="tab"
          id={`tg-settings-tab-${x.name}`}
          aria-selected={x.name === active}
          aria-controls="tg-settings-panel"
          tabIndex={x.name === active ? 0 : -1}
          className="tg-tabs__tab"
          data-tab-name={x.name}
          onClick={() => choose(x.name)}
        >
          {t(x.label)}
        </button>
      ))}
    </div>
  )
}

/**
 * Settings (/setting): the personal tab for everyone (the default), and operation, system and
 * other for the super administrator. The tab comes from ?tab=; switching tabs rewrites it when
 * the console routes the page.
 */
export function SettingsScreen({ tab, onLogout }: { tab?: string; onLogout?: () => void }) {
  const t = useSettingsLabels()
  const navigate = useNavigate()
  const user = useStore($session)
  const root = useStore($isRoot)
  const [active, setActive] = useState<SettingsTab>(() => pickTab(tab, root))

  useEffect(() => setActive(pickTab(tab, root)), [tab, root])

  if (!user) return <SignInFirst />

  function choose(name: SettingsTab) {
    if (name === active) return
    setActive(name)
    // only the console has an address bar to keep in step; an element used alone just switches
    if (hasRouter()) navigate(name === 'personal' ? '/setting' : `/setting?tab=${name}`, { replace: true })
  }

  const visible = TABS.filter((x) => !x.rootOnly || root)
  return (
    <div className="tg-screen" data-screen="settings" data-tab={active}>
      <style>{listCss + personalCss}</style>
      {/* the subtitle says what the open tab holds */}
      <PageHeader
        title={t('nav.setting')}
        description={t(active === 'personal' ? 'settings.description' : `settings.description.${active}`)}
      />
      {visible.length > 1 ? (
        <>
          <TabList visible={visible} active={active} choose={choose} />
          <div role="tabpanel" id="tg-settings-panel" aria-labelledby={`tg-settings-tab-${active}`} className="tg-tabs__panel">
            <Suspense fallback={<sl-spinner aria-label={t('common.loading')}></sl-spinner>}>
              <TabContent name={active} onLogout={onLogout} />
            </Suspense>
          </div>
        </>
      ) : (
        <PersonalTab onLogout={onLogout} />
      )}
    </div>
  )
}

function TabContent({ name, onLogout }: { name: SettingsTab; onLogout?: () => void }) {
  switch (name) {
    case 'operation':
      return <OperationTab />
    case 'system':
      return <SystemTab />
    case 'other':
      return <OtherTab />
    default:
      return <PersonalTab onLogout={onLogout} />
  }
}
