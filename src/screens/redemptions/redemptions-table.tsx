import { useStore } from '@nanostores/react'
import { useLocale } from '../../i18n/t.ts'
import type { Redemption } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { SelectAllCell, SelectRowCell, type RowSelection } from '../../ui/admin/row-selection.tsx'
import { formatDateTime } from '../../ui/datetime.ts'
import { useLabels, type LabelKey } from '../../ui/admin/labels.ts'
import { canEdit, canEnable } from './redemption-rules.ts'
import { REDEMPTION_STATUS } from '../../../domain/statuses.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'

export interface RedemptionActions {
  copy: (r: Redemption) => void
  toggle: (r: Redemption) => void
  edit: (r: Redemption) => void
  remove: (r: Redemption) => void
}

const STATUS: Record<number, { key: LabelKey; variant: string }> = {
  1: { key: 'redemptions.status.unused', variant: 'success' },
  2: { key: 'redemptions.status.disabled', variant: 'warning' },
  3: { key: 'redemptions.status.used', variant: 'neutral' },
}

/**
 * The redemption codes: rows whose status is not 1 are greyed; enable is off for a used code and
 * edit is offered only while a code is unused.
 */
export function RedemptionsTable({
  rows,
  selection,
  actions,
  pending,
}: {
  rows: Redemption[]
  selection: RowSelection
  actions: RedemptionActions
  pending: ReadonlySet<string>
}) {
  const L = useLabels()
  return (
    <div className="tg-admin__table-wrap">
      <table className="tg-admin__table" part="table" data-table="redemptions">
        <thead>
          <tr>
            <SelectAllCell rows={rows} selection={selection} label={L('admin.selectAll')} />
            <th>ID</th>
            <th>{L('redemptions.col.name')}</th>
            <th>{L('redemptions.col.key')}</th>
            <th>{L('redemptions.col.status')}</th>
            <th>{L('redemptions.col.quota')}</th>
            <th>{L('redemptions.col.created')}</th>
            <th>{L('redemptions.col.usedBy')}</th>
            <th>{L('admin.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <RedemptionRow key={r.id} code={r} selection={selection} actions={actions} pending={pending} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

interface RowProps {
  code: Redemption
  actions: RedemptionActions
  pending: ReadonlySet<string>
}

/** One code: shaded unless unused. */
function RedemptionRow({ code: r, selection, actions, pending }: RowProps & { selection: RowSelection }) {
  const L = useLabels()
  const locale = useLocale()
  const status = useStore($status)
  const s = STATUS[r.status] ?? { key: 'redemptions.status.unknown' as LabelKey, variant: 'neutral' }
  const unused = r.status === REDEMPTION_STATUS.unused
  return (
    <tr data-id={r.id} data-status={r.status} data-shaded={String(!unused)} className={unused ? undefined : 'tg-admin__row--shaded'}>
      <SelectRowCell id={r.id} selection={selection} label={L('admin.selectRow', { name: r.name })} />
      <td data-label="ID">{r.id}</td>
      <td data-label={L('redemptions.col.name')}>
        <span className="tg-admin__strong" data-cell="name">
          {r.name}
        </span>
      </td>
      <td data-label={L('redemptions.col.key')}>
        <code className="tg-admin__mono tg-admin__code" data-cell="key" title={r.key}>
          {r.key}
        </code>
      </td>
      <td data-label={L('redemptions.col.status')}>
        <sl-tag size="small" variant={s.variant} data-cell="status">
          {L(s.key)}
        </sl-tag>
      </td>
      <td data-label={L('redemptions.col.quota')} data-cell="quota">
        {formatQuota(r.quota ?? 0, status)}
      </td>
      <td data-label={L('redemptions.col.created')} data-cell="created" className="tg-admin__nowrap">
        {formatDateTime(r.created_time, locale)}
      </td>
      <td data-label={L('redemptions.col.usedBy')} data-cell="used-by">
        {r.used_user_id ? r.used_user_id : '-'}
      </td>
      <ActionsCell code={r} actions={actions} pending={pending} />
    </tr>
  )
}

/** Copy; disable while unused, else enable (off for a used code); edit while unused; delete. */
function ActionsCell({ code: r, actions, pending }: RowProps) {
  const L = useLabels()
  const unused = r.status === REDEMPTION_STATUS.unused
  return (
    <td data-label={L('admin.actions')}>
      <div className="tg-admin__actions">
        <sl-button size="small" data-action="copy" onClick={() => actions.copy(r)}>
          {L('redemptions.copy')}
        </sl-button>
        {unused ? (
          <sl-button size="small" data-action="disable" loading={pending.has(`${r.id}:status`)} onClick={() => actions.toggle(r)}>
            {L('admin.disable')}
          </sl-button>
        ) : (
          <sl-button
            size="small"
            data-action="enable"
            disabled={!canEnable(r)}
            loading={pending.has(`${r.id}:status`)}
            onClick={() => actions.toggle(r)}
          >
            {L('admin.enable')}
          </sl-button>
        )}
        <sl-button size="small" data-action="edit" disabled={!canEdit(r)} onClick={() => actions.edit(r)}>
          {L('admin.edit')}
        </sl-button>
        <sl-button
          size="small"
          variant="danger"
          outline
          data-action="delete"
          loading={pending.has(`${r.id}:delete`)}
          onClick={() => actions.remove(r)}
        >
          {L('admin.delete')}
        </sl-button>
      </div>
    </td>
  )
}
