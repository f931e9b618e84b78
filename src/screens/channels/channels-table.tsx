import { useStore } from '@nanostores/react'
import { useLocale } from '../../i18n/t.ts'
import type { Channel } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { compactNumber } from '../../../domain/quota.ts'
import { SelectAllCell, SelectRowCell, type RowSelection } from '../../ui/admin/row-selection.tsx'
import { formatDateTime } from '../../ui/datetime.ts'
import { PRIORITY_MIN, WEIGHT_MIN } from '../../../domain/channel-rules.ts'
import { splitList } from '../../../domain/text.ts'
import { channelStatusKey, responseTimeColor } from './channel-rules.ts'
import { channelTypeName } from '../../../domain/channel-types.ts'
import { useLabels } from '../../ui/admin/labels.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'
import { statusReasonOf, testErrorOf } from '../../../domain/channel-test.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dropdown/dropdown.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/menu/menu.js'
import '@shoelace-style/shoelace/dist/components/menu-item/menu-item.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '../../ui/icons/three-dots-vertical.ts'

export interface ChannelActions {
  test: (c: Channel, model?: string) => void
  toggle: (c: Channel) => void
  edit: (c: Channel) => void
  copy: (c: Channel) => void
  remove: (c: Channel) => void
  updateBalance: (c: Channel) => void
  /** a priority or weight typed in the row */
  setNumber: (c: Channel, field: 'priority' | 'weight', raw: string, input: HTMLInputElement) => void
}

const STATUS_VARIANT: Record<number, string> = { 1: 'success', 2: 'warning', 3: 'danger' }

/** Balance as the list shows it: dollars, abbreviated above 100000. */
function balanceText(balance: number): string {
  return balance > 100000 ? `$${compactNumber(Math.round(balance))}` : `$${balance.toFixed(2)}`
}

/**
 * The response-time pill: untested, the last time in its colour, or failed while the last test
 * failed. Why it failed is in the pill's title, and written under it where no pointer can hover:
 * on the cards of a narrow screen, and always in the drawer (`why`).
 */
export function ResponseTime({ channel: c, why = 'narrow' }: { channel: Channel; why?: 'narrow' | 'always' }) {
  const L = useLabels()
  const locale = useLocale()
  const error = testErrorOf(c.other_info)
  const color = error === null ? responseTimeColor(c.response_time) : 'failed'
  const tested = c.test_time ? L('channels.testedAt', { time: formatDateTime(c.test_time, locale) }) : undefined
  let text = `${(c.response_time / 1000).toFixed(2)} s`
  if (color === 'untested') text = L('channels.untested')
  if (color === 'failed') text = L('channels.testFailed')
  const pill = (
    <span className="tg-rt" data-color={color} data-cell="response-time" title={[tested, error].filter(Boolean).join(': ') || undefined}>
      {text}
    </span>
  )
  if (!error) return pill
  return (
    <span className="tg-rt-failed">
      {pill}
      <span className="tg-rt-why" data-shown={why}>
        {error}
      </span>
    </span>
  )
}

/** When and why the server disabled a channel automatically (status 3), the reason in the reader's language; else null. */
export function useDisabledReason(c: Channel): { reason: string; when?: string } | null {
  const L = useLabels()
  const locale = useLocale()
  const why = c.status === CHANNEL_STATUS.autoDisabled ? statusReasonOf(c.other_info) : null
  if (!why) return null
  return { reason: why.reason, when: why.time ? L('channels.disabledAt', { time: formatDateTime(why.time, locale) }) : undefined }
}

/** The status pill; an automatically disabled channel tells when and why in its title. */
export function ChannelStatus({ channel: c }: { channel: Channel }) {
  const L = useLabels()
  const why = useDisabledReason(c)
  return (
    <sl-tag
      size="small"
      variant={STATUS_VARIANT[c.status] ?? 'neutral'}
      data-cell="status"
      title={why ? [why.when, why.reason].filter(Boolean).join(': ') : undefined}
    >
      {L(channelStatusKey(c.status))}
    </sl-tag>
  )
}

/**
 * The channel table: rows whose status is not 1 are shaded; priority and weight are edited in
 * place; each row has its test, enable/disable, edit, copy and delete actions. Narrow containers
 * show each row as a card.
 */
