import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react'
import { useStore } from '@nanostores/react'
import { useLogLabels } from './logs-labels.ts'
import { $logStat, logList, refreshLogStat, searchLogs, type LogFilters as AppliedFilters } from '../../stores/logs.ts'
import type { Log } from '../../api/types.ts'
import { $isAdmin, $isRoot, $session } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { now } from '../../stores/clock.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { ListLoadState } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { usePagedList, type PagedListView } from '../../stores/paged-list.ts'
import { useMediaQuery } from '../../ui/media.ts'
import { formatQuota } from '../../ui/format.ts'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import { LogFilters, type LogDraft } from './log-filters.tsx'
import { LogTable } from './log-table.tsx'
import { UserInfoDialog } from './user-info-dialog.tsx'
import { ExportLogs } from './export-logs.tsx'
import listCss from '../../ui/list.css?inline'
import logsCss from './logs.css?inline'
import { DAY, HOUR } from '../../../domain/time.ts'
import { SignInNotice } from '../../ui/sign-in-notice.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js'
import '../../ui/icons/journal-text.ts'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '../../i18n/en/logs.ts'

/** The log cleaning is root's, and rare: its dialog loads when it first opens. */
const CleanLogsDialog = lazy(async () => ({ default: (await import('./clean-logs-dialog.tsx')).CleanLogsDialog }))

/** Below this width the filter form folds behind a "Filters" toggle. */
export const SMALL_SCREEN = '(max-width: 640px)'

/** Default log range (spec section 9): 24 h ago to 1 h ahead. */
const LOG_RANGE = { back: DAY, ahead: HOUR }

function defaultDraft(): LogDraft {
  const t = Math.floor(now().getTime() / 1000)
  return {
    type: '0',
    token_name: '',
    model_name: '',
    start: toLocalInput(t - LOG_RANGE.back),
    end: toLocalInput(t + LOG_RANGE.ahead),
    username: '',
    channel: '',
  }
}

function toFilters(d: LogDraft): AppliedFilters {
  const channel = Number(d.channel.trim())
  return {
    type: Number(d.type) || 0,
    token_name: d.token_name.trim(),
    model_name: d.model_name.trim(),
    start_timestamp: fromLocalInput(d.start) ?? 0,
    end_timestamp: fromLocalInput(d.end) ?? 0,
    username: d.username.trim(),
    channel: d.channel.trim() && Number.isInteger(channel) && channel > 0 ? channel : '',
  }
}

const pageSizeOf = (stored: number) => (PAGE_SIZES.includes(stored as (typeof PAGE_SIZES)[number]) ? stored : PAGE_SIZES[0])

/** Starts the signed-in user's first page of logs as soon as this screen's code arrives (see routes.tsx). */
export function prefetch(): void {
  const user = $session.get()
  if (!user) return
  const filters = { admin: $isAdmin.get(), user: user.id }
  logList.prime({ pageSize: pageSizeOf($prefs.get()['log-page-size']), filters, start: toFilters(defaultDraft()) })
}

/**
 * Usage logs (/log): filters, the statistics line, the table and "load more". Administrators
 * (role >= 10) read everyone's logs with username and channel filters, the user-info dialog and
 * log cleaning; users read their own through the /self calls.
 */
export function LogsScreen() {
  const t = useLogLabels()
  const user = useStore($session)
  const admin = useStore($isAdmin)
  // cleaning the log is root's (spec sections 2 and 6)
  const root = useStore($isRoot)
  const { 'log-page-size': pageSize } = useStore($prefs, { keys: ['log-page-size'] })
  const [draft, setDraft] = useState<LogDraft>(defaultDraft)
  const [start] = useState<AppliedFilters>(() => toFilters(draft))
  const [userInfo, setUserInfo] = useState<{ id: number; username: string } | null>(null)
  const [cleaning, setCleaning] = useState(false)
  const { copy, fallback } = useCopy()
  const size = pageSizeOf(pageSize)

  const userId = user?.id ?? 0
  const list = usePagedList(logList, { pageSize: size, filters: { admin, user: userId }, start, enabled: !!user })

  // after the list took the filters (its effects run first): the statistics of the same rows
  useEffect(() => {
    if (userId) void refreshLogStat()
  }, [admin, userId])

  if (!user) {
    return (
      <div className="tg-screen" data-screen="logs">
        <style>{listCss + logsCss}</style>
        <SignInNotice title={t('logs.signInFirst')} />
      </div>
    )
  }

  const search = () => searchLogs(toFilters(draft))

  return (
    <div className="tg-screen" data-screen="logs" data-mode={admin ? 'admin' : 'user'}>
      <style>{listCss + logsCss}</style>
      <LogsHeader admin={admin} root={root} onClean={() => setCleaning(true)} />
      <FoldingFilters
        admin={admin}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        onSubmit={search}
        busy={list.load.state === 'loading' || (list.load.state === 'ready' && !!list.load.refreshing)}
      />
      <LogStat />
      <ListLoadState
        list={list}
        empty={
          <EmptyState icon="journal-text" title={t('logs.empty.title')}>
            {t('logs.empty.body')}
          </EmptyState>
        }
      >
        {(rows) => (
          <>
            <LogTable
              logs={rows}
              admin={admin}
              onUser={(log) => setUserInfo({ id: log.user_id, username: log.username })}
              onCopy={(text) => void copy(text)}
            />
            <LogsFooter list={list} rows={rows} size={size} />
          </>
        )}
      </ListLoadState>
      {admin && <UserInfoDialog target={userInfo} onClose={() => setUserInfo(null)} />}
      {admin && cleaning && (
        <Suspense fallback={null}>
          <CleanLogsDialog open={cleaning} onClose={() => setCleaning(false)} />
        </Suspense>
      )}
      {fallback}
    </div>
  )
}

