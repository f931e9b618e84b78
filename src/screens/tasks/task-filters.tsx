import { useTaskLabels } from './tasks-labels.ts'
import { FilterForm, FilterInput } from '../../ui/filter-form.tsx'

export interface TaskDraft {
  mj_id: string
  start: string
  end: string
  channel_id: string
  platfrom: string
}

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
  const field = { draft, onChange }
  return (
    <FilterForm label={t('tasks.filters')} searchLabel={t('tasks.search')} busy={busy} onSubmit={onSubmit}>
      <FilterInput {...field} name="mj_id" label={t('tasks.field.taskId')} />
      <FilterInput {...field} name="start" label={t('tasks.field.start')} type="datetime-local" />
      <FilterInput {...field} name="end" label={t('tasks.field.end')} type="datetime-local" />
      {admin && <FilterInput {...field} name="channel_id" label={t('tasks.field.channel')} inputmode="numeric" />}
      {pika && <FilterInput {...field} name="platfrom" label={t('tasks.field.subPlatform')} />}
    </FilterForm>
  )
}
