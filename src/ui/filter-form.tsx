import type { FormEvent, ReactNode } from 'react'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'

/** The filter form above a list: its fields in a row, and the search button that applies them. */
export function FilterForm({
  id,
  hidden,
  label,
  searchLabel,
  busy,
  onSubmit,
  children,
}: {
  id?: string
  hidden?: boolean
  /** the form's accessible name */
  label: string
  searchLabel: string
  busy: boolean
  onSubmit: () => void
  children: ReactNode
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <form id={id} hidden={hidden} className="tg-filters" part="filters" onSubmit={submit} noValidate aria-label={label}>
      {children}
      <div className="tg-filters__actions">
        <sl-button type="submit" variant="primary" size="small" loading={busy}>
          {searchLabel}
        </sl-button>
      </div>
    </form>
  )
}

/**
 * One text field of a filter form, bound to a key of the draft: clearable, except the time
 * fields (datetime-local), which are never empty.
 */
export function FilterInput<D>({
  draft,
  name,
  label,
  onChange,
  type,
  inputmode,
}: {
  draft: D
  name: keyof D & string
  label: string
  onChange: (patch: Partial<D>) => void
  type?: 'datetime-local'
  inputmode?: 'numeric'
}) {
  return (
    <sl-input
      label={label}
      name={name}
      type={type}
      size="small"
      inputmode={inputmode}
      clearable={type ? undefined : true}
      value={String(draft[name])}
      onsl-input={(e: Event) => onChange({ [name]: (e.target as HTMLInputElement).value } as Partial<D>)}
    ></sl-input>
  )
}
