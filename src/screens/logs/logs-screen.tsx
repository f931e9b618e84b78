import { useCallback, useEffect, useMemo, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useLogLabels } from './logs-labels.ts'
import * as logsApi from '../../api/logs.ts'
import type { Log, LogStat } from '../../api/types.ts'
import { $isAdmin, $session } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { now } from '../../stores/clock.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { Link } from '../../ui/navigation.tsx'
import { usePagedList } from '../../ui/paged-list.ts'
import { useMediaQuery } from '../../ui/media.ts'
import { formatQuota } from '../../ui/format.ts'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import { LogFilters, type LogDraft } from './log-filters.tsx'
import { LogTable } from './log-table.tsx'
import { UserInfoDialog } from './user-info-dialog.tsx'
import { CleanLogsDialog } from './clean-logs-dialog.tsx'
import listCss from '../../ui/list.css?inline'
import logsCss from './logs.css?inline'
import { DAY, HOUR } from '../../../domain/time.ts'

/** Below this width the filter form folds behind a "Filters" toggle. */
export const SMALL_SCREEN = '(max-width: 640px)'

/** Default log range (spec section 9): 24 h ago to 1 h ahead. */
export const LOG_RANGE = { back: DAY, ahead: HOUR }

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

function toFilters(d: LogDraft): logsApi.LogFilters {
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

/**
 * Usage logs (/log): filters, the statistics line, the table and "load more". Administrators
 * (role >= 10) read everyone's logs with username and channel filters, the user-info dialog and
 * log cleaning; users read their own through the /self calls.
 */
export function LogsScreen() {
  const t = useLogLabels()
  const user = useStore($session)
  const admin = useStore($isAdmin)
  const status = useStore($status)
  const { 'log-page-size': pageSize } = useStore($prefs, { keys: ['log-page-size'] })
  const [draft, setDraft] = useState<LogDraft>(defaultDraft)
  const [applied, setApplied] = useState<logsApi.LogFilters>(() => toFilters(draft))
  const [stat, setStat] = useState<LogStat | null | 'error'>(null)
  const [userInfo, setUserInfo] = useState<{ id: number; username: string } | null>(null)
  const [cleaning, setCleaning] = useState(false)
  const [generation, setGeneration] = useState(0)
  // on small screens the seven filters would fill the first screen: they fold behind a toggle
  const small = useMediaQuery(SMALL_SCREEN)
  const [filtersOpen, setFiltersOpen] = useState(false)
  const { copy, fallback } = useCopy()
  const size = PAGE_SIZES.includes(pageSize as (typeof PAGE_SIZES)[number]) ? pageSize : PAGE_SIZES[0]

  const key = useMemo(
    () => JSON.stringify({ applied, admin, size, user: user?.id ?? 0, generation }),
    [applied, admin, size, user?.id, generation],
  )
  const fetchPage = useCallback((p: number) => logsApi.list(admin, applied, p, size), [admin, applied, size])
  const list = usePagedList<Log>(fetchPage, size, key)

  useEffect(() => {
    if (!user) return
    let live = true
    setStat(null)
    logsApi
      .stat(admin, applied)
      .then((s) => live && setStat(s))
      .catch(() => live && setStat('error'))
    return () => {
      live = false
    }
  }, [admin, applied, user, generation])

  if (!user) {
    return (
      <div className="tg-screen" data-screen="logs">
        <style>{listCss + logsCss}</style>
        <EmptyState
          icon="shield-lock"
          title={t('logs.signInFirst')}
          action={
            <Link to="/login" className="tg-button tg-button--primary">
              {t('top.login')}
            </Link>
          }
        />
      </div>
    )
  }

  const search = () => {
    setApplied(toFilters(draft))
    setGeneration((g) => g + 1)
  }

  return (
    <div className="tg-screen" data-screen="logs" data-mode={admin ? 'admin' : 'user'}>
      <style>{listCss + logsCss}</style>
      <PageHeader
        title={t('nav.log')}
        description={admin ? t('logs.descriptionAdmin') : t('logs.description')}
        actions={
          admin && (
            <sl-button variant="default" size="small" onClick={() => setCleaning(true)} data-action="clean-logs">
              {t('logs.clean.open')}
            </sl-button>
          )
        }
      />
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
      <LogFilters
        id="tg-log-filters"
        hidden={small && !filtersOpen}
        admin={admin}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        onSubmit={search}
        busy={list.load.state === 'loading' || (list.load.state === 'ready' && !!list.load.refreshing)}
      />
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
      <LoadState
        load={list.load}
        onRetry={list.reload}
        skeletonRows={5}
        isEmpty={(rows) => rows.length === 0}
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
            <div className="tg-list-footer">
              <span className="tg-muted tg-small" data-row-count={rows.length}>
                {t('logs.shown', { n: rows.length })}
              </span>
              {list.hasMore && (
                <sl-button size="small" onClick={list.more} loading={list.loadingMore} data-action="load-more">
                  {t('logs.loadMore')}
                </sl-button>
              )}
              <label className="tg-list-footer__end tg-muted tg-small">
                {t('logs.pageSize')}
                <select
                  className="tg-select"
                  name="page-size"
                  value={String(size)}
                  onChange={(e) => $prefs.setKey('log-page-size', Number(e.target.value))}
                >
                  {PAGE_SIZES.map((n) => (
                    <option key={n} value={String(n)}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </>
        )}
      </LoadState>
      {admin && <UserInfoDialog target={userInfo} onClose={() => setUserInfo(null)} />}
      {admin && cleaning && (
        <CleanLogsDialog open={cleaning} onClose={() => setCleaning(false)} onCleaned={() => setGeneration((g) => g + 1)} />
      )}
      {fallback}
    </div>
  )
}
