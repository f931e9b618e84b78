import type { FormEvent } from 'react'
import { useTaskLabels } from './tasks-labels.ts'

export interface TaskDraft {
  mj_id: string
  start: string
  end: string
  channel_id: string
  platfrom: string
}

const value = (e: Event) => (e.target as HTMLInputElement).value

/** Task id and time range; administrators also filter by channel, and the Pika list by its sub-platform. */
export function TaskFilters({
  admin,
  pika,
  draft,
  onChange,
  onSubmit,
  busy,
}: {
  admin: boolean
  pika: boolean
  draft: TaskDraft
  onChange: (patch: Partial<TaskDraft>) => void
  onSubmit: () => void
  busy: boolean
}) {
  const t = useTaskLabels()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <form className="tg-filters" part="filters" onSubmit={submit} noValidate aria-label={t('tasks.filters')}>
      <sl-input
        label={t('tasks.field.taskId')}
        name="mj_id"
        size="small"
        clearable
        value={draft.mj_id}
        onsl-input={(e: Event) => onChange({ mj_id: value(e) })}
      ></sl-input>
      <sl-input
        label={t('tasks.field.start')}
        name="start"
        type="datetime-local"
        size="small"
        value={draft.start}
        onsl-input={(e: Event) => onChange({ start: value(e) })}
      ></sl-input>
      <sl-input
        label={t('tasks.field.end')}
        name="end"
        type="datetime-local"
        size="small"
        value={draft.end}
        onsl-input={(e: Event) => onChange({ end: value(e) })}
      ></sl-input>
      {admin && (
        <sl-input
          label={t('tasks.field.channel')}
          name="channel_id"
          size="small"
          inputmode="numeric"
          clearable
          value={draft.channel_id}
          onsl-input={(e: Event) => onChange({ channel_id: value(e) })}
        ></sl-input>
      )}
      {pika && (
        <sl-input
          label={t('tasks.field.subPlatform')}
          name="platfrom"
          size="small"
          clearable
          value={draft.platfrom}
          onsl-input={(e: Event) => onChange({ platfrom: value(e) })}
        ></sl-input>
      )}
      <div className="tg-filters__actions">
        <sl-button type="submit" variant="primary" size="small" loading={busy}>
          {t('tasks.search')}
        </sl-button>
      </div>
    </form>
  )
}
