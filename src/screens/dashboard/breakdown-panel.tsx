import { useEffect, useMemo, useState } from 'react'
import { useT } from '../../i18n/t.ts'
import * as dataApi from '../../api/data.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { UsageChart } from './usage-chart.tsx'
import { UsageTables } from './usage-tables.tsx'
import { breakdownRows, summarize, type Granularity } from './usage-rules.ts'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '../../ui/icons/bar-chart-line.ts'
import '../../i18n/en/dashboard.ts'

const TOPS = [5, 8, 10, 20] as const

interface Props {
  admin: boolean
  granularity: Granularity
  start: number
  end: number
  username: string
  formatQuota: (quota: number) => string
  formatTicks: (ticks: number[]) => string[]
  formatNumber: (n: number) => string
}

type BreakdownAsk = Pick<Props, 'admin' | 'granularity' | 'start' | 'end' | 'username'> & { by: dataApi.BreakdownBy; top: number }

/** The breakdown's request, asked again when any of its terms changes or on retry; `answered` names the last answer's terms. */
function useBreakdown({ admin, by, granularity, top, start, end, username }: BreakdownAsk) {
  const [attempt, setAttempt] = useState(0)
  const [load, setLoad] = useState<Load<dataApi.Breakdown>>({ state: 'loading' })
  const [answered, setAnswered] = useState('')

  useEffect(() => {
    let live = true
    const ask = `${by}-${granularity}-${top}-${start}-${end}-${username}`
    setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
    const tz_offset = -new Date(start * 1000).getTimezoneOffset() * 60
    dataApi
      .breakdown(
        { by, granularity, top, start_timestamp: start, end_timestamp: end, tz_offset, username: admin ? username : undefined },
        admin,
      )
      .then((data) => {
        if (!live) return
        setLoad({ state: 'ready', data: data ?? { by, period: granularity, top: [], others: null, rows: [] } })
        setAnswered(ask)
      })
      .catch((error: Error) => {
        if (!live) return
        setLoad({ state: 'error', error })
        setAnswered(ask)
      })
    return () => {
      live = false
    }
  }, [admin, by, granularity, top, start, end, username, attempt])
  return { load, answered, retry: () => setAttempt((n) => n + 1) }
}

/**
 * The usage of the dashboard's range broken down by model, user, token or channel (administrators;
 * users their own models and tokens): the top N and the rest as "others", per hour, day or week,
 * as a stacked chart and as tables. The server groups the hourly buckets (GET /api/data/breakdown).
 */
export function BreakdownPanel({ admin, granularity, start, end, username, formatQuota, formatTicks, formatNumber }: Props) {
  const t = useT()
  const dims: dataApi.BreakdownBy[] = admin ? ['model', 'user', 'token', 'channel'] : ['model', 'token']
  const [by, setBy] = useState<dataApi.BreakdownBy>('model')
  const [top, setTop] = useState<number>(8)
  const { load, answered, retry } = useBreakdown({ admin, by, granularity, top, start, end, username })

  const others = t('dashboard.others')
  const summary = useMemo(
    () => (load.state === 'ready' ? summarize(breakdownRows(load.data, others), granularity, others) : null),
    [load, granularity, others],
  )
  const head = t(`dashboard.by.${by}`)

  return (
    <section
      className="tg-dash__breakdown"
      part="breakdown"
      data-breakdown={by}
      data-answered={answered}
      aria-label={t('dashboard.breakdown')}
    >
      <h2 className="tg-dash__section-title">{t('dashboard.breakdown')}</h2>
      <div className="tg-dash__breakdown-controls">
        <sl-radio-group
          name="breakdown-by"
          data-breakdown-by=""
          label={t('dashboard.breakdownBy')}
          value={by}
          size="small"
          onsl-change={(e: Event) => setBy((e.target as HTMLInputElement).value as dataApi.BreakdownBy)}
        >
          {dims.map((d) => (
            <sl-radio-button key={d} value={d} data-by={d}>
              {t(`dashboard.by.${d}`)}
            </sl-radio-button>
          ))}
        </sl-radio-group>
        <sl-select
          name="breakdown-top"
          data-breakdown-top=""
          label={t('dashboard.top')}
          value={String(top)}
          size="small"
          onsl-change={(e: Event) => setTop(Number((e.target as HTMLSelectElement).value) || 8)}
        >
          {TOPS.map((n) => (
            <sl-option key={n} value={String(n)}>
              {t('dashboard.topN', { n })}
            </sl-option>
          ))}
        </sl-select>
      </div>
      <LoadState
        load={load}
        skeletonRows={3}
        onRetry={retry}
        isEmpty={(data) => data.rows.length === 0}
        empty={<EmptyState icon="bar-chart-line" title={t('dashboard.breakdownEmpty')} />}
      >
        {() =>
          summary && (
            <>
              <UsageChart
                summary={summary}
                formatValue={formatQuota}
                formatTicks={formatTicks}
                title={t('dashboard.breakdownChart', { by: head })}
              />
              <UsageTables summary={summary} formatQuota={formatQuota} formatNumber={formatNumber} prefix="breakdown" keyHead={head} />
            </>
          )
        }
      </LoadState>
    </section>
  )
}
