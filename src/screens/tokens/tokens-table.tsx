import type { ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale, useT } from '../../i18n/t.ts'
import type { Token } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { maskedKey, statusInfo } from './token-rules.ts'
import { TOKEN_STATUS } from '../../../domain/statuses.ts'
import { NEVER_EXPIRES, toggleTarget } from '../../../domain/token-rules.ts'
import { formatDateTime } from '../../ui/datetime.ts'
import { checkedOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js'
import '@shoelace-style/shoelace/dist/components/dropdown/dropdown.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/menu/menu.js'
import '@shoelace-style/shoelace/dist/components/menu-item/menu-item.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '../../ui/icons/clipboard.ts'
import '../../ui/icons/three-dots-vertical.ts'
import '../../i18n/en/tokens.ts'

export interface RowActions {
  copy: (token: Token) => void
  toggle: (token: Token) => void
  edit: (token: Token) => void
  quickEdit: (token: Token) => void
  remove: (token: Token) => void
}

/**
 * The token list: selection, status labels, quota, times and the row actions. Rows whose status is
 * not enabled are greyed. On a narrow screen every row becomes a card.
 */
export function TokensTable({
  tokens,
  selected,
  onSelect,
  actions,
  quickEditId,
  renderQuickEdit,
}: {
  tokens: Token[]
  selected: ReadonlySet<number>
  onSelect: (ids: number[], on: boolean) => void
  actions: RowActions
  quickEditId: number | null
  renderQuickEdit: (token: Token) => ReactNode
}) {
  return (
    <table className="tg-table tg-tokens-table" part="table">
      <TokensHead tokens={tokens} selected={selected} onSelect={onSelect} />
      <tbody>
        {tokens.map((token) => (
          <TokenRow
            key={token.id}
            token={token}
            selected={selected.has(token.id)}
            onSelect={onSelect}
            actions={actions}
            quickEditing={quickEditId === token.id}
            renderQuickEdit={renderQuickEdit}
          />
        ))}
      </tbody>
    </table>
  )
}

/** The column heads, with the checkbox that ticks or unticks every listed token. */
function TokensHead({
  tokens,
  selected,
  onSelect,
}: {
  tokens: Token[]
  selected: ReadonlySet<number>
  onSelect: (ids: number[], on: boolean) => void
}) {
  const t = useT()
  const allSelected = tokens.length > 0 && tokens.every((tk) => selected.has(tk.id))
  const someSelected = !allSelected && tokens.some((tk) => selected.has(tk.id))
  return (
    <thead>
      <tr>
        <th scope="col" className="tg-table__select">
          <sl-checkbox
            checked={allSelected}
            indeterminate={someSelected}
            data-action="select-all"
            onsl-change={(e: Event) =>
              onSelect(
                tokens.map((tk) => tk.id),
                checkedOf(e),
              )
            }
          >
            <span className="visually-hidden">{t('token.selectAll')}</span>
          </sl-checkbox>
        </th>
        <th scope="col">{t('token.col.name')}</th>
        <th scope="col">{t('token.col.status')}</th>
        <th scope="col">{t('token.col.used')}</th>
        <th scope="col">{t('token.col.remaining')}</th>
        <th scope="col">{t('token.col.created')}</th>
        <th scope="col">{t('token.col.expires')}</th>
        <th scope="col">
          <span className="visually-hidden">{t('token.col.actions')}</span>
        </th>
      </tr>
    </thead>
  )
}

/** One token's row and, while it is quick-edited, the row of its inline form under it. */
function TokenRow({
  token,
  selected,
  onSelect,
  actions,
  quickEditing,
  renderQuickEdit,
}: {
  token: Token
  selected: boolean
  onSelect: (ids: number[], on: boolean) => void
  actions: RowActions
  quickEditing: boolean
  renderQuickEdit: (token: Token) => ReactNode
}) {
  const t = useT()
  const locale = useLocale()
  const status = useStore($status)
  const info = statusInfo(token.status)
  const inactive = token.status !== TOKEN_STATUS.enabled
  return (
    <>
      <tr className={inactive ? 'tg-row tg-row--inactive' : 'tg-row'} data-token-id={token.id} data-status={token.status}>
        <td className="tg-table__select">
          <sl-checkbox checked={selected} data-action="select" onsl-change={(e: Event) => onSelect([token.id], checkedOf(e))}>
            <span className="visually-hidden">{t('token.selectOne', { name: token.name })}</span>
          </sl-checkbox>
        </td>
        <th scope="row" className="tg-tokens-table__name" data-label={t('token.col.name')}>
          <span className="tg-tokens-table__title">{token.name}</span>
          <code className="tg-tokens-table__key tg-secret" data-key="">
            {maskedKey(token)}
          </code>
        </th>
        <td data-label={t('token.col.status')}>
          <span className="tg-tags">
            <sl-tag size="small" variant={info.variant} data-status-label="">
              {t(info.label)}
            </sl-tag>
            {token.model_limits_enabled && (
              <sl-tag size="small" variant="primary" data-model-limits="" title={token.model_limits}>
                {t('token.modelLimitsLabel')}
              </sl-tag>
            )}
          </span>
        </td>
        <td data-label={t('token.col.used')} data-quota="used">
          {formatQuota(token.used_quota, status)}
        </td>
        <td data-label={t('token.col.remaining')} data-quota="remain">
          {token.unlimited_quota ? t('token.unlimited') : formatQuota(token.remain_quota, status)}
        </td>
        <td data-label={t('token.col.created')} className="tg-nowrap">
          {formatDateTime(token.created_time, locale)}
        </td>
        <td data-label={t('token.col.expires')} data-expires="" className="tg-nowrap">
          {token.expired_time === NEVER_EXPIRES ? t('token.never') : formatDateTime(token.expired_time, locale)}
        </td>
        <TokenActionsCell token={token} actions={actions} quickEditing={quickEditing} />
      </tr>
      {quickEditing && (
        <tr className="tg-row tg-row--edit">
          <td colSpan={8}>{renderQuickEdit(token)}</td>
        </tr>
      )}
    </>
  )
}

/** Copy, enable or disable, edit, and the menu with the quick edit and delete. */
function TokenActionsCell({ token, actions, quickEditing }: { token: Token; actions: RowActions; quickEditing: boolean }) {
  const t = useT()
  const toggle = toggleTarget(token.status)
  return (
    <td className="tg-table__actions">
      <span className="tg-row-actions">
        <sl-button size="small" variant="text" data-action="copy" onClick={() => actions.copy(token)}>
          <sl-icon slot="prefix" name="clipboard"></sl-icon>
          {t('common.copy')}
        </sl-button>
        <sl-button size="small" variant="text" data-action={toggle.action} onClick={() => actions.toggle(token)}>
          {toggle.action === 'disable' ? t('token.disable') : t('token.enable')}
        </sl-button>
        <sl-button size="small" variant="text" data-action="edit" onClick={() => actions.edit(token)}>
          {t('token.edit')}
        </sl-button>
        <sl-dropdown placement="bottom-end" hoist>
          <sl-icon-button
            slot="trigger"
            name="three-dots-vertical"
            label={t('token.more', { name: token.name })}
            data-action="more"
          ></sl-icon-button>
          <sl-menu
            onsl-select={(e: CustomEvent<{ item: HTMLElement & { value: string } }>) => {
              if (e.detail.item.value === 'quick-edit') actions.quickEdit(token)
              else if (e.detail.item.value === 'delete') actions.remove(token)
            }}
          >
            <sl-menu-item value="quick-edit" data-action="quick-edit">
              {quickEditing ? t('token.quickEditClose') : t('token.quickEdit')}
            </sl-menu-item>
            <sl-menu-item value="delete" data-action="delete" className="tg-danger-text">
              {t('token.delete')}
            </sl-menu-item>
          </sl-menu>
        </sl-dropdown>
      </span>
    </td>
  )
}
