import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
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
import { defaultRange, parseGranularity, summarize, type Granularity } from './usage-rules.ts'
import { GRANULARITIES } from '../../../domain/time.ts'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import dashboardCss from './dashboard.css?inline'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '../../ui/icons/bar-chart-line.ts'
import '../../i18n/en/dashboard.ts'

interface Query {
  start: number
  end: number
  username: string
}

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
  const [startText, setStartText] = useState(() => toLocalInput(query.start))
  const [endText, setEndText] = useState(() => toLocalInput(query.end))
  const [username, setUsername] = useState(query.username)
  const [message, setMessage] = useState<string | null>(null)
  const [load, setLoad] = useState<Load<QuotaDataRow[]>>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  // which query the figures on screen answer (hosts and tests can tell a fresh answer from the last one)
  const [answered, setAnswered] = useState('')

  useEffect(() => {
    setStartText(toLocalInput(query.start))
    setEndText(toLocalInput(query.end))
  }, [query.start, query.end])

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

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const start = fromLocalInput(startText)
    const end = fromLocalInput(endText)
    if (start === null || end === null || end < start) {
      setMessage(t('dashboard.rangeInvalid'))
      return
    }
    setMessage(null)
    const next = { start, end, username: admin ? username.trim() : '' }
    if (next.start === query.start && next.end === query.end && next.username === query.username) setAttempt((n) => n + 1)
    else onQuery(next)
  }

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
      <form className="tg-dash__filters" part="filters" onSubmit={submit} noValidate aria-label={t('dashboard.filters')}>
        <sl-input
          name="start"
          type="datetime-local"
          label={t('dashboard.start')}
          value={startText}
          onsl-input={(e: Event) => setStartText((e.target as HTMLInputElement).value)}
        ></sl-input>
        <sl-input
          name="end"
          type="datetime-local"
          label={t('dashboard.end')}
          value={endText}
          onsl-input={(e: Event) => setEndText((e.target as HTMLInputElement).value)}
        ></sl-input>
        {admin && (
          <sl-input
            name="username"
            label={t('dashboard.username')}
            placeholder={t('dashboard.usernamePlaceholder')}
            value={username}
            autocomplete="off"
            clearable
            onsl-input={(e: Event) => setUsername((e.target as HTMLInputElement).value)}
          ></sl-input>
        )}
        <sl-button type="submit" variant="primary" loading={load.state === 'ready' && load.refreshing} data-query="">
          {t('dashboard.query')}
        </sl-button>
        {message && (
          <p className="tg-dash__message" role="alert">
            {message}
          </p>
        )}
      </form>
      <sl-radio-group
        className="tg-dash__granularity"
        name="granularity"
        data-granularity-group=""
        label={t('dashboard.granularity')}
        value={granularity}
        size="small"
        onsl-change={(e: Event) => onGranularity(parseGranularity((e.target as HTMLInputElement).value))}
      >
        {GRANULARITIES.map((g) => (
          <sl-radio-button key={g} value={g} data-granularity={g}>
            {t(`dashboard.${g}`)}
          </sl-radio-button>
        ))}
      </sl-radio-group>
      <LoadState
        load={load}
        skeletonRows={5}
        onRetry={() => setAttempt((n) => n + 1)}
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
              <section className="tg-dash__totals" part="totals" aria-label={t('dashboard.totals')}>
                <div className="tg-dash__stat" data-total="quota">
                  <span className="tg-dash__stat-label">{t('dashboard.totalQuota')}</span>
                  <span className="tg-dash__stat-value" title={number.format(summary.totals.quota)}>
                    {quota(summary.totals.quota)}
                  </span>
                </div>
                <div className="tg-dash__stat" data-total="requests">
                  <span className="tg-dash__stat-label">{t('dashboard.totalRequests')}</span>
                  <span className="tg-dash__stat-value">{number.format(summary.totals.count)}</span>
                </div>
                <div className="tg-dash__stat" data-total="tokens">
                  <span className="tg-dash__stat-label">{t('dashboard.totalTokens')}</span>
                  <span className="tg-dash__stat-value" title={number.format(summary.totals.tokens)}>
                    {compactNumber(summary.totals.tokens)}
                  </span>
                </div>
              </section>
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
