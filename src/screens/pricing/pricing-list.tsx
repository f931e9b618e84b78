import { useMemo } from 'react'
import { useT } from '../../i18n/t.ts'
import type { Pricing } from '../../api/pricing.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { PricingTable } from './pricing-table.tsx'
import { filterPricing, type BillingFilter } from './pricing-rules.ts'
import dataTableCss from '../../ui/data-table.css?inline'
import listCss from './pricing-list.css?inline'
import '../../ui/icons/search.ts'
import '../../ui/icons/tags.ts'
import '../../i18n/en/pricing.ts'

/**
 * The loaded price list of the pricing screen: the models the search and the filters keep, with
 * their count, or the empty state (no model at all, or none that matches). The screen loads this
 * module beside the price list's request, not before its first paint.
 */
export function PricingList({
  data,
  refreshing,
  text,
  billing,
  availableOnly,
  onCopy,
}: {
  data: Pricing
  refreshing: boolean
  text: string
  billing: BillingFilter
  availableOnly: boolean
  onCopy: (name: string) => void
}) {
  const t = useT()
  const shown = useMemo(() => filterPricing(data.models, { text, billing, availableOnly }), [data, text, billing, availableOnly])
  return (
    <>
      <style>{dataTableCss + listCss}</style>
      {data.models.length === 0 ? (
        <EmptyState icon="tags" title={t('pricing.emptyTitle')}>
          {t('pricing.emptyBody')}
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState icon="search" title={t('pricing.noMatch')} />
      ) : (
        <div className="tg-table-wrap" aria-busy={refreshing}>
          <PricingTable models={shown} groupRatio={data.groupRatio} onCopy={onCopy} />
          <p className="tg-list-footer tg-muted">{t('pricing.count', { n: shown.length, total: data.models.length })}</p>
        </div>
      )}
    </>
  )
}
