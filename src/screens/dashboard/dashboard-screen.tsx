import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale, useT } from '../../i18n/t.ts'
import * as dataApi from '../../api/data.ts'
import type { QuotaDataRow } from '../../api/types.ts'
import { $isAdmin, $session } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { now } from '../../stores/clock.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { Link } from '../../ui/navigation.tsx'
import { formatQuota, formatQuotaTicks } from '../../ui/format.ts'
import { compactNumber } from '../../../domain/quota.ts'
import { UsageChart } from './usage-chart.tsx'
import { UsageTables } from './usage-tables.tsx'
import { BreakdownPanel } from './breakdown-panel.tsx'
import { DashboardFilters, GranularityPicker, type Query } from './dashboard-filters.tsx'
import { defaultRange, parseGranularity, summarize, type Granularity, type UsageSummary } from './usage-rules.ts'
import dashboardCss from './dashboard.css?inline'
import '../../ui/icons/bar-chart-line.ts'
import '../../i18n/en/dashboard.ts'

/**
 * The data dashboard (/detail): the quota, requests and tokens of a period, and a stacked chart
 * and tables of the usage by model per hour, day or week. Administrators see everyone's usage
 * (GET /api/data/, optionally one user's), users their own (GET /api/data/self). The hourly
 * buckets are grouped here, so switching the granularity needs no new request.
 */
export function DashboardScreen() {
  const t = useT()
  const user = useStore($session)
  const isAdmin = useStore($isAdmin)
  const status = useStore($status)
  const siteDefault = parseGranularity(status?.data_export_default_time)
  const [granularity, setGranularity] = useState<Granularity>(siteDefault)
  const [query, setQuery] = useState<Query>(() => ({ ...defaultRange(siteDefault, now()), username: '' }))
  const touched = useRef(false)
  // the status may arrive after the first render: its default granularity (and range) win until the user picks one
  useEffect(() => {
    if (touched.current) return
    setGranularity(siteDefault)
    setQuery((q) => ({ ...defaultRange(siteDefault, now()), username: q.username }))
  }, [siteDefault])

  const enabled = status?.enable_data_export !== false
  if (!user) {
    return (
      <div className="tg-dash" data-dashboard="signed-out">
        <style>{dashboardCss}</style>
        <EmptyState
          icon="bar-chart-line"
          title={t('dashboard.signIn')}
          action={
            <Link to="/login" className="tg-button tg-button--primary">
              {t('dashboard.toLogin')}
            </Link>
          }
        />
      </div>
    )
  }
  if (!enabled) {
    return (
      <div className="tg-dash" data-dashboard="disabled">
        <style>{dashboardCss}</style>
        <EmptyState icon="bar-chart-line" title={t('dashboard.disabled')}>
          {t('dashboard.disabledBody')}
        </EmptyState>
      </div>
    )
  }
  return (
    <Dashboard
      key={user.id}
      admin={isAdmin}
      granularity={granularity}
      onGranularity={(g) => {
        touched.current = true
        setGranularity(g)
      }}
      query={query}
      onQuery={(q) => {
        touched.current = true
        setQuery(q)
      }}
    />
  )
}

