import { useLocale, useT } from '../../i18n/t.ts'
import { periodLabel, type UsageSummary } from './usage-rules.ts'
import '../../i18n/en/dashboard.ts'

interface Props {
  summary: UsageSummary
  /** a breakdown's tables: their names (data-table) start with it, and `keyHead` names their key column */
  prefix?: string
  keyHead?: string
  formatQuota: (quota: number) => string
  formatNumber: (n: number) => string
}

/** The requests, tokens and quota column heads both tables share. */
function FigureHeads() {
  const t = useT()
  return (
    <>
      <th scope="col" className="tg-num">
        {t('dashboard.requests')}
      </th>
      <th scope="col" className="tg-num">
        {t('dashboard.tokens')}
      </th>
      <th scope="col" className="tg-num">
        {t('dashboard.quota')}
      </th>
    </>
  )
}

/** The requests, tokens and quota cells of one row (with their raw values for tests and copying). */
function FigureCells({
  row,
  formatNumber,
  formatQuota,
}: { row: { count: number; tokens: number; quota: number } } & Pick<Props, 'formatNumber' | 'formatQuota'>) {
  return (
    <>
      <td className="tg-num" data-count={row.count}>
        {formatNumber(row.count)}
      </td>
      <td className="tg-num" data-tokens={row.tokens}>
        {formatNumber(row.tokens)}
      </td>
      <td className="tg-num" data-quota={row.quota}>
        {formatQuota(row.quota)}
      </td>
    </>
  )
}

/** A row's share of the quota: a bar and the percentage. */
function ShareCell({ share, percent }: { share: number; percent: Intl.NumberFormat }) {
  return (
    <td className="tg-num">
      <span className="tg-dash__share">
        <span className="tg-dash__share-bar" style={{ width: `${Math.round(share * 100)}%` }} aria-hidden="true"></span>
        {percent.format(share)}
      </span>
    </td>
  )
}

/**
 * The figures of the chart as tables: usage by model over the whole range, and by period and
 * model. They are what a screen reader reads, and what anyone can copy.
 */
export function UsageTables({ summary, formatQuota, formatNumber, prefix, keyHead }: Props) {
  const t = useT()
  const head = keyHead ?? t('dashboard.model')
  const name = (table: string) => (prefix ? `${prefix}-${table}` : table)
  const keysTitle = prefix ? t('dashboard.breakdownChart', { by: head }) : t('dashboard.byModel')
  const locale = useLocale() === 'zh' ? 'zh-CN' : 'en'
  const total = summary.totals.quota
  const share = (quota: number) => (total > 0 ? quota / total : 0)
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
  const label = (start: number) => {
    const text = periodLabel(start, summary.granularity, locale)
    return summary.granularity === 'week' ? t('dashboard.weekOf', { date: text }) : text
  }

  return (
    <div className="tg-dash__tables">
      <section className="tg-dash__card" part="table">
        <div className="tg-dash__scroll" tabIndex={0} role="region" aria-label={keysTitle}>
          <table className="tg-dash__table" data-table={name('models')}>
            <caption className="tg-dash__card-title">{keysTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{head}</th>
                <FigureHeads />
                <th scope="col" className="tg-num">
                  {t('dashboard.share')}
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.byModel.map((m) => (
                <tr key={m.model} data-model={m.model}>
                  <th scope="row">{m.model}</th>
                  <FigureCells row={m} formatNumber={formatNumber} formatQuota={formatQuota} />
                  <ShareCell share={share(m.quota)} percent={percent} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="tg-dash__card" part="table">
        <div
          className="tg-dash__scroll tg-dash__scroll--tall"
          tabIndex={0}
          role="region"
          aria-label={prefix ? `${keysTitle}: ${t('dashboard.byPeriod')}` : t('dashboard.byPeriod')}
        >
          <table className="tg-dash__table" data-table={name('periods')}>
            <caption className="tg-dash__card-title">{t('dashboard.byPeriod')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('dashboard.period')}</th>
                <th scope="col">{head}</th>
                <FigureHeads />
              </tr>
            </thead>
            {[...summary.periods].reverse().map((p) => (
              <tbody key={p.start} data-period={p.start}>
                {p.models.map((m, i) => (
                  <tr key={m.model} data-model={m.model}>
                    {i === 0 && (
                      <th scope="rowgroup" rowSpan={p.models.length} className="tg-dash__period">
                        {label(p.start)}
                      </th>
                    )}
                    <td>{m.model}</td>
                    <FigureCells row={m} formatNumber={formatNumber} formatQuota={formatQuota} />
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      </section>
    </div>
  )
}