/** The title, the export and, for root, the button that opens the log cleaning. */
function LogsHeader({ admin, root, onClean }: { admin: boolean; root: boolean; onClean: () => void }) {
  const t = useLogLabels()
  return (
    <PageHeader
      title={t('nav.log')}
      description={admin ? t('logs.descriptionAdmin') : t('logs.description')}
      actions={
        <>
          <ExportLogs />
          {root && (
            <sl-button variant="default" size="small" onClick={onClean} data-action="clean-logs">
              {t('logs.clean.open')}
            </sl-button>
          )}
        </>
      }
    />
  )
}

/** The filter form; on small screens the seven filters would fill the first screen, so they fold behind a toggle. */
function FoldingFilters(props: Omit<ComponentProps<typeof LogFilters>, 'id' | 'hidden'>) {
  const t = useLogLabels()
  const small = useMediaQuery(SMALL_SCREEN)
  const [filtersOpen, setFiltersOpen] = useState(false)
  return (
    <>
      {small && (
        <button
          type="button"
          className="tg-button tg-filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls="tg-log-filters"
          data-action="toggle-filters"
          onClick={() => setFiltersOpen((o) => !o)}
        >
          {t('logs.filtersToggle')}
          <span className="tg-filters-toggle__caret" aria-hidden="true">
            ▾
          </span>
        </button>
      )}
      <LogFilters id="tg-log-filters" hidden={small && !filtersOpen} {...props} />
    </>
  )
}

/** The statistics line of the filtered rows: quota and tokens, a spinner while it loads. */
function LogStat() {
  const t = useLogLabels()
  const stat = useStore($logStat)
  const status = useStore($status)
  return (
    <p className="tg-stat" data-stat="" aria-live="polite">
      {stat === null ? (
        <sl-spinner aria-label={t('common.loading')}></sl-spinner>
      ) : stat === 'error' ? (
        t('logs.statFailed')
      ) : (
        <>
          <span>
            {t('logs.stat.quota')}: <strong data-stat-quota="">{formatQuota(stat.quota, status)}</strong>
          </span>
          <span>
            {t('logs.stat.tokens')}: <strong data-stat-tokens="">{stat.token}</strong>
          </span>
        </>
      )}
    </p>
  )
}

/** Under the table: how many rows are shown, "load more" and the page size (kept in the preferences). */
function LogsFooter({ list, rows, size }: { list: PagedListView<Log, unknown>; rows: Log[]; size: number }) {
  const t = useLogLabels()
  return (
    <div className="tg-list-footer">
      <span className="tg-muted tg-small" data-row-count={rows.length}>
        {t('logs.shown', { n: rows.length })}
      </span>
      {list.hasMore && (
        <sl-button size="small" onClick={() => void list.loadMore()} loading={list.loadingMore} data-action="load-more">
          {t('logs.loadMore')}
        </sl-button>
      )}
      <sl-select
        className="tg-list-footer__end tg-log__page-size"
        name="page-size"
        size="small"
        hoist
        label={t('logs.pageSize')}
        value={String(size)}
        onsl-change={(e: Event) => $prefs.setKey('log-page-size', Number((e.target as HTMLInputElement).value) || PAGE_SIZES[0])}
      >
        {PAGE_SIZES.map((n) => (
          <sl-option key={n} value={String(n)}>
            {n}
          </sl-option>
        ))}
      </sl-select>
    </div>
  )
}
