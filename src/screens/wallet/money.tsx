import { useT } from '../../i18n/t.ts'
import '../../i18n/en/wallet.ts'

/** Money payable, in Chinese yuan (the site's Price per dollar); an ellipsis until it is known. */
export function Money({ value }: { value: number | null }) {
  const t = useT()
  return (
    <>
      <span data-currency="" title={t('wallet.cny')}>
        {t('wallet.yuanSign')}
      </span>
      <span data-amount="">{value === null ? '…' : value.toFixed(2)}</span>
    </>
  )
}