export function ChannelsTable({
  rows,
  selection,
  actions,
  pending,
}: {
  rows: Channel[]
  selection: RowSelection
  actions: ChannelActions
  pending: ReadonlySet<string>
}) {
  const L = useLabels()
  return (
    <div className="tg-admin__table-wrap">
      <table className="tg-admin__table" part="table" data-table="channels">
        <thead>
          <tr>
            <SelectAllCell rows={rows} selection={selection} label={L('admin.selectAll')} />
            <th>ID</th>
            <th>{L('channels.col.name')}</th>
            <th>{L('channels.col.type')}</th>
            <th>{L('channels.col.status')}</th>
            <th>{L('channels.col.responseTime')}</th>
            <th>{L('channels.col.balance')}</th>
            <th>{L('channels.col.priority')}</th>
            <th>{L('channels.col.weight')}</th>
            <th>{L('admin.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <ChannelRow key={c.id} channel={c} selection={selection} actions={actions} pending={pending} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

interface RowProps {
  channel: Channel
  actions: ChannelActions
  pending: ReadonlySet<string>
}

/** One channel: shaded unless enabled. */
function ChannelRow({ channel: c, selection, actions, pending }: RowProps & { selection: RowSelection }) {
  const L = useLabels()
  const locale = useLocale()
  const enabled = c.status === CHANNEL_STATUS.enabled
  return (
    <tr data-id={c.id} data-status={c.status} data-shaded={String(!enabled)} className={enabled ? undefined : 'tg-admin__row--shaded'}>
      <SelectRowCell id={c.id} selection={selection} label={L('admin.selectRow', { name: c.name })} />
      <td data-label="ID">{c.id}</td>
      <td data-label={L('channels.col.name')}>
        <div>
          <span className="tg-admin__strong" data-cell="name">
            {c.name}
          </span>
          <span className="tg-admin__tags" aria-label={L('channels.col.groups')}>
            {splitList(c.group ?? '').map((g) => (
              <sl-tag key={g} size="small" variant="neutral">
                {g}
              </sl-tag>
            ))}
          </span>
        </div>
      </td>
      <td data-label={L('channels.col.type')} data-cell="type">
        {channelTypeName(c.type, locale)}
      </td>
      <td data-label={L('channels.col.status')}>
        <ChannelStatus channel={c} />
      </td>
      <td data-label={L('channels.col.responseTime')}>
        <ResponseTime channel={c} />
      </td>
      <BalanceCell channel={c} actions={actions} pending={pending} />
      <NumberCell channel={c} field="priority" min={PRIORITY_MIN} actions={actions} />
      <NumberCell channel={c} field="weight" min={WEIGHT_MIN} actions={actions} />
      <ActionsCell channel={c} actions={actions} pending={pending} />
    </tr>
  )
}

/** The balance (a click asks the upstream again) and the quota used. */
function BalanceCell({ channel: c, actions, pending }: RowProps) {
  const L = useLabels()
  const locale = useLocale()
  const status = useStore($status)
  return (
    <td data-label={L('channels.col.balance')}>
      <div>
        <sl-button
          size="small"
          variant="text"
          data-action="balance"
          data-cell="balance"
          loading={pending.has(`${c.id}:balance`)}
          title={L('channels.balanceUpdate', { time: formatDateTime(c.balance_updated_time, locale) })}
          onClick={() => actions.updateBalance(c)}
        >
          {balanceText(c.balance ?? 0)}
        </sl-button>
        <span className="tg-admin__sub tg-admin__nowrap" title={L('channels.col.usedQuota')}>
          {L('channels.used', { quota: formatQuota(c.used_quota ?? 0, status) })}
        </span>
      </div>
    </td>
  )
}

/**
 * The priority or weight, edited in place. Keyed by the stored value: a change the server refused
 * or corrected shows the stored one again.
 */
function NumberCell({
  channel: c,
  field,
  min,
  actions,
}: {
  channel: Channel
  field: 'priority' | 'weight'
  min: number
  actions: ChannelActions
}) {
  const L = useLabels()
  const label = L(field === 'priority' ? 'channels.col.priority' : 'channels.col.weight')
  return (
    <td data-label={label}>
      <sl-input
        key={`${field === 'priority' ? 'p' : 'w'}${c[field]}`}
        className="tg-admin__number tg-sr-label"
        size="small"
        type="number"
        name={field}
        min={min}
        step="1"
        value={String(c[field] ?? 0)}
        label={label}
        onsl-change={(e: Event) => actions.setNumber(c, field, (e.target as HTMLInputElement).value, e.target as HTMLInputElement)}
      ></sl-input>
    </td>
  )
}

/** Test (with a model of the channel's when it has several), enable/disable, edit, and copy and delete in the menu. */
function ActionsCell({ channel: c, actions, pending }: RowProps) {
  const L = useLabels()
  const enabled = c.status === CHANNEL_STATUS.enabled
  return (
    <td data-label={L('admin.actions')}>
      <div className="tg-admin__actions">
        <TestButton channel={c} actions={actions} pending={pending} />
        <sl-button
          size="small"
          data-action={enabled ? 'disable' : 'enable'}
          variant={enabled ? 'default' : 'success'}
          outline={!enabled}
          onClick={() => actions.toggle(c)}
        >
          {enabled ? L('admin.disable') : L('admin.enable')}
        </sl-button>
        <sl-button size="small" data-action="edit" onClick={() => actions.edit(c)}>
          {L('admin.edit')}
        </sl-button>
        <sl-dropdown hoist>
          <sl-icon-button
            slot="trigger"
            name="three-dots-vertical"
            data-action="more"
            label={L('admin.more', { name: c.name })}
          ></sl-icon-button>
          <sl-menu
            onsl-select={(e: CustomEvent<{ item: { value: string } }>) => {
              if (e.detail.item.value === 'copy') actions.copy(c)
              if (e.detail.item.value === 'delete') actions.remove(c)
            }}
          >
            <sl-menu-item value="copy" data-action="copy">
              {L('channels.copy')}
            </sl-menu-item>
            <sl-menu-item value="delete" data-action="delete" className="tg-admin__danger-item">
              {L('admin.delete')}
            </sl-menu-item>
          </sl-menu>
        </sl-dropdown>
      </div>
    </td>
  )
}

/** The test button, split with a menu of the channel's models when it has more than one. */
function TestButton({ channel: c, actions, pending }: RowProps) {
  const L = useLabels()
  const models = splitList(c.models ?? '')
  return (
    <span className="tg-admin__split">
      <sl-button size="small" data-action="test" loading={pending.has(`${c.id}:test`)} onClick={() => actions.test(c)}>
        {L('channels.test')}
      </sl-button>
      {models.length > 1 && (
        <sl-dropdown hoist>
          <sl-button slot="trigger" size="small" caret data-action="test-model">
            <span className="visually-hidden">{L('channels.testModel', { name: c.name })}</span>
          </sl-button>
          <sl-menu onsl-select={(e: CustomEvent<{ item: { value: string } }>) => actions.test(c, e.detail.item.value)}>
            {models.map((m) => (
              <sl-menu-item key={m} value={m}>
                {m}
              </sl-menu-item>
            ))}
          </sl-menu>
        </sl-dropdown>
      )}
    </span>
  )
}
