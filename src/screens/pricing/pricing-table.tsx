import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import type { PricingEntry } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { quotaPerUnit } from '../../ui/format.ts'
import { formatUsd, isPerCall, quotaOf } from './pricing-rules.ts'
import { callPrice, completionPricePerMillion, promptPricePerMillion } from '../../../domain/pricing.ts'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '../../ui/icons/check-circle-fill.ts'
import '../../ui/icons/clipboard.ts'
import '../../ui/icons/x-circle.ts'
import '../../i18n/en/pricing.ts'

/** One model's row: whether the group can use it, its name (copied on a click), its billing type, its prices. */
function PricingRow({
  m,
  groupRatio,
  showQuota,
  perUnit,
  onCopy,
}: {
  m: PricingEntry
  groupRatio: number
  showQuota: boolean
  perUnit: number
  onCopy: (name: string) => void
}) {
  const t = useT()
  const perCall = isPerCall(m)
  const price = (dollars: number, unit: string, kind: string) => (
    <span className="tg-price" data-price={kind}>
      <strong>{formatUsd(dollars)}</strong> <span className="tg-price__unit">{unit}</span>
      {showQuota && (
        <span className="tg-price__quota" data-price-quota={kind}>
          {t('pricing.quotaEquals', { quota: quotaOf(dollars, perUnit) })}
        </span>
      )}
    </span>
  )

  return (
    <tr className={m.available ? 'tg-row' : 'tg-row tg-row--unavailable'} data-model={m.model_name} data-available={String(m.available)}>
      <td data-label={t('pricing.col.available')}>
        <span className={m.available ? 'tg-flag tg-flag--yes' : 'tg-flag tg-flag--no'} data-flag="">
          <sl-icon name={m.available ? 'check-circle-fill' : 'x-circle'} aria-hidden="true"></sl-icon>
          {m.available ? t('pricing.available') : t('pricing.unavailable')}
        </span>
      </td>
      <th scope="row" className="tg-pricing-table__model">
        <code>{m.model_name}</code>
        <sl-icon-button
          name="clipboard"
          label={t('pricing.copyName', { name: m.model_name })}
          data-action="copy-model"
          onClick={() => onCopy(m.model_name)}
        ></sl-icon-button>
      </th>
      <td data-label={t('pricing.col.billing')}>
        <sl-tag size="small" variant={perCall ? 'warning' : 'primary'} data-billing={perCall ? 'call' : 'usage'}>
          {perCall ? t('pricing.perCall') : t('pricing.perUsage')}
        </sl-tag>
      </td>
      <td data-label={t('pricing.col.price')}>
        <div className="tg-pricing-table__prices">
          {perCall ? (
            price(callPrice(m.model_price, groupRatio), t('pricing.unitCall'), 'call')
          ) : (
            <>
              <span className="tg-price__row">
                <span className="tg-price__label">{t('pricing.input')}</span>
                {price(promptPricePerMillion(m.model_ratio, groupRatio), t('pricing.unit1M'), 'input')}
              </span>
              <span className="tg-price__row">
                <span className="tg-price__label">{t('pricing.completion')}</span>
                {price(completionPricePerMillion(m.model_ratio, m.completion_ratio, groupRatio), t('pricing.unit1M'), 'completion')}
              </span>
              <span className="tg-price__ratios">{t('pricing.ratios', { model: m.model_ratio, completion: m.completion_ratio })}</span>
            </>
          )}
        </div>
      </td>
    </tr>
  )
}

/**
 * The price list: whether the group can use each model, its billing type and its prices for the
 * group (per 1M prompt and completion tokens, or per call), in dollars; sites that show quota
 * rather than currency see the quota beside it.
 */
export function PricingTable({
  models,
  groupRatio,
  onCopy,
}: {
  models: PricingEntry[]
  groupRatio: number
  onCopy: (name: string) => void
}) {
  const t = useT()
  const status = useStore($status)
  const showQuota = status ? !status.display_in_currency : false
  const perUnit = quotaPerUnit(status)

  return (
    <table className="tg-table tg-pricing-table" part="table">
      <thead>
        <tr>
          <th scope="col">{t('pricing.col.available')}</th>
          <th scope="col">{t('pricing.col.model')}</th>
          <th scope="col">{t('pricing.col.billing')}</th>
          <th scope="col">{t('pricing.col.price')}</th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <PricingRow key={m.model_name} m={m} groupRatio={groupRatio} showQuota={showQuota} perUnit={perUnit} onCopy={onCopy} />
        ))}
      </tbody>
    </table>
  )
}
