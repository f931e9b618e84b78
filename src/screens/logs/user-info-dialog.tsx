import { useStore } from '@nanostores/react'
import { useLogLabels } from './logs-labels.ts'
import { loadLogUser } from '../../stores/logs.ts'
import { ApiError } from '../../api/errors.ts'
import { roleTier } from '../../../domain/roles.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { LoadState } from '../../ui/load-state.tsx'
import { useLoad } from '../../ui/use-load.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'

/** Administrators: who a log row belongs to (GET /api/user/{id}), opened by clicking the username. */
export function UserInfoDialog({ target, onClose }: { target: { id: number; username: string } | null; onClose: () => void }) {
  const t = useLogLabels()
  const status = useStore($status)
  const id = target?.id ?? 0
  const { load, retry } = useLoad(
    id
      ? () =>
          loadLogUser(id).catch((error: Error) => {
            // another administrator or root: the server answers their details to root only, so the
            // dialog shows what the log row has (issue 13, item 15)
            if (error instanceof ApiError && (error.data as { outranked?: boolean } | null)?.outranked) return null
            throw error
          })
      : null,
    id,
  )

  return (
    <sl-dialog
      label={t('logs.userInfo.title', { name: target?.username ?? '' })}
      open={target !== null}
      data-dialog="user-info"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}
    >
      <LoadState load={load} onRetry={retry} skeletonRows={4}>
        {(user) =>
          user === null ? (
            <dl className="tg-facts" data-user-info={id} data-limited="">
              <dt>{t('logs.userInfo.username')}</dt>
              <dd>{target?.username}</dd>
              <dt>{t('logs.userInfo.id')}</dt>
              <dd>{id}</dd>
              <dd className="tg-facts__note">{t('logs.userInfo.limited')}</dd>
            </dl>
          ) : (
            <dl className="tg-facts" data-user-info={user.id}>
              <dt>{t('logs.userInfo.username')}</dt>
              <dd>{user.username}</dd>
              <dt>{t('logs.userInfo.displayName')}</dt>
              <dd>{user.display_name || '—'}</dd>
              <dt>{t('logs.userInfo.id')}</dt>
              <dd>{user.id}</dd>
              <dt>{t('logs.userInfo.role')}</dt>
              <dd>{t(`role.${roleTier(user.role)}`)}</dd>
              <dt>{t('logs.userInfo.group')}</dt>
              <dd>{user.group}</dd>
              <dt>{t('logs.userInfo.balance')}</dt>
              <dd data-fact="quota">{formatQuota(user.quota, status)}</dd>
              <dt>{t('logs.userInfo.used')}</dt>
              <dd data-fact="used">{formatQuota(user.used_quota, status)}</dd>
              <dt>{t('logs.userInfo.requests')}</dt>
              <dd data-fact="requests">{user.request_count}</dd>
              <dt>{t('logs.userInfo.email')}</dt>
              <dd>{user.email || '—'}</dd>
            </dl>
          )
        }
      </LoadState>
      <sl-button slot="footer" onClick={onClose}>
        {t('common.close')}
      </sl-button>
    </sl-dialog>
  )
}
