import type { FormEvent } from 'react'
import { useLogLabels } from './logs-labels.ts'

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

const value = (e: Event) => (e.target as HTMLInputElement).value

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
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <form id={id} hidden={hidden} className="tg-filters" part="filters" onSubmit={submit} noValidate aria-label={t('logs.filters')}>
      <label className="tg-field">
        <span className="tg-field__label">{t('logs.field.type')}</span>
        <select className="tg-select" name="type" value={draft.type} onChange={(e) => onChange({ type: e.target.value })}>
          <option value="0">{t('logs.type.all')}</option>
          <option value="1">{t('logs.type.topup')}</option>
          <option value="2">{t('logs.type.consume')}</option>
          <option value="3">{t('logs.type.manage')}</option>
          <option value="4">{t('logs.type.system')}</option>
        </select>
      </label>
      <sl-input
        label={t('logs.field.token')}
        name="token_name"
        size="small"
        clearable
        value={draft.token_name}
        onsl-input={(e: Event) => onChange({ token_name: value(e) })}
      ></sl-input>
      <sl-input
        label={t('logs.field.model')}
        name="model_name"
        size="small"
        clearable
        value={draft.model_name}
        onsl-input={(e: Event) => onChange({ model_name: value(e) })}
      ></sl-input>
      <sl-input
        label={t('logs.field.start')}
        name="start"
        type="datetime-local"
        size="small"
        value={draft.start}
        onsl-input={(e: Event) => onChange({ start: value(e) })}
      ></sl-input>
      <sl-input
        label={t('logs.field.end')}
        name="end"
        type="datetime-local"
        size="small"
        value={draft.end}
        onsl-input={(e: Event) => onChange({ end: value(e) })}
      ></sl-input>
      {admin && (
        <>
          <sl-input
            label={t('logs.field.username')}
            name="username"
            size="small"
            clearable
            value={draft.username}
            onsl-input={(e: Event) => onChange({ username: value(e) })}
          ></sl-input>
          <sl-input
            label={t('logs.field.channel')}
            name="channel"
            size="small"
            inputmode="numeric"
            clearable
            value={draft.channel}
            onsl-input={(e: Event) => onChange({ channel: value(e) })}
          ></sl-input>
        </>
      )}
      <div className="tg-filters__actions">
        <sl-button type="submit" variant="primary" size="small" loading={busy}>
          {t('logs.search')}
        </sl-button>
      </div>
    </form>
  )
}
