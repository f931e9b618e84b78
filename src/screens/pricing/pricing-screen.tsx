import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as pricingApi from '../../api/pricing.ts'
import { $session } from '../../stores/session.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { LoadState, Skeleton, type Load } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { SearchBox } from '../../ui/search-box.tsx'
import type { BillingFilter } from './pricing-rules.ts'
import pricingCss from './pricing.css?inline'
import { valueOf } from '../../ui/events.ts'
import '../../i18n/en/pricing.ts'

// The two filters (billing type, availability) load as the screen starts, beside the price list's
// request, not before the first paint: the select with its popup and positioning library is as big
// as the rest of the screen. They keep their place until they are defined (pricing.css).
void import('@shoelace-style/shoelace/dist/components/option/option.js')
void import('@shoelace-style/shoelace/dist/components/select/select.js')
void import('@shoelace-style/shoelace/dist/components/switch/switch.js')

// So does the price list (the table, its filtering, its styles and the empty states): until the
// prices come there is only the skeleton to show, and it stays if the prices come first.
void import('./pricing-list.tsx')
const PricingList = lazy(async () => ({ default: (await import('./pricing-list.tsx')).PricingList }))

/** The prices' load state: loaded again when someone signs in or out (the group, and so the prices, change). */
function usePricing(userId: number | null) {
  const [load, setLoad] = useState<Load<pricingApi.Pricing>>({ state: 'loading' })
  const request = useRef(0)

  const reload = useCallback(async () => {
    const id = ++request.current
    setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
    try {
      const pricing = await pricingApi.load()
      if (id === request.current) setLoad({ state: 'ready', data: pricing })
    } catch (error) {
      if (id === request.current) setLoad({ state: 'error', error: error as Error })
    }
  }, [])

  useEffect(() => {
    void reload()
  }, [reload, userId])
  return { load, reload }
}

/**
 * Model pricing (/pricing), public: signed out it prices for the default group, signed in for the
 * user's own group. Search by name, filter by billing type and by availability.
 */
export function PricingScreen() {
  const t = useT()
  const user = useStore($session)
  const { copy, fallback } = useCopy()
  const { load, reload } = usePricing(user?.id ?? null)
  const [text, setText] = useState('')
  const [billing, setBilling] = useState<BillingFilter>('all')
  const [availableOnly, setAvailableOnly] = useState(false)

  return (
    <div className="tg-screen tg-pricing" data-screen="pricing">
      <style>{pricingCss}</style>
      <PageHeader
        title={t('nav.pricing')}
        description={
          load.state === 'ready' ? (
            <span data-group="">
              {user
                ? t('pricing.groupSignedIn', { group: load.data.group, ratio: load.data.groupRatio })
                : t('pricing.groupSignedOut', { group: load.data.group, ratio: load.data.groupRatio })}
            </span>
          ) : (
            t('pricing.description')
          )
        }
      />
      <div className="tg-toolbar" role="search">
        <SearchBox name="search" label={t('pricing.search')} value={text} onValue={setText} />
        <sl-select
          className="tg-inline-label"
          name="billing"
          size="small"
          label={t('pricing.col.billing')}
          value={billing}
          onsl-change={(e: Event) => setBilling(valueOf(e) as BillingFilter)}
        >
          <sl-option value="all">{t('pricing.allBilling')}</sl-option>
          <sl-option value="usage">{t('pricing.perUsage')}</sl-option>
          <sl-option value="call">{t('pricing.perCall')}</sl-option>
        </sl-select>
        <sl-switch
          name="available_only"
          size="small"
          checked={availableOnly}
          onsl-change={(e: Event) => setAvailableOnly((e.target as HTMLInputElement).checked)}
        >
          {t('pricing.availableOnly')}
        </sl-switch>
      </div>
      <LoadState load={load} onRetry={reload} skeletonRows={6}>
        {(data) => (
          <Suspense fallback={<Skeleton rows={6} />}>
            <PricingList
              data={data}
              refreshing={load.state === 'ready' && !!load.refreshing}
              text={text}
              billing={billing}
              availableOnly={availableOnly}
              onCopy={(name) => void copy(name)}
            />
          </Suspense>
        )}
      </LoadState>
      {fallback}
    </div>
  )
}
