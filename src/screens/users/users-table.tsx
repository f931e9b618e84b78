import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import type { User } from '../../api/types.ts'
import { DEFAULT_GROUP, isAdmin, isRoot, ROLE, roleTier, USER_STATUS, userState, type RoleTier } from '../../../domain/roles.ts'
import type { ManageAction } from '../../api/users.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { useLabels, type LabelKey } from '../../ui/admin/labels.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'

export interface UserActions {
  info: (u: User) => void
  edit: (u: User) => void
  manage: (u: User, action: ManageAction) => void
}

const ROLE_VARIANT: Record<RoleTier, string> = { user: 'neutral', admin: 'primary', root: 'warning' }
const STATE_VARIANT: Record<string, string> = { activated: 'success', banned: 'danger', cancelled: 'neutral', unknown: 'neutral' }

/** The role badge of a user: 1 user, 10 administrator, 100 super administrator. */
export function RoleBadge({ role }: { role: number }) {
  const t = useT()
  const tier = roleTier(role)
  return (
    <sl-tag size="small" variant={ROLE_VARIANT[tier]} data-cell="role" data-role={role}>
      {t(`role.${tier}`)}
    </sl-tag>
  )
}

/** Activated, banned or cancelled. */
export function StateBadge({ user }: { user: Pick<User, 'status' | 'DeletedAt'> }) {
  const L = useLabels()
  const state = userState(user.status, !!user.DeletedAt)
  return (
    <sl-tag size="small" variant={STATE_VARIANT[state]} data-cell="status" data-state={state}>
      {L(`users.state.${state}` as LabelKey)}
    </sl-tag>
  )
}

/** The actions a row offers the viewer `me`: promote, demote, enable or disable, edit, delete. */
function UserRowActions({ u, me, actions, pending }: { u: User; me: User; actions: UserActions; pending: ReadonlySet<string> }) {
  const L = useLabels()
  const meRoot = isRoot(me.role)
  const cancelled = !!u.DeletedAt
  const canAct = meRoot || u.role < me.role
  const targetRoot = isRoot(u.role)
  const busy = (a: string) => pending.has(`${u.id}:${a}`)
  const button = (action: ManageAction, label: string, extra: Record<string, unknown> = {}) => (
    <sl-button size="small" data-action={action} loading={busy(action)} onClick={() => actions.manage(u, action)} {...extra}>
      {label}
    </sl-button>
  )
  return (
    <div className="tg-admin__actions">
      {!canAct && (
        <span className="tg-admin__sub" data-no-actions="">
          {L('users.noPermission')}
        </span>
      )}
      {canAct && !cancelled && meRoot && !isAdmin(u.role) && button('promote', L('users.promote'))}
      {canAct && !cancelled && meRoot && u.role === ROLE.admin && button('demote', L('users.demote'))}
      {canAct &&
        !cancelled &&
        !targetRoot &&
        (u.status === USER_STATUS.enabled
          ? button('disable', L('admin.disable'))
          : button('enable', L('admin.enable'), { disabled: u.status === 3 }))}
      {canAct && !cancelled && (
        <sl-button size="small" data-action="edit" onClick={() => actions.edit(u)}>
          {L('admin.edit')}
        </sl-button>
      )}
      {canAct && !targetRoot && button('delete', L('admin.delete'), { variant: 'danger', outline: true })}
    </div>
  )
}

/** One user's row. */
function UserRow({ u, me, actions, pending }: { u: User; me: User; actions: UserActions; pending: ReadonlySet<string> }) {
  const L = useLabels()
  const status = useStore($status)
  const state = userState(u.status, !!u.DeletedAt)
  return (
    <tr data-id={u.id} data-state={state} className={state === 'activated' ? undefined : 'tg-admin__row--shaded'}>
      <td data-label="ID">{u.id}</td>
      <td data-label={L('users.col.username')}>
        <div>
          <button type="button" className="tg-admin__link" data-action="info" data-cell="username" onClick={() => actions.info(u)}>
            {u.username}
          </button>
          {u.display_name && u.display_name !== u.username && <span className="tg-admin__sub">{u.display_name}</span>}
        </div>
      </td>
      <td data-label={L('users.col.group')}>
        <sl-tag size="small" variant="neutral">
          {u.group || DEFAULT_GROUP}
        </sl-tag>
      </td>
      <td data-label={L('users.col.quota')}>
        <div>
          <span data-cell="quota">{formatQuota(u.quota ?? 0, status)}</span>
          <span className="tg-admin__sub">{L('channels.used', { quota: formatQuota(u.used_quota ?? 0, status) })}</span>
        </div>
      </td>
      <td data-label={L('users.col.requests')}>{u.request_count ?? 0}</td>
      <td data-label={L('users.col.role')}>
        <RoleBadge role={u.role} />
      </td>
      <td data-label={L('users.col.status')}>
        <StateBadge user={u} />
      </td>
      <td data-label={L('admin.actions')}>
        <UserRowActions u={u} me={me} actions={actions} pending={pending} />
      </td>
    </tr>
  )
}

/**
 * The user table. What a row offers depends on the viewer: an administrator acts only on users
 * of a lower role, only the super administrator promotes and demotes, the super administrator
 * account is never disabled, demoted or deleted, and a cancelled account offers delete only.
 */
export function UsersTable({ rows, me, actions, pending }: { rows: User[]; me: User; actions: UserActions; pending: ReadonlySet<string> }) {
  const L = useLabels()
  return (
    <div className="tg-admin__table-wrap">
      <table className="tg-admin__table" part="table" data-table="users">
        <thead>
          <tr>
            <th>ID</th>
            <th>{L('users.col.username')}</th>
            <th>{L('users.col.group')}</th>
            <th>{L('users.col.quota')}</th>
            <th>{L('users.col.requests')}</th>
            <th>{L('users.col.role')}</th>
            <th>{L('users.col.status')}</th>
            <th>{L('admin.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <UserRow key={u.id} u={u} me={me} actions={actions} pending={pending} />
          ))}
        </tbody>
      </table>
    </div>
  )
}
