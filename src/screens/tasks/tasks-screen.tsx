import { useState } from 'react'
import { useStore } from '@nanostores/react'
import type { MessageKey } from '../../i18n/t.ts'
import { useTaskLabels, type TaskLabel } from './tasks-labels.ts'
import { exportTasks, taskList, type TaskFilters as AppliedFilters, type TaskPlatform } from '../../stores/tasks.ts'
import { ExportButton } from '../logs/export-button.tsx'
import type { TaskRecord } from '../../api/types.ts'
import { $isAdmin, $session } from '../../stores/session.ts'
import { $status } from '../../stores/status.ts'
import { now } from '../../stores/clock.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { ListLoadState } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { usePagedList } from '../../stores/paged-list.ts'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import listCss from '../../ui/list.css?inline'
import { TaskFilters, type TaskDraft } from './task-filters.tsx'
import { TaskTable } from './task-table.tsx'
import { PromptDialog } from './prompt-dialog.tsx'
import tasksCss from './tasks.css?inline'
import { HOUR, MONTH } from '../../../domain/time.ts'
import { SignInNotice } from '../../ui/sign-in-notice.tsx'
import '@shoelace-style/shoelace/dist/components/alert/alert.js'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../../ui/icons/exclamation-triangle.ts'
import '../../ui/icons/hourglass-split.ts'

export type TaskKind = TaskPlatform

/** Every task list, by its route name. */
export const TASK_KINDS: readonly TaskKind[] = ['midjourney', 'suno', 'luma', 'lumav2', 'viggle', 'runway', 'pika', 'kling', 'ideo']

const TITLE: Record<TaskKind, TaskLabel | MessageKey> = {
  midjourney: 'nav.drawing',
  luma: 'nav.luma',
  lumav2: 'nav.lumav2',
  suno: 'nav.music',
  ideo: 'nav.ideo',
  viggle: 'nav.viggle',
  runway: 'nav.runway',
  pika: 'nav.pika',
  kling: 'nav.kling',
}

/** The name each list gives the provider task id (spec section 3). */
const ID_NAME: Record<TaskKind, string> = {
  midjourney: 'mj_id',
  suno: 'suno_id',
  luma: 'luma_id',
  lumav2: 'task_id',
  viggle: 'viggle_id',
  runway: 'runway_id',
  pika: 'pika_id',
  kling: 'kling_id',
  ideo: 'ideo_id',
}

/** Default range of the task lists (spec section 9): 30 days back to 1 h ahead. */
const TASK_RANGE = { back: MONTH, ahead: HOUR }

function defaultDraft(): TaskDraft {
  const t = Math.floor(now().getTime() / 1000)
  return { mj_id: '', start: toLocalInput(t - TASK_RANGE.back), end: toLocalInput(t + TASK_RANGE.ahead), channel_id: '', platfrom: '' }
}

function toFilters(d: TaskDraft): AppliedFilters {
  const channel = Number(d.channel_id.trim())
  return {
    mj_id: d.mj_id.trim(),
    start_timestamp: fromLocalInput(d.start) ?? 0,
    end_timestamp: fromLocalInput(d.end) ?? 0,
    channel_id: d.channel_id.trim() && Number.isInteger(channel) && channel >= 0 ? channel : '',
    platfrom: d.platfrom.trim(),
  }
}

/**
 * Starts the signed-in user's first page of the console's task list (the route names the
 * platform) as soon as this screen's code arrives (see routes.tsx).
 */
export function prefetch(): void {
  const user = $session.get()
  const kind = location.pathname.split('/')[1] as TaskKind
  if (!user || !TASK_KINDS.includes(kind)) return
  taskList(kind).prime({ filters: { admin: $isAdmin.get(), user: user.id }, start: toFilters(defaultDraft()) })
}

/** The list's title and description, with the export. */
function TasksHeader({ kind, admin }: { kind: TaskKind; admin: boolean }) {
  const t = useTaskLabels()
  return (
    <PageHeader
      title={t(TITLE[kind])}
      description={admin ? t('tasks.descriptionAdmin') : t('tasks.description')}
      actions={
        <ExportButton
          download={(onProgress) => exportTasks(kind, onProgress)}
          action="export-tasks"
          words={{
            open: t('tasks.export.open'),
            progress: (size) => t('tasks.export.progress', { size }),
            done: (name, size) => t('tasks.export.done', { name, size }),
          }}
        />
      }
    />
  )
}

/** How many tasks are shown, and "load more" while there are more. */
function TasksFooter({ list, shown }: { list: { hasMore: boolean; loadingMore: boolean; loadMore: () => Promise<void> }; shown: number }) {
  const t = useTaskLabels()
  return (
    <div className="tg-list-footer">
      <span className="tg-muted tg-small" data-row-count={shown}>
        {t('tasks.shown', { n: shown })}
      </span>
      {list.hasMore && (
        <sl-button size="small" onClick={() => void list.loadMore()} loading={list.loadingMore} data-action="load-more">
          {t('tasks.loadMore')}
        </sl-button>
      )}
    </div>
  )
}

/**
 * A task list (/midjourney, /suno, …): filters, the table with status and action labels,
 * duration colours, previews, failure reasons and the prompt dialog, loaded page by page.
 * Administrators (role >= 10) read everyone's tasks with the channel filter and columns.
 */
export function TasksScreen({ kind }: { kind: TaskKind }) {
  const t = useTaskLabels()
  const user = useStore($session)
  const admin = useStore($isAdmin)
  const status = useStore($status)
  const [draft, setDraft] = useState<TaskDraft>(defaultDraft)
  const [start] = useState<AppliedFilters>(() => toFilters(draft))
  const [prompt, setPrompt] = useState<TaskRecord | null>(null)
  const { copy, fallback } = useCopy()

  const list = usePagedList(taskList(kind), { filters: { admin, user: user?.id ?? 0 }, start, enabled: !!user })

  if (!user) {
    return (
      <div className="tg-screen" data-screen="tasks">
        <style>{listCss + tasksCss}</style>
        <SignInNotice title={t('tasks.signInFirst')} />
      </div>
    )
  }

  const search = () => list.setFilter(toFilters(draft))

  return (
    <div className="tg-screen" data-screen="tasks" data-platform={kind} data-mode={admin ? 'admin' : 'user'}>
      <style>{listCss + tasksCss}</style>
      <TasksHeader kind={kind} admin={admin} />
      {admin && kind === 'midjourney' && status && !status.mj_notify_enabled && (
        <sl-alert variant="warning" open data-notice="mj-callback">
          <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
          {t('tasks.mjNotice')}
        </sl-alert>
      )}
      <TaskFilters
        admin={admin}
        pika={kind === 'pika'}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        onSubmit={search}
        busy={list.load.state === 'loading' || (list.load.state === 'ready' && !!list.load.refreshing)}
      />
      <ListLoadState
        list={list}
        empty={
          <EmptyState icon="hourglass-split" title={t('tasks.empty.title')}>
            {t('tasks.empty.body')}
          </EmptyState>
        }
      >
        {(rows) => (
          <>
            <TaskTable
              platform={kind}
              idName={ID_NAME[kind]}
              tasks={rows}
              admin={admin}
              onPrompt={setPrompt}
              onCopy={(text) => void copy(text)}
            />
            <TasksFooter list={list} shown={rows.length} />
          </>
        )}
      </ListLoadState>
      <PromptDialog task={prompt} onClose={() => setPrompt(null)} onCopy={(text) => void copy(text)} />
      {fallback}
    </div>
  )
}
