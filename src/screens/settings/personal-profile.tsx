import { useStore } from '@nanostores/react'
import { useSettingsLabels } from './personal-labels.ts'
import * as selfApi from '../../api/self.ts'
import type { User } from '../../api/types.ts'
import { roleTier, type RoleTier } from '../../../domain/roles.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { LoadState } from '../../ui/load-state.tsx'
import { useLoad } from '../../ui/use-load.ts'
import '@shoelace-style/shoelace/dist/components/avatar/avatar.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'

const ROLE_VARIANT: Record<RoleTier, string> = { root: 'danger', admin: 'warning', user: 'primary' }

/** Name, role badge, id, group, balance, used quota, request count and the models (click to copy). */
export function ProfileCard({ user, onCopy }: { user: User; onCopy: (text: string) => void }) {
  const t = useSettingsLabels()
  const status = useStore($status)
  const { load: models, retry } = useLoad(() => selfApi.models(), `${user.id}-${user.group}`)

  return (
    <section className="tg-settings-card tg-profile" aria-labelledby="tg-profile-title" data-card="profile">
      <header className="tg-profile__head">
        <sl-avatar initials={(user.display_name || user.username).slice(0, 1).toUpperCase()} label={user.username}></sl-avatar>
        <div className="tg-profile__name">
          <h2 id="tg-profile-title">{user.display_name || user.username}</h2>
          <div className="tg-profile__meta">
            <sl-tag size="small" variant={ROLE_VARIANT[roleTier(user.role)]} pill data-role={user.role}>
              {t(`role.${roleTier(user.role)}`)}
            </sl-tag>
            <span className="tg-muted">@{user.username}</span>
          </div>
        </div>
      </header>
      <dl className="tg-stats">
        <div>
          <dt>{t('settings.profile.id')}</dt>
          <dd data-fact="id">{user.id}</dd>
        </div>
        <div>
          <dt>{t('settings.profile.group')}</dt>
          <dd data-fact="group">{user.group}</dd>
        </div>
        <div>
          <dt>{t('settings.profile.balance')}</dt>
          <dd data-fact="quota">{formatQuota(user.quota, status)}</dd>
        </div>
        <div>
          <dt>{t('settings.profile.used')}</dt>
          <dd data-fact="used">{formatQuota(user.used_quota, status)}</dd>
        </div>
        <div>
          <dt>{t('settings.profile.requests')}</dt>
          <dd data-fact="requests">{user.request_count}</dd>
        </div>
      </dl>
      <h3 className="tg-settings-card__sub">{t('settings.profile.models')}</h3>
      <LoadState
        load={models}
        onRetry={retry}
        skeletonRows={2}
        isEmpty={(list) => list.length === 0}
        empty={<p className="tg-muted tg-small">{t('settings.profile.noModels')}</p>}
      >
        {(list) => (
          <div className="tg-models" data-models="">
            {list.map((model) => (
              <button type="button" key={model} className="tg-chip" title={t('settings.profile.copyModel')} onClick={() => onCopy(model)}>
                {model}
              </button>
            ))}
          </div>
        )}
      </LoadState>
    </section>
  )
}
