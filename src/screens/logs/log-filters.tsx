import { useLogLabels } from './logs-labels.ts'
import { FilterForm, FilterInput } from '../../ui/filter-form.tsx'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'

/** The filter form's values as typed (times are datetime-local values). */
export interface LogDraft {
  type: string
  token_name: string
  model_name: string
  start: string
  end: string
  username: string
  channel: string
}

/** Type, token name, model, time range; administrators also filter by username and channel. */
export function LogFilters({
  id,
  hidden,
  admin,
  draft,
  onChange,
  onSubmit,
  busy,
}: {
  id?: string
  hidden?: boolean
  admin: boolean
  draft: LogDraft
  onChange: (patch: Partial<LogDraft>) => void
  onSubmit: () => void
  busy: boolean
}) {
  const t = useLogLabels()
  const field = { draft, onChange }
  return (
    <FilterForm id={id} hidden={hidden} label={t('logs.filters')} searchLabel={t('logs.search')} busy={busy} onSubmit={onSubmit}>
      <sl-select
        name="type"
        size="small"
        hoist
        label={t('logs.field.type')}
        value={draft.type}
        onsl-change={(e: Event) => onChange({ type: (e.target as HTMLInputElement).value || '0' })}
      >
        <sl-option value="0">{t('logs.type.all')}</sl-option>
        <sl-option value="1">{t('logs.type.topup')}</sl-option>
        <sl-option value="2">{t('logs.type.consume')}</sl-option>
        <sl-option value="3">{t('logs.type.manage')}</sl-option>
        <sl-option value="4">{t('logs.type.system')}</sl-option>
      </sl-select>
      <FilterInput {...field} name="token_name" label={t('logs.field.token')} />
      <FilterInput {...field} name="model_name" label={t('logs.field.model')} />
      <FilterInput {...field} name="start" label={t('logs.field.start')} type="datetime-local" />
      <FilterInput {...field} name="end" label={t('logs.field.end')} type="datetime-local" />
      {admin && (
        <>
          <FilterInput {...field} name="username" label={t('logs.field.username')} />
          <FilterInput {...field} name="channel" label={t('logs.field.channel')} inputmode="numeric" />
        </>
      )}
    </FilterForm>
  )
}
