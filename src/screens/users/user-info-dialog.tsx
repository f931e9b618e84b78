import { useStore } from '@nanostores/react'
import * as usersApi from '../../api/users.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { LoadState } from '../../ui/load-state.tsx'
import { useLoad } from '../../ui/use-load.ts'
import { formatQuota } from '../../ui/format.ts'
import { useLabels } from '../../ui/admin/labels.ts'
import { RoleBadge, StateBadge } from './users-table.tsx'
import { DEFAULT_GROUP, outranks } from '../../../domain/roles.ts'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'

/**
 * What an administrator sees on clicking a username: the user's account, quota and invitations.
 * The server reads a user afresh only for a viewer who outranks them; another administrator or
 * the super administrator is shown as the list row already has them (issue 13, item 15).
 */
export function UserInfoDialog({ user, viewerRole, onClose }: { user: User | null; viewerRole: number; onClose: () => void }) {
  const L = useLabels()
  return (
    <sl-dialog
      label={user ? L('users.infoTitle', { name: user.username }) : ''}
      open={user !== null}
      data-dialog="user-info"
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) onClose()
      }}
    >
      {user && <UserInfo key={user.id} id={user.id} row={outranks(viewerRole, user.role) ? null : user} />}
    </sl-dialog>
  )
}

function UserInfo({ id, row }: { id: number; row: User | null }) {
  const L = useLabels()
  const status = useStore($status)
  const { load, retry } = useLoad(row ? null : () => usersApi.one(id, true), id, row ? { state: 'ready', data: row } : undefined)
  const q = (n: number) => formatQuota(n ?? 0, status)
  return (
    <LoadState load={load} skeletonRows={4} onRetry={retry}>
      {(u) => (
        <dl className="tg-facts" data-user-info="">
          {(
            [
              ['id', 'ID', u.id],
              ['username', L('users.col.username'), u.username],
              ['display_name', L('users.field.displayName'), u.display_name || '-'],
              ['role', L('users.col.role'), <RoleBadge key="role" role={u.role} />],
              ['status', L('users.col.status'), <StateBadge key="status" user={u} />],
              ['group', L('users.col.group'), u.group || DEFAULT_GROUP],
              ['quota', L('users.col.quota'), q(u.quota)],
              ['used_quota', L('users.usedQuota'), q(u.used_quota)],
              ['request_count', L('users.col.requests'), u.request_count ?? 0],
              ['aff_count', L('users.affCount'), u.aff_count ?? 0],
              ['aff_quota', L('users.affQuota'), q(u.aff_quota)],
              ['aff_history_quota', L('users.affHistory'), q(u.aff_history_quota)],
              ['inviter_id', L('users.inviter'), u.inviter_id ? u.inviter_id : L('users.none')],
              ['email', L('users.binding.email'), u.email || L('users.notBound')],
              ['github_id', L('users.binding.github'), u.github_id || L('users.notBound')],
              ['wechat_id', L('users.binding.wechat'), u.wechat_id || L('users.notBound')],
              ['telegram_id', L('users.binding.telegram'), u.telegram_id || L('users.notBound')],
            ] as const
          ).map(([key, label, value]) => (
            <div key={key} data-fact={key}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </LoadState>
  )
}
