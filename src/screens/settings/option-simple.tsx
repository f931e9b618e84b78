import type { ReactNode } from 'react'
import { useOptionForm, type FieldDef } from './option-form.tsx'
import { OptionSection } from './option-fields.tsx'

/** An option form drawn in the standard layout: its fields, then Save. */
export function SimpleSection({
  id,
  title,
  hint,
  fields,
  actions,
}: {
  id: string
  title: string
  hint?: string
  fields: readonly FieldDef[]
  actions?: ReactNode
}) {
  const form = useOptionForm(fields)
  return <OptionSection id={id} title={title} hint={hint} form={form} actions={actions} />
}