function Dashboard({
  admin,
  granularity,
  onGranularity,
  query,
  onQuery,
}: {
  admin: boolean
  granularity: Granularity
  onGranularity: (g: Granularity) => void
  query: Query
  onQuery: (q: Query) => void
}) {
  const t = useT()
  const locale = useLocale()
  const status = useStore($status)
  const { load, answered, retry } = useUsage(admin, query)
  const rows = load.state === 'ready' ? load.data : null
  const summary = useMemo(() => (rows ? summarize(rows, granularity) : null), [rows, granularity])
  const quota = useCallback((q: number) => formatQuota(q, status), [status])
  const quotaTicks = useCallback((ticks: number[]) => formatQuotaTicks(ticks, status), [status])
  const number = useMemo(() => new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en'), [locale])

  return (
    <div
      className="tg-dash"
      data-dashboard=""
      data-answered={answered}
      aria-busy={load.state === 'loading' || (load.state === 'ready' && load.refreshing) ? 'true' : undefined}
    >
      <style>{dashboardCss}</style>
      <PageHeader title={t('nav.detail')} description={t('dashboard.subtitle', { minutes: status?.data_export_interval ?? 5 })} />
      <DashboardFilters admin={admin} query={query} onQuery={onQuery} onRetry={retry} busy={load.state === 'ready' && load.refreshing} />
      <GranularityPicker granularity={granularity} onGranularity={onGranularity} />
      <LoadState
        load={load}
        skeletonRows={5}
        onRetry={retry}
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState icon="bar-chart-line" title={t('dashboard.empty')}>
            {t('dashboard.emptyBody')}
          </EmptyState>
        }
      >
        {() =>
          summary && (
            <>
              <UsageTotals summary={summary} formatQuota={quota} number={number} />
              <UsageChart summary={summary} formatValue={quota} formatTicks={quotaTicks} />
              <UsageTables summary={summary} formatQuota={quota} formatNumber={number.format} />
            </>
          )
        }
      </LoadState>
      <BreakdownPanel
        admin={admin}
        granularity={granularity}
        start={query.start}
        end={query.end}
        username={query.username}
        formatQuota={quota}
        formatTicks={quotaTicks}
        formatNumber={number.format}
      />
    </div>
  )
}

/**
 * The usage rows of a query: everyone's (or one user's) for an administrator, the user's own
 * otherwise. A new query keeps the last figures on screen while it loads; `answered` names the
 * query (and attempt) the figures on screen answer, so hosts and tests can tell a fresh answer
 * from the last one.
 */
function useUsage(admin: boolean, query: Query): { load: Load<QuotaDataRow[]>; answered: string; retry: () => void } {
  const [load, setLoad] = useState<Load<QuotaDataRow[]>>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [answered, setAnswered] = useState('')

  useEffect(() => {
    let live = true
    setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
    const range = { start_timestamp: query.start, end_timestamp: query.end }
    ;(admin ? dataApi.all(range, query.username) : dataApi.self(range))
      .then((rows) => {
        if (!live) return
        setLoad({ state: 'ready', data: rows })
        setAnswered(`${query.start}-${query.end}-${query.username}-${attempt}`)
      })
      .catch((error: Error) => {
        if (!live) return
        setLoad({ state: 'error', error })
        setAnswered(`${query.start}-${query.end}-${query.username}-${attempt}`)
      })
    return () => {
      live = false
    }
  }, [admin, query, attempt])

  return { load, answered, retry: () => setAttempt((n) => n + 1) }
}

/** The period's quota, requests and tokens. */
function UsageTotals({
  summary,
  formatQuota,
  number,
}: {
  summary: UsageSummary
  formatQuota: (q: number) => string
  number: Intl.NumberFormat
}) {
  const t = useT()
  return (
    <section className="tg-dash__totals" part="totals" aria-label={t('dashboard.totals')}>
      <Stat name="quota" label={t('dashboard.totalQuota')} title={number.format(summary.totals.quota)}>
        {formatQuota(summary.totals.quota)}
      </Stat>
      <Stat name="requests" label={t('dashboard.totalRequests')}>
        {number.format(summary.totals.count)}
      </Stat>
      <Stat name="tokens" label={t('dashboard.totalTokens')} title={number.format(summary.totals.tokens)}>
        {compactNumber(summary.totals.tokens)}
      </Stat>
    </section>
  )
}

/** One figure of the totals, with its exact value in the title where it is rounded. */
function Stat({ name, label, title, children }: { name: string; label: string; title?: string; children: string }) {
  return (
    <div className="tg-dash__stat" data-total={name}>
      <span className="tg-dash__stat-label">{label}</span>
      <span className="tg-dash__stat-value" title={title}>
        {children}
      </span>
    </div>
  )
}
