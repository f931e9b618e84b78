import { valueOf } from './events.ts'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import './icons/search.ts'

/**
 * A search box of a toolbar or search form: small and clearable, its label shown as the
 * placeholder (screen readers read it as the label), the magnifier in front unless `icon` is false.
 */
export function SearchBox({
  name,
  label,
  value,
  onValue,
  icon = true,
}: {
  name: string
  label: string
  value: string
  onValue: (value: string) => void
  icon?: boolean
}) {
  return (
    <sl-input
      className="tg-sr-label"
      name={name}
      size="small"
      clearable
      placeholder={label}
      label={label}
      value={value}
      onsl-input={(e: Event) => onValue(valueOf(e))}
      onsl-clear={() => onValue('')}
    >
      {icon && <sl-icon slot="prefix" name="search"></sl-icon>}
    </sl-input>
  )
}
