import { useTaskLabels, type TaskLabel } from './tasks-labels.ts'
import type { Labels } from '../../ui/labels.ts'
import type { TaskPlatform } from '../../api/tasks.ts'
import type { TaskRecord } from '../../api/types.ts'
import { formatTimestamp } from '../../ui/datetime.ts'
import {
  actionLabel,
  hasVideoDuration,
  statusLabel,
  submitCodeLabel,
  taskDuration,
  TONE_VARIANT,
  videoDurationTone,
  type Label,
} from './task-rules.ts'
import { MediaPreview, taskMedia } from './task-media.tsx'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'

/** Prompts longer than this are cut in the table; the whole text opens in a dialog. */
const PROMPT_PREVIEW = 60

const labelText = (t: Labels<TaskLabel>, l: Label) => (l.key ? t(l.key) : l.raw)

function Duration({ platform, seconds, t }: { platform: TaskPlatform; seconds: number; t: Labels<TaskLabel> }) {
  if (!seconds || seconds < 0) return <span className="tg-muted">—</span>
  const d = taskDuration(platform, seconds)
  const text = d.minutes ? t('tasks.minutes', { n: (seconds / 60).toFixed(1) }) : t('tasks.seconds', { n: seconds })
  return (
    <sl-tag size="small" variant={TONE_VARIANT[d.tone]} data-tone={d.tone}>
      {text}
    </sl-tag>
  )
}

/** The provider task id of a row, whatever the list calls it. */
export function taskId(task: TaskRecord, idName: string): string {
  const v = task[idName]
  return typeof v === 'string' || typeof v === 'number' ? String(v) : ''
}

/** The task list table: the columns every list shares, the platform's extras and the administrator's. */
export function TaskTable({
  platform,
  idName,
  tasks,
  admin,
  onPrompt,
  onCopy,
}: {
  platform: TaskPlatform
  idName: string
  tasks: TaskRecord[]
  admin: boolean
  onPrompt: (task: TaskRecord) => void
  onCopy: (text: string) => void
}) {
  const t = useTaskLabels()
  return (
    <div className="tg-table-wrap" tabIndex={0} role="region" aria-label={t('tasks.tableLabel')} part="table">
      <table className="tg-table" data-table="tasks">
        <TaskHead platform={platform} admin={admin} />
        <tbody>
          {tasks.map((task) => (
            <TaskRow key={task.id} task={task} platform={platform} idName={idName} admin={admin} onPrompt={onPrompt} onCopy={onCopy} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The column heads: the channel, submit result (Midjourney) and status are the administrator's; video duration is the video platforms'. */
function TaskHead({ platform, admin }: { platform: TaskPlatform; admin: boolean }) {
  const t = useTaskLabels()
  const mj = platform === 'midjourney'
  const video = hasVideoDuration(platform)
  return (
    <thead>
      <tr>
        <th scope="col">{t('tasks.col.submitTime')}</th>
        <th scope="col">{t('tasks.col.duration')}</th>
        {admin && <th scope="col">{t('tasks.col.channel')}</th>}
        <th scope="col">{t('tasks.col.action')}</th>
        <th scope="col">{t('tasks.col.taskId')}</th>
        {admin && mj && <th scope="col">{t('tasks.col.submitResult')}</th>}
        {admin && <th scope="col">{t('tasks.col.status')}</th>}
        <th scope="col">{t('tasks.col.progress')}</th>
        {video && <th scope="col">{t('tasks.col.videoDuration')}</th>}
        <th scope="col">{t('tasks.col.result')}</th>
        <th scope="col">{t('tasks.col.prompt')}</th>
        <th scope="col">{t('tasks.col.failReason')}</th>
      </tr>
    </thead>
  )
}

interface RowProps {
  task: TaskRecord
  platform: TaskPlatform
  idName: string
  admin: boolean
  onPrompt: (task: TaskRecord) => void
  onCopy: (text: string) => void
}

/** One task, its cells in the order of the heads. */
function TaskRow({ task, platform, idName, admin, onPrompt, onCopy }: RowProps) {
  const t = useTaskLabels()
  const mj = platform === 'midjourney'
  const status = statusLabel(platform, task.status)
  const code = submitCodeLabel(Number(task.code))
  const id = taskId(task, idName)
  return (
    <tr data-task-row={task.id}>
      <td className="tg-nowrap" data-col="submit-time">
        {formatTimestamp(Math.floor(task.submit_time / 1000))}
      </td>
      <td className="tg-nowrap" data-col="duration">
        <Duration platform={platform} seconds={task.duration} t={t} />
        {task.qtime > 0 && <div className="tg-muted tg-task__qtime">{t('tasks.queuedFor', { n: task.qtime })}</div>}
      </td>
      {admin && (
        <td data-col="channel">
          {task.channel_id ? (
            <sl-tag size="small" variant="neutral">
              #{task.channel_id}
            </sl-tag>
          ) : (
            '—'
          )}
        </td>
      )}
      <ActionCell task={task} platform={platform} />
      <td data-col="task-id">
        {id ? (
          <button type="button" className="tg-chip" title={t('tasks.copyId')} onClick={() => onCopy(id)}>
            {id}
          </button>
        ) : (
          '—'
        )}
      </td>
      {admin && mj && (
        <td data-col="submit-result">
          <sl-tag size="small" variant={code.variant} data-code={task.code}>
            {labelText(t, code)}
          </sl-tag>
        </td>
      )}
      {admin && (
        <td data-col="status">
          <sl-tag size="small" variant={status.variant} data-status={task.status ?? ''}>
            {labelText(t, status)}
          </sl-tag>
        </td>
      )}
      <td data-col="progress" className="tg-nowrap">
        {task.progress || '—'}
      </td>
      {hasVideoDuration(platform) && <VideoDurationCell task={task} />}
      <td data-col="result">
        {task.title && <div className="tg-task__title">{task.title}</div>}
        <MediaPreview media={taskMedia(platform, task)} />
      </td>
      <PromptCell task={task} onPrompt={onPrompt} />
      <td data-col="fail-reason">
        {task.fail_reason ? <span className="tg-task__fail">{task.fail_reason}</span> : <span className="tg-muted">—</span>}
      </td>
    </tr>
  )
}

/** What the task does, with the sub-platform under it. */
function ActionCell({ task, platform }: { task: TaskRecord; platform: TaskPlatform }) {
  const t = useTaskLabels()
  const action = actionLabel(platform, task.action)
  return (
    <td data-col="action">
      <sl-tag size="small" variant="primary" data-action-kind={task.action}>
        {action.key ? t(action.key) : action.raw}
        {action.detail && ` · ${action.detail}`}
      </sl-tag>
      {task.sub_platform && <div className="tg-muted tg-task__sub">{task.sub_platform}</div>}
    </td>
  )
}

/** The length of the video made, in the colour of its length. */
function VideoDurationCell({ task }: { task: TaskRecord }) {
  const t = useTaskLabels()
  const vd = Number(task.video_duration ?? task.videoDuration ?? 0)
  return (
    <td data-col="video-duration" className="tg-nowrap">
      {vd > 0 ? (
        <sl-tag size="small" variant={TONE_VARIANT[videoDurationTone(vd)]} data-tone={videoDurationTone(vd)}>
          {t('tasks.seconds', { n: vd })}
        </sl-tag>
      ) : (
        '—'
      )}
    </td>
  )
}

/** The prompt, cut at PROMPT_PREVIEW; a longer one, a text or a second prompt opens in the dialog. */
function PromptCell({ task, onPrompt }: { task: TaskRecord; onPrompt: (task: TaskRecord) => void }) {
  const t = useTaskLabels()
  const prompt = task.prompt || task.prompt_en || ''
  const long = prompt.length > PROMPT_PREVIEW || !!task.text || (!!task.prompt_en && !!task.prompt)
  return (
    <td data-col="prompt">
      {prompt || task.text ? (
        <div className="tg-task__prompt">
          {prompt && (
            <span className="tg-task__prompt-text" title={prompt}>
              {prompt.length > PROMPT_PREVIEW ? `${prompt.slice(0, PROMPT_PREVIEW)}…` : prompt}
            </span>
          )}
          {long && (
            <button type="button" className="tg-linklike tg-small" onClick={() => onPrompt(task)} data-action="view-prompt">
              {t('tasks.viewPrompt')}
            </button>
          )}
        </div>
      ) : (
        <span className="tg-muted">—</span>
      )}
    </td>
  )
}
